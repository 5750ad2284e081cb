// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @notice What a task needs from a provider's host. Tasks may only tighten a source's requirements.
/// @dev Packed into one storage slot.
struct Requirements {
    /// @notice Minimum number of GPUs.
    uint8 minGpus;
    /// @notice Minimum memory of each GPU, in MiB.
    uint32 minVramMiB;
    /// @notice Minimum CUDA compute capability times ten (80 for sm_80, 120 for sm_120).
    uint8 minComputeCapability;
    /// @notice Longest run the source may take, in seconds (> 0).
    uint32 maxRuntimeSec;
    /// @notice Whether honest replicas produce identical outputs, so that k > 1 replicas can be compared.
    bool deterministic;
}

/// @notice A published, containerized execution model.
struct Source {
    address owner;
    uint40 publishedAt;
    bool active;
    /// @notice Share of the protocol fee paid to the source owner, in basis points.
    uint16 creatorFeeBps;
    /// @notice The source this one is a new version of (0 = none).
    uint32 predecessor;
    /// @notice sha256 digest of the OCI image manifest.
    bytes32 imageDigest;
    Requirements requirements;
    /// @notice What a run that fails (non-zero exit, timeout at the limit, out of memory, output over the cap)
    /// pays on a fixed-price task, in basis points of its price. Metered tasks pay the runtime used instead.
    uint16 failureFeeBps;
    /// @notice The source that checks this one's results (0 = none): run on a task's input and a result, it
    /// exits 0 if the result passes. Audits of results of this source run the validator instead of the workload.
    uint32 validator;
    /// @notice CID of the metadata JSON (name, command, env, paths, resources, ...).
    string metadataCID;
}

/// @notice What the market reads of a source: at submission, and when a run fails.
struct SourceTerms {
    bool active;
    uint16 creatorFeeBps;
    uint16 failureFeeBps;
    uint32 validator;
    Requirements requirements;
}

/// @title Source registry
/// @notice Clients publish containerized sources here; tasks run against them.
interface ISourceRegistry {
    /// @notice Emitted when a source is published.
    event SourcePublished(
        uint32 indexed sourceId,
        address indexed owner,
        uint32 indexed predecessor,
        bytes32 imageDigest,
        string metadataCID,
        Requirements requirements,
        uint16 creatorFeeBps,
        uint16 failureFeeBps,
        uint32 validator
    );
    /// @notice Emitted when the owner stops a source from taking new tasks.
    event SourceDeactivated(uint32 indexed sourceId);
    /// @notice Emitted when the owner lets a deactivated source take new tasks again.
    event SourceReactivated(uint32 indexed sourceId);
    /// @notice Emitted when a source changes owner.
    event SourceTransferred(uint32 indexed sourceId, address indexed from, address indexed to);

    /// @notice The source does not exist.
    error SourceRegistryUnknownSource(uint32 sourceId);
    /// @notice Only the source owner may do this.
    error SourceRegistryNotSourceOwner(uint32 sourceId, address caller);
    /// @notice The image digest is zero.
    error SourceRegistryZeroImageDigest();
    /// @notice The metadata CID is empty or longer than 128 bytes.
    error SourceRegistryInvalidMetadataCID();
    /// @notice A requirement is out of range (maxRuntimeSec must be in 1..MAX_RUNTIME_SEC).
    error SourceRegistryInvalidRequirements();
    /// @notice The creator fee exceeds MAX_CREATOR_FEE_BPS.
    error SourceRegistryCreatorFeeTooHigh(uint16 creatorFeeBps, uint16 max);
    /// @notice The source is already in the requested active state.
    error SourceRegistryActiveUnchanged(uint32 sourceId, bool active);
    /// @notice The new owner is the zero address.
    error SourceRegistryZeroAddress();
    /// @notice The failure fee exceeds 10,000 basis points (the whole price).
    error SourceRegistryFailureFeeTooHigh(uint16 failureFeeBps);
    /// @notice A validator must be a published, deterministic source (its verdicts are compared between auditors)
    /// whose runtime limit is no longer than the workload's (it runs in the workload's audit window).
    error SourceRegistryInvalidValidator(uint32 validator);

    /// @notice Longest maxRuntimeSec a source may declare (7 days).
    function MAX_RUNTIME_SEC() external view returns (uint32);
    /// @notice Largest creatorFeeBps a source may declare (50% of the protocol fee).
    function MAX_CREATOR_FEE_BPS() external view returns (uint16);

    /// @notice Publishes a source. A new version of an existing source names it as `predecessor`
    /// and must be published by the predecessor's owner.
    /// @param imageDigest sha256 digest of the OCI image manifest (the `sha256:` part of `image@sha256:...`).
    /// @param metadataCID CID of the metadata JSON.
    /// @param requirements Host requirements; maxRuntimeSec must be in 1..MAX_RUNTIME_SEC.
    /// @param creatorFeeBps Share of the protocol fee paid to the source owner (≤ MAX_CREATOR_FEE_BPS).
    /// @param predecessor Previous version's id, or 0.
    /// @param failureFeeBps What a failed run pays on a fixed-price task, in basis points of its price (≤ 10,000).
    /// @param validator A deterministic source that checks results of this one, or 0.
    /// @return sourceId The new source's id (ids start at 1).
    function publish(
        bytes32 imageDigest,
        string calldata metadataCID,
        Requirements calldata requirements,
        uint16 creatorFeeBps,
        uint32 predecessor,
        uint16 failureFeeBps,
        uint32 validator
    ) external returns (uint32 sourceId);

    /// @notice Stops the source from taking new tasks. Tasks already submitted are unaffected.
    function deactivate(uint32 sourceId) external;

    /// @notice Lets a deactivated source take new tasks again.
    function reactivate(uint32 sourceId) external;

    /// @notice Transfers the source (and its future creator fees) to `to`.
    function transfer(uint32 sourceId, address to) external;

    /// @notice Returns a source; reverts with SourceRegistryUnknownSource if it does not exist.
    function getSource(uint32 sourceId) external view returns (Source memory);

    /// @notice Returns what the market reads of a source (one storage slot); reverts for unknown sources.
    function getSourceTerms(uint32 sourceId) external view returns (SourceTerms memory);

    /// @notice The source's current owner; reverts with SourceRegistryUnknownSource if it does not exist.
    function ownerOf(uint32 sourceId) external view returns (address);

    /// @notice Number of sources published so far (the highest id).
    function sourceCount() external view returns (uint32);
}
