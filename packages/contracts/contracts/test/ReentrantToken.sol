// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {ERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/ERC20Permit.sol";

/// @title Reentrant token (test only)
/// @notice An ERC-20 with a hook: once armed, its next `transfer` or `transferFrom` calls `target` with
/// `callData` before moving any tokens, as a malicious asset would. The outcome of that inner call is recorded
/// instead of bubbled up, so a test can see both that the outer call went through and whether the inner one
/// was stopped by a reentrancy guard.
/// @dev The hook disarms itself before the inner call, so it fires exactly once per `arm`.
contract ReentrantToken is ERC20, ERC20Permit {
    /// @notice Selector of OpenZeppelin's `ReentrancyGuardReentrantCall()` (ReentrancyGuard and its transient twin).
    bytes4 public constant REENTRANT_CALL_SELECTOR = bytes4(keccak256("ReentrancyGuardReentrantCall()"));

    /// @notice Which token entry point fires the hook.
    enum Trigger {
        Any,
        Transfer,
        TransferFrom
    }

    address public target;
    bytes public callData;
    Trigger public trigger;
    bool public armed;

    /// @notice Whether the hook fired since the last `arm`.
    bool public attempted;
    /// @notice Whether the inner call reverted.
    bool public innerReverted;
    /// @notice Whether the inner call reverted with ReentrancyGuardReentrantCall().
    bool public blockedByGuard;
    /// @notice Return or revert data of the inner call.
    bytes public innerReturnData;

    /// @notice Emitted when the hook fires.
    event ReentryAttempted(address indexed target, bool success, bytes returnData);

    constructor() ERC20("Reentrant Token", "RENT") ERC20Permit("Reentrant Token") {}

    /// @notice Anyone may mint: this token only lives in tests.
    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }

    /// @notice Arms the hook: the next matching transfer calls `target_` with `callData_`.
    function arm(address target_, bytes calldata callData_, Trigger trigger_) external {
        target = target_;
        callData = callData_;
        trigger = trigger_;
        armed = true;
        attempted = false;
        innerReverted = false;
        blockedByGuard = false;
        delete innerReturnData;
    }

    /// @notice Disarms the hook without firing it.
    function disarm() external {
        armed = false;
    }

    /// @notice Makes this token contract call `to` with `data` as itself, e.g. to approve and deposit into the
    /// market so that a reentrant withdraw would have something to take.
    function execute(address to, bytes calldata data) external returns (bytes memory) {
        (bool ok, bytes memory ret) = to.call(data);
        if (!ok) {
            assembly ("memory-safe") {
                revert(add(ret, 0x20), mload(ret))
            }
        }
        return ret;
    }

    function transfer(address to, uint256 value) public override returns (bool) {
        _reenter(Trigger.Transfer);
        return super.transfer(to, value);
    }

    function transferFrom(address from, address to, uint256 value) public override returns (bool) {
        _reenter(Trigger.TransferFrom);
        return super.transferFrom(from, to, value);
    }

    function _reenter(Trigger entry) private {
        if (!armed || (trigger != Trigger.Any && trigger != entry)) return;
        armed = false;
        attempted = true;
        (bool ok, bytes memory ret) = target.call(callData);
        innerReverted = !ok;
        innerReturnData = ret;
        blockedByGuard = !ok && ret.length == 4 && bytes4(ret) == REENTRANT_CALL_SELECTOR;
        emit ReentryAttempted(target, ok, ret);
    }
}
