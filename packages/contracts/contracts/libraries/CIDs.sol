// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @dev CIDv1 strings are about 60 bytes; the cap keeps calldata, event and storage costs bounded.
uint256 constant MAX_CID_LENGTH = 128;

/// @dev Whether `cid` is non-empty and at most MAX_CID_LENGTH bytes. The contracts cannot parse CIDs cheaply;
/// the SDK verifies content against them.
function isValidCID(string calldata cid) pure returns (bool) {
    return bytes(cid).length != 0 && bytes(cid).length <= MAX_CID_LENGTH;
}
