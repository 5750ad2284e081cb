// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {GridToken} from "../../contracts/GridToken.sol";
import {Staking} from "../../contracts/Staking.sol";
import {DiscountTier, IStaking} from "../../contracts/interfaces/IStaking.sol";
import {Fixture} from "./Fixture.sol";
import {TestBase} from "./Vm.sol";

/// @notice Stands in for the task market: holds stakers' fees until Staking pulls them, and locks, unlocks
/// and slashes on demand. Only what Staking reads is implemented; the stub also stands in for the provider
/// registry Staking asks for a stake floor (none: these accounts are not providers).
contract MarketStub {
    IERC20 internal immutable _token;
    Staking internal _staking;
    uint256 public pendingStakerFees;

    constructor(IERC20 token) {
        _token = token;
    }

    /// @notice Staking is deployed after this stub (it takes the market's address), so it is wired here.
    function setStaking(Staking staking) external {
        require(address(_staking) == address(0), "already set");
        _staking = staking;
    }

    /// @notice Books `amount` of fees for stakers (the tokens must already be here).
    function accrue(uint256 amount) external {
        pendingStakerFees += amount;
    }

    /// @notice The provider registry: this stub.
    function providers() external view returns (address) {
        return address(this);
    }

    /// @notice No account here is a registered provider: nothing must stay staked.
    function stakeFloorOf(address) external pure returns (uint256) {
        return 0;
    }

    /// @notice Staking tells the market whether any discount tier is set (the stub prices no task).
    function setDiscountsOn(bool) external {}

    function releaseStakerFees() external returns (uint256 amount) {
        require(msg.sender == address(_staking), "not staking");
        amount = pendingStakerFees;
        pendingStakerFees = 0;
        _token.transfer(msg.sender, amount);
    }

    function lock(address account, uint256 amount) external {
        _staking.lock(account, amount);
    }

    function unlock(address account, uint256 amount) external {
        _staking.unlock(account, amount);
    }

    function slash(address account, uint256 amount) external {
        _staking.slash(account, amount);
    }
}

/// @title Staking fuzz tests
/// @notice Revenue share, unbonding, collateral and slashing of Staking on its own, with a stub market.
contract StakingFuzzTest is TestBase {
    uint256 internal constant MAX_STAKE = 100_000_000e18;
    uint256 internal constant PRECISION = 1e18;

    GridToken internal token;
    Staking internal staking;
    MarketStub internal market;
    address internal constant ALICE = address(0xA11CE);
    address internal constant BOB = address(0xB0B);

    function setUp() public {
        vm.warp(1_750_000_000);
        token = new GridToken(address(this), Fixture.INITIAL_SUPPLY);
        market = new MarketStub(IERC20(address(token)));
        staking = new Staking(IERC20(address(token)), address(market), address(this), Fixture.UNBONDING_PERIOD);
        market.setStaking(staking);
        for (uint256 i; i < 2; ++i) {
            address account = i == 0 ? ALICE : BOB;
            token.transfer(account, MAX_STAKE);
            vm.prank(account);
            token.approve(address(staking), type(uint256).max);
        }
    }

    function _stake(address account, uint256 amount) internal {
        vm.prank(account);
        staking.stake(amount);
    }

    function _accrue(uint256 amount) internal {
        token.transfer(address(market), amount);
        market.accrue(amount);
    }

    function _assertLedger() internal view {
        assertEq(
            token.balanceOf(address(staking)),
            staking.totalStaked() + staking.totalUnbonding() + staking.rewardsReserve(),
            "staking token balance != staked + unbonding + rewards reserve"
        );
    }

    /// @notice Fees are shared in proportion to stake, rounding down, and what is claimed is what earned() said.
    function testFuzz_rewardsProportionalToStake(uint256 a, uint256 b, uint256 fees) public {
        a = bound(a, 1, MAX_STAKE);
        b = bound(b, 1, MAX_STAKE);
        fees = bound(fees, 0, 10_000_000e18);
        _stake(ALICE, a);
        _stake(BOB, b);
        _accrue(fees);

        uint256 earnedA = staking.earned(ALICE);
        uint256 earnedB = staking.earned(BOB);
        assertLe(earnedA + earnedB, fees, "stakers earn more than the fees");
        // Exact share minus the accumulator's rounding (one wei of perToken costs stake / 1e18 wei).
        uint256 exactA = fees * a / (a + b);
        assertLe(earnedA, exactA, "alice earns more than her share");
        assertLe(exactA - earnedA, a / PRECISION + 1, "alice loses more than rounding");
        uint256 exactB = fees * b / (a + b);
        assertLe(earnedB, exactB, "bob earns more than his share");
        assertLe(exactB - earnedB, b / PRECISION + 1, "bob loses more than rounding");

        if (earnedA != 0) {
            uint256 before = token.balanceOf(ALICE);
            vm.prank(ALICE);
            assertEq(staking.claimRewards(), earnedA, "claimed != earned (alice)");
            assertEq(token.balanceOf(ALICE) - before, earnedA, "alice paid != earned");
        }
        if (earnedB != 0) {
            vm.prank(BOB);
            assertEq(staking.claimRewards(), earnedB, "claimed != earned (bob)");
        }
        assertEq(staking.earned(ALICE), 0, "alice still earns after claiming");
        // Fees stay in the market until a stake change or claim pulls them; what is left anywhere is dust.
        assertEq(
            staking.rewardsReserve() + market.pendingStakerFees(), fees - earnedA - earnedB, "fees - claimed mislaid"
        );
        _assertLedger();
    }

    /// @notice A new stake never earns fees that accrued before it.
    function testFuzz_lateStakeEarnsNothingFromEarlierFees(uint256 a, uint256 b, uint256 fees) public {
        a = bound(a, 1e18, MAX_STAKE);
        b = bound(b, 1, MAX_STAKE);
        fees = bound(fees, 1, 10_000_000e18);
        _stake(ALICE, a);
        _accrue(fees);
        _stake(BOB, b);
        assertEq(staking.earned(BOB), 0, "late staker earns earlier fees");
        assertLe(fees - staking.earned(ALICE), a / PRECISION + 1, "early staker loses more than rounding");
        assertEq(market.pendingStakerFees(), 0, "fees not pulled before the new stake");
        _assertLedger();
    }

    /// @notice Unbonding moves available stake out of the reward base and pays out exactly, only when ready;
    /// a second request adds to the first and restarts the period.
    function testFuzz_unbondingCooldown(uint256 amount, uint256 first, uint256 second, uint256 wait) public {
        amount = bound(amount, 2, MAX_STAKE);
        first = bound(first, 1, amount - 1);
        second = bound(second, 1, amount - first);
        wait = bound(wait, 0, Fixture.UNBONDING_PERIOD - 1);
        _stake(ALICE, amount);

        vm.prank(ALICE);
        staking.requestUnbond(first);
        vm.warp(vm.getBlockTimestamp() + wait);
        vm.prank(ALICE);
        staking.requestUnbond(second);
        uint40 readyAt = uint40(vm.getBlockTimestamp()) + Fixture.UNBONDING_PERIOD;
        assertEq(staking.stakeOf(ALICE).unbondingReadyAt, readyAt, "second request did not restart the period");
        assertEq(staking.stakeOf(ALICE).unbonding, first + second, "unbonding != sum of requests");
        assertEq(staking.totalStaked(), amount - first - second, "unbonding still counted as stake");

        vm.warp(readyAt - 1);
        vm.expectRevert(abi.encodeWithSelector(IStaking.StakingUnbondingNotReady.selector, readyAt));
        vm.prank(ALICE);
        staking.withdrawUnbonded();

        vm.warp(readyAt);
        uint256 before = token.balanceOf(ALICE);
        vm.prank(ALICE);
        assertEq(staking.withdrawUnbonded(), first + second, "withdrawn != unbonding");
        assertEq(token.balanceOf(ALICE) - before, first + second, "paid != unbonding");
        assertEq(staking.totalUnbonding(), 0, "totalUnbonding after withdrawal");
        _assertLedger();
    }

    /// @notice Locked collateral cannot be unbonded; unlocking makes it available again.
    function testFuzz_lockedStakeCannotUnbond(uint256 amount, uint256 locked, uint256 unbond) public {
        amount = bound(amount, 1, MAX_STAKE);
        locked = bound(locked, 1, amount);
        unbond = bound(unbond, amount - locked + 1, amount);
        _stake(ALICE, amount);
        market.lock(ALICE, locked);
        assertEq(staking.availableOf(ALICE), amount - locked, "available != staked - locked");

        vm.expectRevert(
            abi.encodeWithSelector(IStaking.StakingInsufficientAvailable.selector, ALICE, amount - locked, unbond)
        );
        vm.prank(ALICE);
        staking.requestUnbond(unbond);

        market.unlock(ALICE, locked);
        vm.prank(ALICE);
        staking.requestUnbond(unbond);
        _assertLedger();
    }

    /// @notice Slashing takes locked stake only, sends it to the market and keeps the ledger whole; rewards
    /// earned before the slash are kept.
    function testFuzz_slashKeepsLedger(uint256 amount, uint256 locked, uint256 slashed, uint256 fees) public {
        amount = bound(amount, 1, MAX_STAKE);
        locked = bound(locked, 1, amount);
        slashed = bound(slashed, 1, locked);
        fees = bound(fees, 0, 1_000_000e18);
        _stake(ALICE, amount);
        _stake(BOB, 1e18);
        _accrue(fees);
        _stake(BOB, 1); // pulls the fees into the accumulator
        uint256 earnedBefore = staking.earned(ALICE);
        market.lock(ALICE, locked);

        uint256 marketBefore = token.balanceOf(address(market));
        market.slash(ALICE, slashed);
        assertEq(token.balanceOf(address(market)) - marketBefore, slashed, "market did not receive the slash");
        assertEq(staking.stakeOf(ALICE).staked, amount - slashed, "staked after slash");
        assertEq(staking.stakeOf(ALICE).locked, locked - slashed, "locked after slash");
        assertEq(staking.earned(ALICE), earnedBefore, "slash changed rewards already earned");
        _assertLedger();

        vm.expectRevert();
        market.slash(ALICE, locked - slashed + 1);
    }

    /// @notice The discount is the one of the highest tier whose minimum the stake reaches.
    function testFuzz_discountTiers(uint256 amount, uint128 min1, uint128 min2, uint16 bps1, uint16 bps2) public {
        min1 = uint128(bound(min1, 1, MAX_STAKE / 2));
        min2 = uint128(bound(min2, uint256(min1) + 1, MAX_STAKE));
        bps1 = uint16(bound(bps1, 0, staking.MAX_DISCOUNT_BPS()));
        bps2 = uint16(bound(bps2, bps1, staking.MAX_DISCOUNT_BPS()));
        DiscountTier[] memory tiers = new DiscountTier[](2);
        tiers[0] = DiscountTier(min1, bps1);
        tiers[1] = DiscountTier(min2, bps2);
        staking.setDiscountTiers(tiers);

        amount = bound(amount, 1, MAX_STAKE);
        _stake(ALICE, amount);
        uint16 expected = amount >= min2 ? bps2 : amount >= min1 ? bps1 : 0;
        assertEq(staking.feeDiscountBps(ALICE), expected, "discount of the wrong tier");
    }
}
