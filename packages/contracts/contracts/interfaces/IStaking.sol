// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @notice A client fee discount for accounts whose stake is at least `minStake`.
struct DiscountTier {
    uint128 minStake;
    /// @notice Share of the protocol fee given back to the client, in basis points.
    uint16 discountBps;
}

/// @notice An account's position.
struct StakeInfo {
    /// @notice Tokens staked, including locked collateral. Earns revenue share.
    uint128 staked;
    /// @notice Part of `staked` locked as task collateral by the market.
    uint128 locked;
    /// @notice Tokens waiting for the unbonding period to end. Earns nothing.
    uint128 unbonding;
    /// @notice When `unbonding` can be withdrawn.
    uint40 unbondingReadyAt;
}

/// @title Staking
/// @notice Stake, unbonding with a cooldown, task collateral, slashing, revenue share and fee-discount tiers.
/// @dev Revenue share is a reward-per-token accumulator: every action is O(1), nothing loops over stakers.
interface IStaking {
    /// @notice Emitted when `account` stakes `amount`.
    event Staked(address indexed account, uint256 amount);
    /// @notice Emitted when `account` starts unbonding; `totalUnbonding` can be withdrawn at `readyAt`.
    event UnbondRequested(address indexed account, uint256 amount, uint256 totalUnbonding, uint40 readyAt);
    /// @notice Emitted when unbonded tokens are withdrawn.
    event UnbondedWithdrawn(address indexed account, uint256 amount);
    /// @notice Emitted when revenue share is claimed.
    event RewardsClaimed(address indexed account, uint256 amount);
    /// @notice Emitted when protocol fees are added to the revenue share.
    event RewardsAdded(uint256 amount, uint256 rewardPerToken);
    /// @notice Emitted when the market locks collateral.
    event CollateralLocked(address indexed account, uint256 amount);
    /// @notice Emitted when the market unlocks collateral.
    event CollateralUnlocked(address indexed account, uint256 amount);
    /// @notice Emitted when locked collateral is slashed and sent to the market.
    event Slashed(address indexed account, uint256 amount);
    /// @notice Emitted when the owner changes the unbonding period.
    event UnbondingPeriodUpdated(uint40 unbondingPeriod);
    /// @notice Emitted when the owner replaces the discount tiers.
    event DiscountTiersUpdated(DiscountTier[] tiers);
    /// @notice Emitted when the owner names the lease market (once).
    event LeaseMarketSet(address indexed leaseMarket);

    /// @notice The amount is zero.
    error StakingZeroAmount();
    /// @notice `account` has `available` unlocked stake, `needed` is required.
    error StakingInsufficientAvailable(address account, uint256 available, uint256 needed);
    /// @notice Only the market may lock, unlock or slash.
    error StakingNotMarket(address caller);
    /// @notice The lease market is set once.
    error StakingLeaseMarketAlreadySet(address leaseMarket);
    /// @notice The address is not a lease market built on this staking contract.
    error StakingNotLeaseMarket(address account);
    /// @notice The address is zero.
    error StakingZeroAddress();
    /// @notice Nothing is unbonding.
    error StakingNothingUnbonding(address account);
    /// @notice The unbonding period has not ended; retry at `readyAt`.
    error StakingUnbondingNotReady(uint40 readyAt);
    /// @notice No rewards to claim.
    error StakingNoRewards(address account);
    /// @notice The unbonding period is outside [min, max].
    error StakingUnbondingPeriodOutOfBounds(uint40 value, uint40 min, uint40 max);
    /// @notice More tiers than MAX_DISCOUNT_TIERS.
    error StakingTooManyTiers(uint256 count, uint256 max);
    /// @notice Tiers need minStake > 0, strictly increasing minStake and non-decreasing discount, each ≤ MAX_DISCOUNT_BPS.
    error StakingInvalidTier(uint256 index);
    /// @notice An amount does not fit in 128 bits.
    error StakingAmountTooLarge(uint256 amount);
    /// @notice The unbond would leave `remaining` staked, below `floor`: the minimum stake of an active provider
    /// (pause first) and the stake behind fee discounts of tasks not settled yet (wait for them to settle).
    error StakingBelowFloor(address account, uint256 remaining, uint256 floor);

    /// @notice Most discount tiers the owner may set.
    function MAX_DISCOUNT_TIERS() external view returns (uint256);
    /// @notice Largest discount a tier may give, in basis points of the protocol fee.
    function MAX_DISCOUNT_BPS() external view returns (uint16);
    /// @notice Bounds of the unbonding period.
    function MIN_UNBONDING_PERIOD() external view returns (uint40);
    function MAX_UNBONDING_PERIOD() external view returns (uint40);

    /// @notice The ERC-20 staked and paid out.
    function asset() external view returns (address);
    /// @notice The task market allowed to lock, unlock and slash (it deploys this contract).
    function market() external view returns (address);
    /// @notice The lease market, which may lock, unlock and slash collateral like the task market (zero until set).
    function leaseMarket() external view returns (address);
    /// @notice Current unbonding period, in seconds.
    function unbondingPeriod() external view returns (uint40);
    /// @notice Sum of all stakes (locked included).
    function totalStaked() external view returns (uint256);
    /// @notice Sum of all unbonding amounts.
    function totalUnbonding() external view returns (uint256);
    /// @notice Revenue share received and not yet claimed (including rounding dust kept for stakers).
    function rewardsReserve() external view returns (uint256);
    /// @notice Accumulated rewards per staked token, scaled by 1e18.
    function rewardPerToken() external view returns (uint256);

    /// @notice Stakes `amount` of the asset (approve first).
    function stake(uint256 amount) external;
    /// @notice Stakes with an EIP-2612 permit instead of an approval.
    function stakeWithPermit(uint256 amount, uint256 deadline, uint8 v, bytes32 r, bytes32 s) external;
    /// @notice Moves `amount` of available stake to unbonding; it can be withdrawn after the unbonding period.
    /// A second request adds to the first and restarts the period.
    function requestUnbond(uint256 amount) external;
    /// @notice Withdraws everything whose unbonding period has ended.
    function withdrawUnbonded() external returns (uint256 amount);
    /// @notice Claims the caller's revenue share.
    function claimRewards() external returns (uint256 amount);

    /// @notice Revenue share `account` can claim now.
    function earned(address account) external view returns (uint256);
    /// @notice `account`'s position.
    function stakeOf(address account) external view returns (StakeInfo memory);
    /// @notice Unlocked stake of `account`.
    function availableOf(address account) external view returns (uint256);
    /// @notice Client fee discount of `account`, in basis points of the protocol fee.
    function feeDiscountBps(address account) external view returns (uint16);
    /// @notice Stake `account` cannot unbond: the minimum stake while it is an active provider, and the stake
    /// of the discount tier its unsettled discounted tasks were submitted with.
    function stakeFloorOf(address account) external view returns (uint256);
    /// @notice Market only: the fee discount of a task `account` submits now. A non-zero discount pins the tier's
    /// stake until the task settles (`unpinDiscount`): a discount is only for stake held while the work is done.
    function pinDiscount(address account) external returns (uint16 discountBps);
    /// @notice Market only: a discounted task of `account` settled.
    function unpinDiscount(address account) external;
    /// @notice The discount tiers, by increasing stake.
    function discountTiers() external view returns (DiscountTier[] memory);

    /// @notice Market only: locks `amount` of `account`'s available stake as collateral.
    function lock(address account, uint256 amount) external;
    /// @notice Market only: unlocks collateral.
    function unlock(address account, uint256 amount) external;
    /// @notice Market only: takes `amount` of locked collateral and sends it to the market.
    function slash(address account, uint256 amount) external;

    /// @notice Owner only: unbonding period within [MIN_UNBONDING_PERIOD, MAX_UNBONDING_PERIOD].
    function setUnbondingPeriod(uint40 unbondingPeriod) external;
    /// @notice Names the lease market, once (owner only; in a governed deployment, through the timelock).
    function setLeaseMarket(address leaseMarket) external;
    /// @notice Owner only: replaces the discount tiers (at most MAX_DISCOUNT_TIERS).
    function setDiscountTiers(DiscountTier[] calldata tiers) external;
}
