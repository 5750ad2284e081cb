// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @notice Why a run failed. A failure is a result: the provider hands in a failure digest (see failureDigest)
/// instead of an output's, with the run's logs as the result CID.
enum FailureKind {
    None,
    /// @notice The workload exited with a non-zero code.
    Exited,
    /// @notice The workload was still running at the task's runtime limit.
    TimedOut,
    /// @notice The workload was killed for running out of memory.
    OutOfMemory,
    /// @notice The workload's output was over the size cap.
    OutputTooLarge
}

/// @dev The low 8 bytes of every failure digest ("gf:fail" and a zero byte). A sha256 output digest ends with
/// them with probability 2^-64.
uint256 constant FAILURE_MARK = 0x67663a6661696c00;

/// @dev Bytes 0 and 1 of a failure digest: its kind and exit code, the part a result's tag keeps.
uint256 constant FAILURE_HEAD = 0xFFFF << 240;

/// @dev What an auditor of a source with a validator reveals when the validator passed the result: the held
/// result's tag is this digest's, so that a verdict compares validators' answers like re-runs' digests.
bytes32 constant VALIDATION_PASSED = keccak256("gridforge.validation.passed");

/// @dev The digest of a failed run: kind in byte 0, exit code in byte 1, zeros, then FAILURE_MARK. Every honest
/// run that fails the same way hands in the same digest, so failures are compared and audited like outputs.
function failureDigest(FailureKind kind, uint8 exitCode) pure returns (bytes32) {
    return bytes32((uint256(kind) << 248) | (uint256(exitCode) << 240) | FAILURE_MARK);
}

/// @dev The failure a digest reports, or FailureKind.None for an output's digest.
function failureOf(bytes32 digest) pure returns (FailureKind) {
    uint256 value = uint256(digest);
    uint256 kind = value >> 248;
    if (value & ~FAILURE_HEAD != FAILURE_MARK || kind == 0 || kind > uint256(FailureKind.OutputTooLarge)) {
        return FailureKind.None;
    }
    return FailureKind(kind);
}

/// @dev The seal of a result digest: what a provider hands in (submitResult) or replicas commit to and reveal, in
/// place of the digest itself. The output is encrypted to the client (TaskParams.resultKey), so only its provider
/// and its client know the digest; an auditor reveals the digest it found and the market seals it. An auditor
/// who did not compute the result cannot answer the seal it sees: it has no preimage to reveal.
/// A failure digest is not sealed: its kind decides the payment, and a re-run finds the same public kind anyway.
function sealOf(uint256 taskId, bytes32 digest) pure returns (bytes32) {
    if (failureOf(digest) != FailureKind.None) return digest;
    return keccak256(abi.encode(taskId, digest));
}
