// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {ERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/ERC20Permit.sol";
import {ERC20Votes} from "@openzeppelin/contracts/token/ERC20/extensions/ERC20Votes.sol";
import {Nonces} from "@openzeppelin/contracts/utils/Nonces.sol";

/// @title Gridforge token (GRID)
/// @notice Utility and governance token for local and test deployments: ERC-20 with EIP-2612 permits
/// and ERC-5805 votes. Production deployments may use any ERC-20 as the market's asset.
/// @dev The whole supply is minted once, to `recipient`; there is no owner and no further minting.
contract GridToken is ERC20, ERC20Permit, ERC20Votes {
    /// @param recipient Receives the initial supply.
    /// @param initialSupply Total supply, in wei (18 decimals).
    constructor(address recipient, uint256 initialSupply) ERC20("Gridforge Token", "GRID") ERC20Permit("Gridforge Token") {
        _mint(recipient, initialSupply);
    }

    function _update(address from, address to, uint256 value) internal override(ERC20, ERC20Votes) {
        super._update(from, to, value);
    }

    function nonces(address owner) public view override(ERC20Permit, Nonces) returns (uint256) {
        return super.nonces(owner);
    }
}
