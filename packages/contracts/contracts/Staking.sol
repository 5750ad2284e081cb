// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Ownable, Ownable2Step} from "@openzeppelin/contracts/access/Ownable2Step.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Permit.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";
import {DiscountTier, IStaking, StakeInfo} from "./interfaces/IStaking.sol";
import {IProviderRegistry} from "./interfaces/IProviderRegistry.sol";
import {ILeaseMarket} from "./interfaces/ILeaseMarket.sol";
import {ITaskMarket} from "./interfaces/ITaskMarket.sol";

/// @title Staking
/// @notice Stake, unbonding, task collateral, slashing, revenue share and fee-discount tiers.
/// @dev Protocol fees for stakers accrue in the market and are counted here before any change of stake, so a
/// new stake never earns fees that accrued before it and a slashed stake keeps its share of fees that accrued
/// before the slash. Fees are spread over `totalStaked` with a reward-per-token accumulator; division dust
/// stays in `rewardsReserve`. A slash happens while the market is mid-call and cannot pull the fees: it counts
/// them in the accumulator (`_pendingCounted`) and the tokens follow at the next release.
contract Staking is IStaking, Ownable2Step, ReentrancyGuardTransient {
    using SafeERC20 for IERC20;

    /// @inheritdoc IStaking
    uint256 public constant MAX_DISCOUNT_TIERS = 8;
    /// @inheritdoc IStaking
    uint16 public constant MAX_DISCOUNT_BPS = 5_000;
    /// @inheritdoc IStaking
    uint40 public constant MIN_UNBONDING_PERIOD = 1 hours;
    /// @inheritdoc IStaking
    uint40 public constant MAX_UNBONDING_PERIOD = 60 days;

    uint256 private constant PRECISION = 1e18;

    struct Account {
        // slot 0: touched by every lock/unlock
        uint128 staked;
        uint128 locked;
        // slot 1
        uint128 unbonding;
        uint40 unbondingReadyAt;
        // slot 2-3
        uint256 rewardPerTokenPaid;
        uint256 rewards;
        // slot 4: written only for clients with a fee discount
        uint128 pinnedStake;
        uint64 pinnedTasks;
    }

    IERC20 private immutable _asset;
    /// @inheritdoc IStaking
    /// @dev Immutable: the market deploys this contract, so no owner can ever swap in a market that drains stake,
    /// and the market check costs no storage read.
    address public immutable market;
    /// @inheritdoc IStaking
    uint40 public unbondingPeriod;
    /// @inheritdoc IStaking
    uint256 public totalStaked;
    /// @inheritdoc IStaking
    uint256 public totalUnbonding;
    /// @inheritdoc IStaking
    uint256 public rewardsReserve;
    /// @inheritdoc IStaking
    uint256 public rewardPerToken;

    /// @dev Fees still pending in the market that `rewardPerToken` already counts (counted by a slash).
    uint256 private _pendingCounted;
    mapping(address account => Account) private _accounts;
    DiscountTier[] private _tiers;

    /// @inheritdoc IStaking
    /// @dev Set once by the owner: a governed deployment adds its lease market through the timelock, whose delay
    /// is at least the unbonding period, so stakers who distrust it can leave before it can lock a token.
    address public leaseMarket;

    modifier onlyMarket() {
        if (msg.sender != market) revert StakingNotMarket(msg.sender);
        _;
    }

    /// @dev Collateral: the task market, or the lease market once set. The immutable is checked first, so the
    /// task market's calls read no storage.
    modifier onlyMarkets() {
        if (msg.sender != market && (msg.sender != leaseMarket || msg.sender == address(0))) {
            revert StakingNotMarket(msg.sender);
        }
        _;
    }

    /// @param market_ The task market (the deployer, when deployed by TaskMarket's constructor).
    constructor(IERC20 asset_, address market_, address initialOwner, uint40 unbondingPeriod_) Ownable(initialOwner) {
        if (address(asset_) == address(0) || market_ == address(0)) revert StakingZeroAddress();
        _asset = asset_;
        market = market_;
        _setUnbondingPeriod(unbondingPeriod_);
    }

    // ─── Stakers ───

    /// @inheritdoc IStaking
    function stake(uint256 amount) external nonReentrant {
        _stake(amount);
    }

    /// @inheritdoc IStaking
    function stakeWithPermit(uint256 amount, uint256 deadline, uint8 v, bytes32 r, bytes32 s) external nonReentrant {
        // A permit front-run by someone else still leaves the allowance in place, so its failure is not fatal;
        // transferFrom below fails if there is no allowance.
        try IERC20Permit(address(_asset)).permit(msg.sender, address(this), amount, deadline, v, r, s) {} catch {}
        _stake(amount);
    }

    /// @inheritdoc IStaking
    function requestUnbond(uint256 amount) external nonReentrant {
        if (amount == 0) revert StakingZeroAmount();
        _releaseMarketFees();
        Account storage account = _updateRewards(msg.sender);
        uint256 available = account.staked - account.locked;
        if (amount > available) revert StakingInsufficientAvailable(msg.sender, available, amount);
        uint256 floor = _floor(msg.sender, account);
        if (account.staked - amount < floor) revert StakingBelowFloor(msg.sender, account.staked - amount, floor);
        // Cannot overflow: amount ≤ staked < 2^128 and unbonding + staked never exceeds the token supply held here.
        account.staked -= uint128(amount);
        account.unbonding += uint128(amount);
        uint40 readyAt = uint40(block.timestamp) + unbondingPeriod;
        account.unbondingReadyAt = readyAt;
        totalStaked -= amount;
        totalUnbonding += amount;
        emit UnbondRequested(msg.sender, amount, account.unbonding, readyAt);
    }

    /// @inheritdoc IStaking
    function withdrawUnbonded() external nonReentrant returns (uint256 amount) {
        Account storage account = _accounts[msg.sender];
        amount = account.unbonding;
        if (amount == 0) revert StakingNothingUnbonding(msg.sender);
        if (block.timestamp < account.unbondingReadyAt) revert StakingUnbondingNotReady(account.unbondingReadyAt);
        account.unbonding = 0;
        account.unbondingReadyAt = 0;
        totalUnbonding -= amount;
        emit UnbondedWithdrawn(msg.sender, amount);
        _asset.safeTransfer(msg.sender, amount);
    }

    /// @inheritdoc IStaking
    function claimRewards() external nonReentrant returns (uint256 amount) {
        _releaseMarketFees();
        Account storage account = _updateRewards(msg.sender);
        amount = account.rewards;
        if (amount == 0) revert StakingNoRewards(msg.sender);
        account.rewards = 0;
        rewardsReserve -= amount;
        emit RewardsClaimed(msg.sender, amount);
        _asset.safeTransfer(msg.sender, amount);
    }

    // ─── Market ───

    /// @inheritdoc IStaking
    function lock(address account, uint256 amount) external onlyMarkets {
        Account storage a = _accounts[account];
        uint256 available = a.staked - a.locked;
        if (amount > available) revert StakingInsufficientAvailable(account, available, amount);
        // Cannot overflow: locked + amount ≤ staked < 2^128.
        a.locked += uint128(amount);
        emit CollateralLocked(account, amount);
    }

    /// @inheritdoc IStaking
    function unlock(address account, uint256 amount) external onlyMarkets {
        // Reverts on underflow: the market only unlocks what it locked.
        _accounts[account].locked -= uint128(amount);
        emit CollateralUnlocked(account, amount);
    }

    /// @inheritdoc IStaking
    function pinDiscount(address account) external onlyMarket returns (uint16 discountBps) {
        if (_tiers.length == 0) return 0; // no tiers: the account's stake is not even read
        (uint256 tier, bool found) = _tierOf(_accounts[account].staked);
        if (!found) return 0;
        DiscountTier storage reached = _tiers[tier];
        discountBps = reached.discountBps;
        if (discountBps == 0) return 0;
        Account storage a = _accounts[account];
        ++a.pinnedTasks;
        if (reached.minStake > a.pinnedStake) a.pinnedStake = reached.minStake;
    }

    /// @inheritdoc IStaking
    function unpinDiscount(address account) external onlyMarket {
        Account storage a = _accounts[account];
        uint64 tasks = a.pinnedTasks - 1;
        a.pinnedTasks = tasks;
        if (tasks == 0) a.pinnedStake = 0;
    }

    /// @inheritdoc IStaking
    function slash(address account, uint256 amount) external onlyMarkets nonReentrant {
        // Settle the account's rewards on its stake before the stake shrinks, fees still pending in the market
        // included: they accrued over the stake as it was. They cannot be pulled here (the market is
        // mid-call), so they are counted now and their tokens follow at the next release.
        _countPendingFees();
        Account storage a = _updateRewards(account);
        a.locked -= uint128(amount);
        a.staked -= uint128(amount);
        totalStaked -= amount;
        emit Slashed(account, amount);
        _asset.safeTransfer(msg.sender, amount);
    }

    // ─── Views ───

    /// @inheritdoc IStaking
    function asset() external view returns (address) {
        return address(_asset);
    }

    /// @inheritdoc IStaking
    function earned(address account) external view returns (uint256) {
        Account storage a = _accounts[account];
        uint256 perToken = rewardPerToken;
        uint256 total = totalStaked;
        if (total != 0) {
            perToken += (ITaskMarket(market).pendingStakerFees() - _pendingCounted) * PRECISION / total;
        }
        return a.rewards + uint256(a.staked) * (perToken - a.rewardPerTokenPaid) / PRECISION;
    }

    /// @inheritdoc IStaking
    function stakeOf(address account) external view returns (StakeInfo memory) {
        Account storage a = _accounts[account];
        return StakeInfo(a.staked, a.locked, a.unbonding, a.unbondingReadyAt);
    }

    /// @inheritdoc IStaking
    function availableOf(address account) external view returns (uint256) {
        Account storage a = _accounts[account];
        return a.staked - a.locked;
    }

    /// @inheritdoc IStaking
    function feeDiscountBps(address account) external view returns (uint16) {
        (uint256 tier, bool found) = _tierOf(_accounts[account].staked);
        return found ? _tiers[tier].discountBps : 0;
    }

    /// @inheritdoc IStaking
    function stakeFloorOf(address account) external view returns (uint256) {
        return _floor(account, _accounts[account]);
    }

    /// @inheritdoc IStaking
    function discountTiers() external view returns (DiscountTier[] memory) {
        return _tiers;
    }

    // ─── Owner ───

    /// @inheritdoc IStaking
    function setLeaseMarket(address leaseMarket_) external onlyOwner {
        if (leaseMarket != address(0)) revert StakingLeaseMarketAlreadySet(leaseMarket);
        // A lease market built on another staking contract would lock and slash here by mistake.
        if (leaseMarket_.code.length == 0 || ILeaseMarket(leaseMarket_).staking() != address(this)) {
            revert StakingNotLeaseMarket(leaseMarket_);
        }
        leaseMarket = leaseMarket_;
        emit LeaseMarketSet(leaseMarket_);
    }

    /// @inheritdoc IStaking
    function setUnbondingPeriod(uint40 unbondingPeriod_) external onlyOwner {
        _setUnbondingPeriod(unbondingPeriod_);
    }

    /// @inheritdoc IStaking
    function setDiscountTiers(DiscountTier[] calldata tiers) external onlyOwner {
        if (tiers.length > MAX_DISCOUNT_TIERS) revert StakingTooManyTiers(tiers.length, MAX_DISCOUNT_TIERS);
        delete _tiers;
        for (uint256 i; i < tiers.length; ++i) {
            DiscountTier calldata tier = tiers[i];
            if (tier.discountBps > MAX_DISCOUNT_BPS || tier.minStake == 0) revert StakingInvalidTier(i);
            if (i > 0 && (tier.minStake <= tiers[i - 1].minStake || tier.discountBps < tiers[i - 1].discountBps)) {
                revert StakingInvalidTier(i);
            }
            _tiers.push(tier);
        }
        emit DiscountTiersUpdated(tiers);
        ITaskMarket(market).setDiscountsOn(tiers.length != 0);
    }

    // ─── Internals ───

    /// @dev The highest tier `staked` reaches. Tiers are sorted by increasing minStake. At most 8 iterations.
    function _tierOf(uint256 staked) private view returns (uint256 tier, bool found) {
        for (uint256 i = _tiers.length; i > 0; --i) {
            if (staked >= _tiers[i - 1].minStake) return (i - 1, true);
        }
    }

    /// @dev What `account` must keep staked: the provider minimum while registered and not paused (the registry
    /// says), and the stake its unsettled discounted tasks were priced with.
    function _floor(address account, Account storage a) private view returns (uint256 floor) {
        floor = IProviderRegistry(ITaskMarket(market).providers()).stakeFloorOf(account);
        if (a.pinnedTasks != 0 && a.pinnedStake > floor) floor = a.pinnedStake;
    }

    function _stake(uint256 amount) private {
        if (amount == 0) revert StakingZeroAmount();
        if (amount > type(uint128).max) revert StakingAmountTooLarge(amount);
        _releaseMarketFees();
        Account storage account = _updateRewards(msg.sender);
        account.staked += uint128(amount);
        totalStaked += amount;
        emit Staked(msg.sender, amount);
        _asset.safeTransferFrom(msg.sender, address(this), amount);
    }

    /// @dev Pulls stakers' fees accrued in the market and spreads those not counted yet over the current stake.
    /// With nothing staked and nothing counted they stay in the market until someone stakes (no fee accrues
    /// then: a settlement pays a provider whose collateral is staked).
    function _releaseMarketFees() private {
        uint256 total = totalStaked;
        uint256 counted = _pendingCounted;
        if (total == 0 && counted == 0) return;
        if (ITaskMarket(market).pendingStakerFees() == 0) return;
        uint256 amount = ITaskMarket(market).releaseStakerFees();
        rewardsReserve += amount;
        if (counted != 0) _pendingCounted = 0;
        // Fees not counted while nothing was staked are owed to nobody: they stay in the reserve as dust.
        if (total != 0 && amount != counted) _addRewards(amount - counted, total);
    }

    /// @dev Counts the fees pending in the market over the current stake without pulling them.
    function _countPendingFees() private {
        uint256 total = totalStaked;
        if (total == 0) return;
        uint256 pending = ITaskMarket(market).pendingStakerFees();
        uint256 counted = _pendingCounted;
        if (pending == counted) return;
        _pendingCounted = pending;
        _addRewards(pending - counted, total);
    }

    function _addRewards(uint256 amount, uint256 total) private {
        uint256 perToken = rewardPerToken + amount * PRECISION / total;
        rewardPerToken = perToken;
        emit RewardsAdded(amount, perToken);
    }

    function _updateRewards(address account) private returns (Account storage a) {
        a = _accounts[account];
        uint256 perToken = rewardPerToken;
        uint256 paid = a.rewardPerTokenPaid;
        if (perToken != paid) {
            a.rewards += uint256(a.staked) * (perToken - paid) / PRECISION;
            a.rewardPerTokenPaid = perToken;
        }
    }

    function _setUnbondingPeriod(uint40 period) private {
        if (period < MIN_UNBONDING_PERIOD || period > MAX_UNBONDING_PERIOD) {
            revert StakingUnbondingPeriodOutOfBounds(period, MIN_UNBONDING_PERIOD, MAX_UNBONDING_PERIOD);
        }
        unbondingPeriod = period;
        emit UnbondingPeriodUpdated(period);
    }
}
