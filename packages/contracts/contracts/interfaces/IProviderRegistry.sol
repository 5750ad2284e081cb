// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Requirements} from "./ISourceRegistry.sol";

/// @notice What a provider's host offers.
struct Capabilities {
    uint8 gpuCount;
    /// @notice Memory of the smallest GPU, in MiB.
    uint32 vramMiB;
    /// @notice Lowest CUDA compute capability among the GPUs, times ten (89 for sm_89).
    uint8 computeCapability;
    uint16 cpuCores;
    uint32 memoryMiB;
}

/// @notice Counters kept by the market; the basis of reputation gates.
struct Reputation {
    /// @notice Slots claimed.
    uint32 claimed;
    /// @notice Slots completed and paid.
    uint32 completed;
    /// @notice Slots not delivered in time (no-shows, missed reveals).
    uint32 failed;
    /// @notice Slots whose result lost a consensus vote.
    uint32 outvoted;
    /// @notice Sum of paid runtimes, in seconds.
    uint64 totalRuntimeSec;
    /// @notice Sum of slashed collateral.
    uint128 slashedAmount;
    /// @notice Slots delivered as a failure report (non-zero exit, timeout, out of memory, output too large): paid
    /// the source's failure terms, never slashed, not counted in `completed` or against the success rate.
    uint32 failedRuns;
}

/// @notice A provider's profile.
struct ProviderInfo {
    bool registered;
    bool paused;
    uint40 registeredAt;
    Capabilities capabilities;
    Reputation reputation;
}

/// @title Provider registry
/// @notice Provider profiles, capabilities, source subscriptions and reputation counters.
interface IProviderRegistry {
    /// @notice Emitted when a provider registers. `profileCID` holds the full hardware report.
    event ProviderRegistered(address indexed provider, Capabilities capabilities, string profileCID);
    /// @notice Emitted when a provider updates its capabilities and profile.
    event ProviderUpdated(address indexed provider, Capabilities capabilities, string profileCID);
    /// @notice Emitted when a provider joins a source's pool.
    event ProviderSubscribed(address indexed provider, uint32 indexed sourceId);
    /// @notice Emitted when a provider leaves a source's pool.
    event ProviderUnsubscribed(address indexed provider, uint32 indexed sourceId);
    /// @notice Emitted when a provider stops taking tasks.
    event ProviderPaused(address indexed provider);
    /// @notice Emitted when a provider takes tasks again.
    event ProviderResumed(address indexed provider);
    /// @notice Emitted when a provider publishes the least it takes per GPU-second.
    event PriceFloorSet(address indexed provider, uint256 minPricePerGpuSecond);
    /// @notice Emitted when the owner changes the stake needed to register.
    event MinProviderStakeUpdated(uint256 minProviderStake);
    /// @notice Emitted when the owner changes the least payment a completion needs to count in the record.
    event MinRecordPaymentUpdated(uint256 minRecordPayment);

    /// @notice The caller is already registered.
    error ProviderRegistryAlreadyRegistered(address provider);
    /// @notice The provider is not registered.
    error ProviderRegistryNotRegistered(address provider);
    /// @notice Available stake is below minProviderStake: stake more first.
    error ProviderRegistryInsufficientStake(address provider, uint256 available, uint256 required);
    /// @notice Capabilities must declare at least one CPU core and some memory.
    error ProviderRegistryInvalidCapabilities();
    /// @notice The profile CID is empty or longer than 128 bytes.
    error ProviderRegistryInvalidProfileCID();
    /// @notice The source does not exist.
    error ProviderRegistryUnknownSource(uint32 sourceId);
    /// @notice The provider is already paused / already active.
    error ProviderRegistryPausedUnchanged(address provider, bool paused);
    /// @notice The provider is paused and cannot claim.
    error ProviderRegistryPaused(address provider);
    /// @notice The provider is not subscribed to the task's source.
    error ProviderRegistryNotSubscribed(address provider, uint32 sourceId);
    /// @notice The provider's capabilities do not meet the task's requirements.
    error ProviderRegistryInsufficientCapabilities(address provider);
    /// @notice The provider's completed count or success rate is below the task's gates.
    error ProviderRegistryReputationTooLow(address provider, uint32 completed, uint16 successBps);
    /// @notice Only the market may do this.
    error ProviderRegistryNotMarket(address caller);
    /// @notice The address is zero.
    error ProviderRegistryZeroAddress();
    /// @notice More than 100 source ids in one call; split the list.
    error ProviderRegistryTooManySources(uint256 count);
    /// @notice minProviderStake is above MAX_MIN_PROVIDER_STAKE.
    error ProviderRegistryMinStakeOutOfBounds(uint256 value, uint256 max);
    /// @notice minRecordPayment above its bound (MAX_MIN_PROVIDER_STAKE).
    error ProviderRegistryMinRecordPaymentOutOfBounds(uint256 value, uint256 max);

    /// @notice Upper bound of minProviderStake.
    function MAX_MIN_PROVIDER_STAKE() external view returns (uint256);
    /// @notice Available stake needed to register.
    function minProviderStake() external view returns (uint256);
    /// @notice The least payment a completed slot needs to count in `completed` (and so in the reputation gates):
    /// a record of N completions costs its builder at least N × the protocol fee on this much work. Initially a
    /// thousandth of minProviderStake.
    function minRecordPayment() external view returns (uint256);
    /// @notice The market allowed to update reputation (it deploys this contract).
    function market() external view returns (address);

    /// @notice Registers the caller as a provider; needs available stake ≥ minProviderStake.
    function register(Capabilities calldata capabilities, string calldata profileCID) external;
    /// @notice Replaces the caller's capabilities and profile.
    function updateCapabilities(Capabilities calldata capabilities, string calldata profileCID) external;
    /// @notice Joins the pools of `sourceIds`. Already-subscribed ids are skipped.
    function subscribe(uint32[] calldata sourceIds) external;
    /// @notice Leaves the pools of `sourceIds`. Ids not subscribed are skipped.
    function unsubscribe(uint32[] calldata sourceIds) external;
    /// @notice Stops claiming new tasks; running claims are unaffected.
    function pause() external;
    /// @notice Takes tasks again.
    function resume() external;
    /// @notice Publishes the least the caller takes per GPU-second, in base units of the token, so that clients can
    /// see before submitting who would take a task at a price. Informational: claims do not check it (a provider
    /// that claims below its floor only breaks its own word). A task's price per GPU-second is `pricePerSecond` of a
    /// metered task, else `maxPayment / maxRuntimeSec`, divided by `max(1, minGpus)`: what the provider agent
    /// compares with its policy's `minPricePerGpuSecond`. Reverts with ProviderRegistryNotRegistered for an
    /// unregistered caller: register first.
    /// @param minPricePerGpuSecond The floor; 0 takes any price.
    function setPriceFloor(uint256 minPricePerGpuSecond) external;

    /// @notice The provider's profile (all zero if not registered).
    function getProvider(address provider) external view returns (ProviderInfo memory);
    /// @notice The provider's reputation counters.
    function getReputation(address provider) external view returns (Reputation memory);
    /// @notice completed / (completed + failed + outvoted) in basis points; 0 with no history (no record).
    function successBps(address provider) external view returns (uint16);
    /// @notice Whether `provider` is in `sourceId`'s pool.
    function isSubscribed(address provider, uint32 sourceId) external view returns (bool);
    /// @notice The least `provider` takes per GPU-second, as it last published with setPriceFloor (0 if never).
    function priceFloorOf(address provider) external view returns (uint256);

    /// @notice Market only: reverts with a typed error unless `provider` may claim a task with these terms;
    /// otherwise counts the claim.
    function recordClaim(
        address provider,
        uint32 sourceId,
        Requirements calldata requirements,
        uint16 minSuccessBps,
        uint32 minCompleted
    ) external;
    /// @notice Market only: counts a paid slot and its runtime: as a failed run if `failedRun`, as completed if its
    /// `payment` is at least minRecordPayment (smaller work does not vouch for a provider).
    function recordCompletion(address provider, uint32 runtimeSec, uint256 payment, bool failedRun) external;
    /// @notice Market only: counts a failed slot (`outvoted` or not) and the collateral slashed for it.
    function recordFailure(address provider, bool outvoted, uint256 slashedAmount) external;
    /// @notice Market only: an audit overturned a result counted as completed (or as a failed run); it counts as
    /// outvoted instead.
    function recordOverturned(address provider, uint256 slashedAmount, uint256 payment, bool failedRun) external;
    /// @notice The stake `provider` must keep: minProviderStake while registered and not paused, else 0. A slash
    /// that leaves less pauses the provider; resuming needs the minimum again.
    function stakeFloorOf(address provider) external view returns (uint256);

    /// @notice Owner only: stake needed to register (≤ MAX_MIN_PROVIDER_STAKE).
    function setMinProviderStake(uint256 minProviderStake) external;
    /// @notice Owner only: sets minRecordPayment (at most MAX_MIN_PROVIDER_STAKE).
    function setMinRecordPayment(uint256 minRecordPayment) external;
}
