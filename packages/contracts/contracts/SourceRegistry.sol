// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ISourceRegistry, Requirements, Source, SourceTerms} from "./interfaces/ISourceRegistry.sol";
import {isValidCID} from "./libraries/CIDs.sol";

/// @title Source registry
/// @notice Permissionless: anyone publishes sources; only a source's owner changes it.
contract SourceRegistry is ISourceRegistry {
    /// @inheritdoc ISourceRegistry
    uint32 public constant MAX_RUNTIME_SEC = 7 days;
    /// @inheritdoc ISourceRegistry
    uint16 public constant MAX_CREATOR_FEE_BPS = 5_000;
    uint16 private constant BPS = 10_000;

    /// @dev Slot 0 holds everything the market reads when a task is submitted, so that costs one SLOAD.
    struct SourceData {
        // slot 0
        bool active;
        uint16 creatorFeeBps;
        uint8 minGpus;
        uint32 minVramMiB;
        uint8 minComputeCapability;
        uint32 maxRuntimeSec;
        bool deterministic;
        uint16 failureFeeBps;
        uint32 validator;
        /// @dev Non-zero for every published source: the existence check.
        uint40 publishedAt;
        uint32 predecessor;
        // slot 1
        address owner;
        // slot 2
        bytes32 imageDigest;
        // slot 3+
        string metadataCID;
    }

    uint32 private _sourceCount;
    mapping(uint32 sourceId => SourceData) private _sources;

    /// @inheritdoc ISourceRegistry
    function publish(
        bytes32 imageDigest,
        string calldata metadataCID,
        Requirements calldata requirements,
        uint16 creatorFeeBps,
        uint32 predecessor,
        uint16 failureFeeBps,
        uint32 validator
    ) external returns (uint32 sourceId) {
        if (imageDigest == bytes32(0)) revert SourceRegistryZeroImageDigest();
        if (!isValidCID(metadataCID)) revert SourceRegistryInvalidMetadataCID();
        if (requirements.maxRuntimeSec == 0 || requirements.maxRuntimeSec > MAX_RUNTIME_SEC) {
            revert SourceRegistryInvalidRequirements();
        }
        if (creatorFeeBps > MAX_CREATOR_FEE_BPS) {
            revert SourceRegistryCreatorFeeTooHigh(creatorFeeBps, MAX_CREATOR_FEE_BPS);
        }
        if (predecessor != 0) _requireOwner(predecessor);
        if (failureFeeBps > BPS) revert SourceRegistryFailureFeeTooHigh(failureFeeBps);
        if (validator != 0) {
            SourceData storage checker = _sources[validator];
            if (
                checker.publishedAt == 0 || !checker.deterministic
                    || checker.maxRuntimeSec > requirements.maxRuntimeSec
            ) revert SourceRegistryInvalidValidator(validator);
        }

        sourceId = ++_sourceCount;
        SourceData storage source = _sources[sourceId];
        source.active = true;
        source.creatorFeeBps = creatorFeeBps;
        source.minGpus = requirements.minGpus;
        source.minVramMiB = requirements.minVramMiB;
        source.minComputeCapability = requirements.minComputeCapability;
        source.maxRuntimeSec = requirements.maxRuntimeSec;
        source.deterministic = requirements.deterministic;
        source.failureFeeBps = failureFeeBps;
        source.validator = validator;
        source.publishedAt = uint40(block.timestamp);
        source.predecessor = predecessor;
        source.owner = msg.sender;
        source.imageDigest = imageDigest;
        source.metadataCID = metadataCID;
        emit SourcePublished(
            sourceId, msg.sender, predecessor, imageDigest, metadataCID, requirements, creatorFeeBps, failureFeeBps, validator
        );
    }

    /// @inheritdoc ISourceRegistry
    function deactivate(uint32 sourceId) external {
        SourceData storage source = _requireOwner(sourceId);
        if (!source.active) revert SourceRegistryActiveUnchanged(sourceId, false);
        source.active = false;
        emit SourceDeactivated(sourceId);
    }

    /// @inheritdoc ISourceRegistry
    function reactivate(uint32 sourceId) external {
        SourceData storage source = _requireOwner(sourceId);
        if (source.active) revert SourceRegistryActiveUnchanged(sourceId, true);
        source.active = true;
        emit SourceReactivated(sourceId);
    }

    /// @inheritdoc ISourceRegistry
    function transfer(uint32 sourceId, address to) external {
        if (to == address(0)) revert SourceRegistryZeroAddress();
        SourceData storage source = _requireOwner(sourceId);
        source.owner = to;
        emit SourceTransferred(sourceId, msg.sender, to);
    }

    /// @inheritdoc ISourceRegistry
    function getSource(uint32 sourceId) external view returns (Source memory) {
        SourceData storage source = _requireExists(sourceId);
        return Source({
            owner: source.owner,
            publishedAt: source.publishedAt,
            active: source.active,
            creatorFeeBps: source.creatorFeeBps,
            predecessor: source.predecessor,
            imageDigest: source.imageDigest,
            requirements: _requirements(source),
            failureFeeBps: source.failureFeeBps,
            validator: source.validator,
            metadataCID: source.metadataCID
        });
    }

    /// @inheritdoc ISourceRegistry
    function getSourceTerms(uint32 sourceId) external view returns (SourceTerms memory) {
        SourceData storage source = _requireExists(sourceId);
        return SourceTerms(
            source.active, source.creatorFeeBps, source.failureFeeBps, source.validator, _requirements(source)
        );
    }

    /// @inheritdoc ISourceRegistry
    function ownerOf(uint32 sourceId) external view returns (address) {
        return _requireExists(sourceId).owner;
    }

    /// @inheritdoc ISourceRegistry
    function sourceCount() external view returns (uint32) {
        return _sourceCount;
    }

    function _requireExists(uint32 sourceId) private view returns (SourceData storage source) {
        source = _sources[sourceId];
        if (source.publishedAt == 0) revert SourceRegistryUnknownSource(sourceId);
    }

    function _requireOwner(uint32 sourceId) private view returns (SourceData storage source) {
        source = _requireExists(sourceId);
        if (source.owner != msg.sender) revert SourceRegistryNotSourceOwner(sourceId, msg.sender);
    }

    function _requirements(SourceData storage source) private view returns (Requirements memory) {
        return Requirements(
            source.minGpus, source.minVramMiB, source.minComputeCapability, source.maxRuntimeSec, source.deterministic
        );
    }
}
