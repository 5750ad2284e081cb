// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @notice The few Foundry cheatcodes these tests use. EDR (the Hardhat 3 Solidity test runner) serves them at
/// the standard cheatcode address; forge-std is not a dependency, so the interface is declared here.
interface Vm {
    struct Log {
        bytes32[] topics;
        bytes data;
        address emitter;
    }

    /// @notice Sets block.timestamp.
    function warp(uint256 newTimestamp) external;
    /// @notice The current block.timestamp. Tests read time through this, never `block.timestamp`: the via-IR
    /// optimizer treats TIMESTAMP as constant within a transaction and may reuse a value read before a warp.
    function getBlockTimestamp() external view returns (uint256);
    /// @notice Sets block.number.
    function roll(uint256 newHeight) external;
    /// @notice The current block.number (read it through this for the same reason as getBlockTimestamp).
    function getBlockNumber() external view returns (uint256);
    /// @notice Sets the hash BLOCKHASH returns for `blockNumber` (a block before the current one, within the last
    /// 256: older hashes read 0 whatever was set). Unset recent blocks have a fixed non-zero hash in this runner.
    function setBlockhash(uint256 blockNumber, bytes32 blockHash) external;
    /// @notice Sets msg.sender of the next call.
    function prank(address msgSender) external;
    /// @notice Sets msg.sender of every call until stopPrank.
    function startPrank(address msgSender) external;
    function stopPrank() external;
    /// @notice Discards the fuzz input when `condition` is false.
    function assume(bool condition) external pure;
    /// @notice Starts (and empties) the log recording.
    function recordLogs() external;
    /// @notice Returns and drains the logs recorded since recordLogs.
    function getRecordedLogs() external returns (Log[] memory logs);
    /// @notice Names an address in traces.
    function label(address account, string calldata newLabel) external;
    /// @notice The next call must revert with exactly `revertData`.
    function expectRevert(bytes calldata revertData) external;
    /// @notice The next call must revert, with any data.
    function expectRevert() external;
    /// @notice Signs `digest` with `privateKey` (secp256k1).
    function sign(uint256 privateKey, bytes32 digest) external pure returns (uint8 v, bytes32 r, bytes32 s);
    /// @notice The address of `privateKey`.
    function addr(uint256 privateKey) external pure returns (address);
}

Vm constant VM = Vm(address(uint160(uint256(keccak256("hevm cheat code")))));

/// @notice Assertions and input bounding shared by the suites (what forge-std's Test would provide).
abstract contract TestBase {
    Vm internal constant vm = VM;

    error AssertionFailed(string message, uint256 left, uint256 right);

    function assertEq(uint256 left, uint256 right, string memory message) internal pure {
        if (left != right) revert AssertionFailed(message, left, right);
    }

    function assertLe(uint256 left, uint256 right, string memory message) internal pure {
        if (left > right) revert AssertionFailed(message, left, right);
    }

    function assertGe(uint256 left, uint256 right, string memory message) internal pure {
        if (left < right) revert AssertionFailed(message, left, right);
    }

    function assertTrue(bool condition, string memory message) internal pure {
        if (!condition) revert AssertionFailed(message, 0, 1);
    }

    /// @notice Maps `x` into [min, max] uniformly enough for fuzzing, keeping small inputs where they are.
    function bound(uint256 x, uint256 min, uint256 max) internal pure returns (uint256) {
        require(min <= max, "bound: min > max");
        if (x >= min && x <= max) return x;
        uint256 size;
        // Wraps to 0 only for the full uint256 range, where every x is already in range.
        unchecked {
            size = max - min + 1;
        }
        return min + (x % size);
    }
}
