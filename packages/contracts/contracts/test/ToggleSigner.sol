// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC1271} from "@openzeppelin/contracts/interfaces/IERC1271.sol";

/// @title Toggle signer (test only)
/// @notice An ERC-1271 "wallet" whose owner decides, at any time, whether every signature is valid: what a renter
/// would name as a lease's ack signer to take back, after the service, the acknowledgements it gave.
contract ToggleSigner is IERC1271 {
    bool public valid = true;

    function setValid(bool valid_) external {
        valid = valid_;
    }

    function isValidSignature(bytes32, bytes memory) external view returns (bytes4) {
        return valid ? IERC1271.isValidSignature.selector : bytes4(0xffffffff);
    }
}
