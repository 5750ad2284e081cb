// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Ownable, Ownable2Step} from "@openzeppelin/contracts/access/Ownable2Step.sol";
import {
    Capabilities, IProviderRegistry, ProviderInfo, Reputation
} from "./interfaces/IProviderRegistry.sol";
import {ISourceRegistry, Requirements} from "./interfaces/ISourceRegistry.sol";
import {IStaking} from "./interfaces/IStaking.sol";
import {isValidCID} from "./libraries/CIDs.sol";

/// @title Provider registry
/// @notice Provider profiles, capabilities, source subscriptions and reputation counters.
contract ProviderRegistry is IProviderRegistry, Ownable2Step {
    /// @inheritdoc IProviderRegistry
    uint256 public constant MAX_MIN_PROVIDER_STAKE = 1e27;

    uint256 private constant BPS = 10_000;
    /// @dev Bounds one subscribe/unsubscribe call; call again for more.
    uint256 private constant MAX_SOURCES_PER_CALL = 100;

    /// @dev Slot 0 holds what every claim reads and writes; slot 1 what a completion writes. A claim reads
    /// slot 1 only when the task gates on reputation. (Field order is the packing: 31 bytes in slot 0.)
    struct Provider {
        // slot 0
        uint8 gpuCount;
        uint32 vramMiB;
        uint8 computeCapability;
        uint16 cpuCores;
        uint32 memoryMiB;
        bool registered;
        bool paused;
        uint32 claimed;
        uint32 failed;
        uint32 outvoted;
        uint40 registeredAt;
        // slot 1
        uint32 completed;
        uint48 totalRuntimeSec;
        uint128 slashedAmount;
        uint32 failedRuns;
    }

    ISourceRegistry private immutable _sources;
    IStaking private immutable _staking;
    /// @inheritdoc IProviderRegistry
    /// @dev Immutable: the market deploys this contract; the market check costs no storage read.
    address public immutable market;
    /// @inheritdoc IProviderRegistry
    uint256 public minProviderStake;
    /// @inheritdoc IProviderRegistry
    uint256 public minRecordPayment;

    mapping(address provider => Provider) private _providers;
    mapping(address provider => mapping(uint32 sourceId => bool)) private _subscribed;
    /// @dev Outside `Provider`: its two slots are full, and no claim reads the floor (only quotes do).
    mapping(address provider => uint256) private _priceFloors;

    modifier onlyMarket() {
        if (msg.sender != market) revert ProviderRegistryNotMarket(msg.sender);
        _;
    }

    /// @param market_ The task market (the deployer, when deployed by TaskMarket's constructor).
    constructor(
        ISourceRegistry sources_,
        IStaking staking_,
        address market_,
        address initialOwner,
        uint256 minProviderStake_
    ) Ownable(initialOwner) {
        if (address(sources_) == address(0) || address(staking_) == address(0) || market_ == address(0)) {
            revert ProviderRegistryZeroAddress();
        }
        _sources = sources_;
        _staking = staking_;
        market = market_;
        _setMinProviderStake(minProviderStake_);
        // A thousandth of the stake floor (0.1 GRID with the default 100 GRID floor) until the owner sets it.
        _setMinRecordPayment(minProviderStake_ / 1_000);
    }

    // ─── Providers ───

    /// @inheritdoc IProviderRegistry
    function register(Capabilities calldata capabilities, string calldata profileCID) external {
        Provider storage p = _providers[msg.sender];
        if (p.registered) revert ProviderRegistryAlreadyRegistered(msg.sender);
        uint256 available = _staking.availableOf(msg.sender);
        if (available < minProviderStake) {
            revert ProviderRegistryInsufficientStake(msg.sender, available, minProviderStake);
        }
        _setCapabilities(p, capabilities, profileCID);
        p.registered = true;
        p.registeredAt = uint40(block.timestamp);
        emit ProviderRegistered(msg.sender, capabilities, profileCID);
    }

    /// @inheritdoc IProviderRegistry
    function updateCapabilities(Capabilities calldata capabilities, string calldata profileCID) external {
        Provider storage p = _requireRegistered(msg.sender);
        _setCapabilities(p, capabilities, profileCID);
        emit ProviderUpdated(msg.sender, capabilities, profileCID);
    }

    /// @inheritdoc IProviderRegistry
    function subscribe(uint32[] calldata sourceIds) external {
        _requireRegistered(msg.sender);
        if (sourceIds.length > MAX_SOURCES_PER_CALL) revert ProviderRegistryTooManySources(sourceIds.length);
        uint32 count = _sources.sourceCount();
        for (uint256 i; i < sourceIds.length; ++i) {
            uint32 sourceId = sourceIds[i];
            if (sourceId == 0 || sourceId > count) revert ProviderRegistryUnknownSource(sourceId);
            if (_subscribed[msg.sender][sourceId]) continue;
            _subscribed[msg.sender][sourceId] = true;
            emit ProviderSubscribed(msg.sender, sourceId);
        }
    }

    /// @inheritdoc IProviderRegistry
    function unsubscribe(uint32[] calldata sourceIds) external {
        if (sourceIds.length > MAX_SOURCES_PER_CALL) revert ProviderRegistryTooManySources(sourceIds.length);
        for (uint256 i; i < sourceIds.length; ++i) {
            uint32 sourceId = sourceIds[i];
            if (!_subscribed[msg.sender][sourceId]) continue;
            _subscribed[msg.sender][sourceId] = false;
            emit ProviderUnsubscribed(msg.sender, sourceId);
        }
    }

    /// @inheritdoc IProviderRegistry
    function pause() external {
        Provider storage p = _requireRegistered(msg.sender);
        if (p.paused) revert ProviderRegistryPausedUnchanged(msg.sender, true);
        p.paused = true;
        emit ProviderPaused(msg.sender);
    }

    /// @inheritdoc IProviderRegistry
    function resume() external {
        Provider storage p = _requireRegistered(msg.sender);
        if (!p.paused) revert ProviderRegistryPausedUnchanged(msg.sender, false);
        uint256 staked = _staking.stakeOf(msg.sender).staked;
        if (staked < minProviderStake) revert ProviderRegistryInsufficientStake(msg.sender, staked, minProviderStake);
        p.paused = false;
        emit ProviderResumed(msg.sender);
    }

    /// @inheritdoc IProviderRegistry
    function setPriceFloor(uint256 minPricePerGpuSecond) external {
        _requireRegistered(msg.sender);
        _priceFloors[msg.sender] = minPricePerGpuSecond;
        emit PriceFloorSet(msg.sender, minPricePerGpuSecond);
    }

    // ─── Market ───

    /// @inheritdoc IProviderRegistry
    function recordClaim(
        address provider,
        uint32 sourceId,
        Requirements calldata requirements,
        uint16 minSuccessBps,
        uint32 minCompleted
    ) external onlyMarket {
        Provider storage p = _providers[provider];
        if (!p.registered) revert ProviderRegistryNotRegistered(provider);
        if (p.paused) revert ProviderRegistryPaused(provider);
        if (!_subscribed[provider][sourceId]) revert ProviderRegistryNotSubscribed(provider, sourceId);
        if (
            p.gpuCount < requirements.minGpus || p.vramMiB < requirements.minVramMiB
                || p.computeCapability < requirements.minComputeCapability
        ) revert ProviderRegistryInsufficientCapabilities(provider);
        if (minCompleted != 0 || minSuccessBps != 0) {
            uint16 success = _successBps(p);
            if (p.completed < minCompleted || success < minSuccessBps) {
                revert ProviderRegistryReputationTooLow(provider, p.completed, success);
            }
        }
        ++p.claimed;
    }

    /// @inheritdoc IProviderRegistry
    function recordCompletion(address provider, uint32 runtimeSec, uint256 payment, bool failedRun)
        external
        onlyMarket
    {
        Provider storage p = _providers[provider];
        if (failedRun) ++p.failedRuns;
        // Only work worth a protocol fee vouches for a provider: a record of self-dealt dust tasks must cost
        // something, at least the fee on minRecordPayment per completion.
        else if (payment >= minRecordPayment) ++p.completed;
        p.totalRuntimeSec += runtimeSec;
    }

    /// @inheritdoc IProviderRegistry
    function recordFailure(address provider, bool outvoted, uint256 slashedAmount) external onlyMarket {
        Provider storage p = _providers[provider];
        if (outvoted) ++p.outvoted;
        else ++p.failed;
        // Collateral amounts fit in 88 bits (the market's storage width), so the sum cannot reach 2^128.
        p.slashedAmount += uint128(slashedAmount);
        _pauseIfUnderstaked(p, provider, slashedAmount);
    }

    /// @inheritdoc IProviderRegistry
    function recordOverturned(address provider, uint256 slashedAmount, uint256 payment, bool failedRun)
        external
        onlyMarket
    {
        Provider storage p = _providers[provider];
        if (failedRun) --p.failedRuns;
        // What recordCompletion counted (unless the owner moved minRecordPayment in between).
        else if (payment >= minRecordPayment && p.completed != 0) --p.completed;
        ++p.outvoted;
        p.slashedAmount += uint128(slashedAmount);
        _pauseIfUnderstaked(p, provider, slashedAmount);
    }

    /// @inheritdoc IProviderRegistry
    function stakeFloorOf(address provider) external view returns (uint256) {
        Provider storage p = _providers[provider];
        return p.registered && !p.paused ? minProviderStake : 0;
    }

    // ─── Views ───

    /// @inheritdoc IProviderRegistry
    function getProvider(address provider) external view returns (ProviderInfo memory) {
        Provider storage p = _providers[provider];
        return ProviderInfo({
            registered: p.registered,
            paused: p.paused,
            registeredAt: p.registeredAt,
            capabilities: Capabilities(p.gpuCount, p.vramMiB, p.computeCapability, p.cpuCores, p.memoryMiB),
            reputation: _reputation(p)
        });
    }

    /// @inheritdoc IProviderRegistry
    function getReputation(address provider) external view returns (Reputation memory) {
        return _reputation(_providers[provider]);
    }

    /// @inheritdoc IProviderRegistry
    function successBps(address provider) external view returns (uint16) {
        return _successBps(_providers[provider]);
    }

    /// @inheritdoc IProviderRegistry
    function isSubscribed(address provider, uint32 sourceId) external view returns (bool) {
        return _subscribed[provider][sourceId];
    }

    /// @inheritdoc IProviderRegistry
    function priceFloorOf(address provider) external view returns (uint256) {
        return _priceFloors[provider];
    }

    // ─── Owner ───

    /// @inheritdoc IProviderRegistry
    function setMinProviderStake(uint256 minProviderStake_) external onlyOwner {
        _setMinProviderStake(minProviderStake_);
        // A thousandth of the stake floor (0.1 GRID with the default 100 GRID floor) until the owner sets it.
        _setMinRecordPayment(minProviderStake_ / 1_000);
    }

    /// @inheritdoc IProviderRegistry
    function setMinRecordPayment(uint256 minRecordPayment_) external onlyOwner {
        _setMinRecordPayment(minRecordPayment_);
    }

    // ─── Internals ───

    function _setMinRecordPayment(uint256 value) private {
        if (value > MAX_MIN_PROVIDER_STAKE) revert ProviderRegistryMinRecordPaymentOutOfBounds(value, MAX_MIN_PROVIDER_STAKE);
        minRecordPayment = value;
        emit MinRecordPaymentUpdated(value);
    }

    function _setMinProviderStake(uint256 value) private {
        if (value > MAX_MIN_PROVIDER_STAKE) revert ProviderRegistryMinStakeOutOfBounds(value, MAX_MIN_PROVIDER_STAKE);
        minProviderStake = value;
        emit MinProviderStakeUpdated(value);
    }

    function _setCapabilities(Provider storage p, Capabilities calldata c, string calldata profileCID) private {
        if (c.cpuCores == 0 || c.memoryMiB == 0) revert ProviderRegistryInvalidCapabilities();
        if (!isValidCID(profileCID)) revert ProviderRegistryInvalidProfileCID();
        p.gpuCount = c.gpuCount;
        p.vramMiB = c.vramMiB;
        p.computeCapability = c.computeCapability;
        p.cpuCores = c.cpuCores;
        p.memoryMiB = c.memoryMiB;
    }

    function _requireRegistered(address provider) private view returns (Provider storage p) {
        p = _providers[provider];
        if (!p.registered) revert ProviderRegistryNotRegistered(provider);
    }

    /// @dev Called before the market slashes `amount`: a provider left below the minimum stake stops taking work
    /// until it tops up and resumes (a claim never checks the stake: this keeps claims cheap).
    function _pauseIfUnderstaked(Provider storage p, address provider, uint256 amount) private {
        if (p.paused || !p.registered) return;
        if (_staking.stakeOf(provider).staked >= amount + minProviderStake) return;
        p.paused = true;
        emit ProviderPaused(provider);
    }

    function _reputation(Provider storage p) private view returns (Reputation memory) {
        return Reputation(
            p.claimed, p.completed, p.failed, p.outvoted, p.totalRuntimeSec, p.slashedAmount, p.failedRuns
        );
    }

    /// @dev Success rate over finished slots. A provider without history has no record (0), not a perfect one: a
    /// fresh account must not pass a success gate. Failed runs it reported are the workload's outcome, not the
    /// provider's fault, and do not count against it.
    function _successBps(Provider storage p) private view returns (uint16) {
        uint256 finished = uint256(p.completed) + p.failed + p.outvoted;
        if (finished == 0) return 0;
        return uint16(uint256(p.completed) * BPS / finished);
    }
}
