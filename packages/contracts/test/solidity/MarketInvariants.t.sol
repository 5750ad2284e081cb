// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {GridToken} from "../../contracts/GridToken.sol";
import {Staking} from "../../contracts/Staking.sol";
import {TaskMarket} from "../../contracts/TaskMarket.sol";
import {Slot, SlotStatus, Task, TaskStatus} from "../../contracts/interfaces/ITaskMarket.sol";
import {Fixture} from "./Fixture.sol";
import {Handler} from "./Handler.sol";
import {TestBase} from "./Vm.sol";

/// @title Market invariants
/// @notice DESIGN.md §2.5: the market and Staking always hold exactly what their ledgers owe (for the market:
/// Σ internal balances + Σ unclaimed creator fees + Σ escrow of tasks not final + treasury + stakers' fees),
/// revenue share never exceeds what was received, tokens are neither minted nor burnt, nothing is paid twice,
/// and after any sequence of actions every token can leave the system.
/// @dev Campaign size is set per function for the `default` test profile (kept small for CI); a profile declared
/// in hardhat.config.ts under test.solidity.profiles runs with that profile's invariant settings instead.
contract MarketInvariantsTest is TestBase {
    /// @dev Read by the runner (the StdInvariant shape): restricts the campaign to the handler's actions.
    struct FuzzSelector {
        address addr;
        bytes4[] selectors;
    }

    /// @dev Rounding dust the revenue-share accumulator may leave in Staking once everyone has left:
    /// below one wei per staker per fee release, far below this.
    uint256 internal constant MAX_REWARD_DUST = 1e12;

    Handler internal handler;
    GridToken internal token;
    TaskMarket internal market;
    Staking internal staking;

    function setUp() public {
        handler = new Handler();
        token = handler.token();
        market = handler.market();
        staking = handler.staking();
    }

    function targetContracts() public view returns (address[] memory targets) {
        targets = new address[](1);
        targets[0] = address(handler);
    }

    function targetSelectors() public view returns (FuzzSelector[] memory targets) {
        targets = new FuzzSelector[](1);
        // `advance` is listed five times: the runner draws from this list, so it gets about a fifth of the calls.
        bytes4[] memory selectors = new bytes4[](26);
        selectors[0] = Handler.deposit.selector;
        selectors[1] = Handler.withdraw.selector;
        selectors[2] = Handler.publish.selector;
        selectors[3] = Handler.submit.selector;
        selectors[4] = Handler.submitBatch.selector;
        selectors[5] = Handler.cancel.selector;
        selectors[6] = Handler.claim.selector;
        selectors[7] = Handler.submitResult.selector;
        selectors[8] = Handler.commit.selector;
        selectors[9] = Handler.reveal.selector;
        selectors[10] = Handler.reopenSlot.selector;
        selectors[11] = Handler.finalize.selector;
        selectors[12] = Handler.expire.selector;
        selectors[13] = Handler.advance.selector;
        selectors[14] = Handler.withdrawTreasury.selector;
        selectors[15] = Handler.warp.selector;
        selectors[16] = Handler.stake.selector;
        selectors[17] = Handler.requestUnbond.selector;
        selectors[18] = Handler.withdrawUnbonded.selector;
        selectors[19] = Handler.claimRewards.selector;
        selectors[20] = Handler.transferSource.selector;
        selectors[21] = Handler.claimCreatorFees.selector;
        for (uint256 i = 22; i < 26; ++i) {
            selectors[i] = Handler.advance.selector;
        }
        targets[0] = FuzzSelector({addr: address(handler), selectors: selectors});
    }

    /**
     * hardhat-config: default.invariant.runs = 48
     * hardhat-config: default.invariant.depth = 100
     */
    function invariant_marketHoldsItsLedger() public view {
        assertEq(
            token.balanceOf(address(market)),
            _internalBalances() + _creatorFees() + handler.liveEscrow() + market.treasuryAccrued()
                + market.pendingStakerFees(),
            "market token balance != balances + creator fees + live escrow + treasury + staker fees"
        );
    }

    /**
     * hardhat-config: default.invariant.runs = 48
     * hardhat-config: default.invariant.depth = 100
     */
    function invariant_stakingHoldsItsLedger() public view {
        assertEq(
            token.balanceOf(address(staking)),
            staking.totalStaked() + staking.totalUnbonding() + staking.rewardsReserve(),
            "staking token balance != staked + unbonding + rewards reserve"
        );
    }

    /**
     * hardhat-config: default.invariant.runs = 48
     * hardhat-config: default.invariant.depth = 100
     */
    function invariant_rewardsCovered() public view {
        address[] memory stakers = handler.stakers();
        uint256 owed;
        for (uint256 i; i < stakers.length; ++i) {
            owed += staking.earned(stakers[i]);
        }
        assertLe(owed, staking.rewardsReserve() + market.pendingStakerFees(), "earned > rewards reserve + pending");
    }

    /**
     * hardhat-config: default.invariant.runs = 48
     * hardhat-config: default.invariant.depth = 100
     */
    function invariant_supplyConserved() public view {
        assertEq(token.totalSupply(), Fixture.INITIAL_SUPPLY, "total supply changed");
        address[] memory accounts = handler.accounts();
        uint256 held = token.balanceOf(address(handler)) + token.balanceOf(handler.TREASURY())
            + token.balanceOf(address(market)) + token.balanceOf(address(staking));
        for (uint256 i; i < accounts.length; ++i) {
            held += token.balanceOf(accounts[i]);
        }
        assertEq(held, Fixture.INITIAL_SUPPLY, "tokens outside the known holders");
    }

    /**
     * hardhat-config: default.invariant.runs = 48
     * hardhat-config: default.invariant.depth = 100
     */
    function invariant_nothingPaidTwice() public view {
        // Checked on every ReplicaPaid / TaskFinalized log: a slot paid once, a task finalized once,
        // Σ payments ≤ replicas × maxPayment, paid + refund = escrow.
        if (handler.ghostViolations() != 0) {
            revert AssertionFailed(
                string.concat("paid twice: ", handler.firstViolation()), handler.firstViolationTask(), 0
            );
        }
    }

    /**
     * hardhat-config: default.invariant.runs = 48
     * hardhat-config: default.invariant.depth = 100
     */
    function invariant_stakesAndCollateralMatchAccounts() public view {
        address[] memory stakers = handler.stakers();
        uint256 staked;
        uint256 unbonding;
        for (uint256 i; i < stakers.length; ++i) {
            staked += staking.stakeOf(stakers[i]).staked;
            unbonding += staking.stakeOf(stakers[i]).unbonding;
        }
        assertEq(staking.totalStaked(), staked, "totalStaked != sum of stakes");
        assertEq(staking.totalUnbonding(), unbonding, "totalUnbonding != sum of unbonding");

        // Each provider's locked stake is the collateral of its claims on live tasks.
        uint256[] memory live = handler.liveTasks();
        address[] memory providers = handler.providerList();
        uint256[] memory expectedLocked = new uint256[](providers.length);
        for (uint256 i; i < live.length; ++i) {
            Task memory t = market.getTask(live[i]);
            Slot[] memory slots = market.getSlots(live[i]);
            for (uint256 j; j < slots.length; ++j) {
                if (slots[j].status == SlotStatus.Free) continue;
                for (uint256 p; p < providers.length; ++p) {
                    if (providers[p] == slots[j].provider) expectedLocked[p] += t.collateral;
                }
            }
        }
        for (uint256 p; p < providers.length; ++p) {
            assertEq(staking.stakeOf(providers[p]).locked, expectedLocked[p], "locked != collateral of live claims");
        }
    }

    /// @notice After every run: settle everything and take every token out; nothing may stay behind.
    function afterInvariant() public {
        _exitAll();
        uint256[] memory tasks = handler.liveTasks(); // as the handler last saw them; all settled by the exit
        for (uint256 i; i < tasks.length; ++i) {
            assertGe(uint8(market.getTask(tasks[i]).status), uint8(TaskStatus.Completed), "a task is not final");
        }
        assertEq(_internalBalances(), 0, "internal balances left after every withdrawal");
        assertEq(_creatorFees(), 0, "creator fees left after every claim");
        assertEq(market.treasuryAccrued(), 0, "treasury fees left after withdrawTreasury");
        assertEq(token.balanceOf(address(market)), market.pendingStakerFees(), "market holds unowed tokens");
        assertEq(staking.totalStaked(), 0, "stake left after everyone unbonded");
        assertEq(staking.totalUnbonding(), 0, "unbonding left after everyone withdrew");
        assertEq(token.balanceOf(address(staking)), staking.rewardsReserve(), "staking holds unowed tokens");
        assertLe(staking.rewardsReserve(), MAX_REWARD_DUST, "revenue share stuck in Staking");
    }

    /// @dev Σ internal balances of every account that can hold one.
    function _internalBalances() internal view returns (uint256 sum) {
        address[] memory accounts = handler.accounts();
        for (uint256 i; i < accounts.length; ++i) {
            sum += market.balanceOf(accounts[i]);
        }
    }

    /// @dev Σ creator fees accrued to every source and not yet claimed.
    function _creatorFees() internal view returns (uint256 sum) {
        uint32[] memory sourceIds = handler.sourceList();
        for (uint256 i; i < sourceIds.length; ++i) {
            sum += market.creatorFeesOf(sourceIds[i]);
        }
    }

    /// @dev Lets every deadline pass, settles every live task and takes every token out: internal balances,
    /// treasury fees, revenue share and stake.
    function _exitAll() internal {
        uint256 time = handler.currentTime() + market.MAX_TASK_DURATION() + 1 days;
        handler.setTime(time);
        uint256[] memory live = handler.liveTasks();
        for (uint256 i; i < live.length; ++i) {
            if (market.getTask(live[i]).status == TaskStatus.Revealing) market.finalizeTask(live[i]);
            else market.expireTask(live[i]);
        }
        if (market.treasuryAccrued() != 0) market.withdrawTreasury();
        uint32[] memory sourceIds = handler.sourceList();
        for (uint256 i; i < sourceIds.length; ++i) {
            if (market.creatorFeesOf(sourceIds[i]) == 0) continue;
            vm.prank(handler.sourceOwner(sourceIds[i]));
            market.claimCreatorFees(sourceIds[i]);
        }
        address[] memory accounts = handler.accounts();
        for (uint256 i; i < accounts.length; ++i) {
            uint256 balance = market.balanceOf(accounts[i]);
            if (balance == 0) continue;
            vm.prank(accounts[i]);
            market.withdraw(balance);
        }
        address[] memory stakers = handler.stakers();
        for (uint256 i; i < stakers.length; ++i) {
            if (staking.earned(stakers[i]) != 0) {
                vm.prank(stakers[i]);
                staking.claimRewards();
            }
            uint256 available = staking.availableOf(stakers[i]);
            if (available != 0) {
                vm.prank(stakers[i]);
                staking.requestUnbond(available);
            }
        }
        handler.setTime(time + staking.unbondingPeriod());
        for (uint256 i; i < stakers.length; ++i) {
            if (staking.stakeOf(stakers[i]).unbonding == 0) continue;
            vm.prank(stakers[i]);
            staking.withdrawUnbonded();
        }
    }
}
