// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {GridToken} from "../../contracts/GridToken.sol";
import {Staking} from "../../contracts/Staking.sol";
import {TaskMarket} from "../../contracts/TaskMarket.sol";
import {ProviderRegistry} from "../../contracts/ProviderRegistry.sol";
import {
    Audit, AuditVerdict, MarketParams, Slot, SlotStatus, Task, TaskStatus
} from "../../contracts/interfaces/ITaskMarket.sol";
import {Fixture} from "./Fixture.sol";
import {Handler} from "./Handler.sol";
import {TestBase} from "./Vm.sol";

/// @title Market invariants
/// @notice DESIGN.md §2.5: the market and Staking always hold exactly what their ledgers owe (for the market:
/// Σ internal balances + Σ unclaimed creator fees + Σ escrow of tasks not final + Σ what their audits slashed
/// so far + treasury + stakers' fees), revenue share never exceeds what was received, tokens are neither minted
/// nor burnt, nothing is paid twice, every task not final can be finished by anyone, and after any sequence of
/// actions every token can leave the system.
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

    /// @dev Most permissionless steps (releaseResult, finalizeTask, expireTask) that may take a task to a final
    /// status: a draw (or the finalization that opens a dispute), then four audit rounds of at most three steps
    /// each (joining, commitments, reveals).
    uint256 internal constant MAX_EXIT_STEPS = 16;

    Handler internal handler;
    GridToken internal token;
    TaskMarket internal market;
    Staking internal staking;
    ProviderRegistry internal providers;

    /// @dev probeExit's answer when the task reached a final status (it always reverts, to leave no trace).
    error ExitFound(uint256 steps);

    function setUp() public {
        handler = new Handler();
        token = handler.token();
        market = handler.market();
        staking = handler.staking();
        providers = handler.providers();
    }

    function targetContracts() public view returns (address[] memory targets) {
        targets = new address[](1);
        targets[0] = address(handler);
    }

    function targetSelectors() public view returns (FuzzSelector[] memory targets) {
        targets = new FuzzSelector[](1);
        // `advance` is listed five times: the runner draws from this list, so it gets about a sixth of the calls.
        bytes4[] memory selectors = new bytes4[](29);
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
        selectors[22] = Handler.release.selector;
        selectors[23] = Handler.joinAudit.selector;
        selectors[24] = Handler.mine.selector;
        for (uint256 i = 25; i < 29; ++i) {
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
            _internalBalances() + _creatorFees() + handler.liveEscrow() + _liveAuditSlashes()
                + market.treasuryAccrued() + market.pendingStakerFees(),
            "market token balance != balances + creator fees + live escrow + audit slashes + treasury + staker fees"
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
                // A forfeited auditor's collateral was slashed; a replaced one's slot names its replacement.
                if (slots[j].status == SlotStatus.Free || slots[j].status == SlotStatus.Forfeited) continue;
                for (uint256 p; p < providers.length; ++p) {
                    if (providers[p] == slots[j].provider) expectedLocked[p] += t.collateral;
                }
            }
        }
        for (uint256 p; p < providers.length; ++p) {
            assertEq(staking.stakeOf(providers[p]).locked, expectedLocked[p], "locked != collateral of live claims");
        }
    }

    // No task is stuck: every held, revealing or audited task (a k = 1 result's audit or a k > 1 dispute, which
    // finalizing a k > 1 task may open) reaches a final status through permissionless calls only (releaseResult
    // once its draw block is known, finalizeTask once a window or a round's time is over), whatever its state,
    // and an audit round's deadlines are bounded by the parameters. Each exit is tried, then undone.
    /**
     * hardhat-config: default.invariant.runs = 48
     * hardhat-config: default.invariant.depth = 100
     */
    function invariant_noTaskStuck() public {
        uint256[] memory live = handler.liveTasks();
        uint256 time = handler.currentTime();
        for (uint256 i; i < live.length; ++i) {
            Task memory t = market.getTask(live[i]);
            if (t.status == TaskStatus.Auditing) _assertRoundBounded(live[i], t, time);
            else if (t.status != TaskStatus.Held && t.status != TaskStatus.Revealing) continue;
            try this.probeExit(live[i]) {}
            catch (bytes memory reason) {
                if (bytes4(reason) != ExitFound.selector) {
                    revert AssertionFailed(string.concat("task stuck: ", _reason(reason)), live[i], t.auditBps);
                }
            }
        }
        // The probes moved time and blocks; their state changes were undone, the clock is not.
        vm.warp(time);
        vm.roll(handler.currentBlock());
    }

    /// @notice Takes `taskId` to a final status with permissionless calls, then reverts with ExitFound.
    function probeExit(uint256 taskId) external {
        require(msg.sender == address(this), "probe only");
        revert ExitFound(_exit(taskId));
    }

    /// @dev An audit round's deadlines follow from when it opened (not after now) and the parameters (which the
    /// handler never changes).
    function _assertRoundBounded(uint256 taskId, Task memory t, uint256 time) internal view {
        Audit memory a = market.getAudit(taskId);
        MarketParams memory p = market.params();
        assertEq(uint8(a.verdict), uint8(AuditVerdict.Pending), "audit under way without a Pending verdict");
        assertTrue(a.round >= 1 && a.round <= 4 && a.firstSlot + a.auditors <= 7, "audit round out of range");
        assertLe(a.joinDeadline, time + p.auditJoinWindow, "join deadline beyond one window from now");
        assertEq(
            a.commitDeadline,
            uint256(a.joinDeadline) + t.requirements.maxRuntimeSec + p.claimGrace,
            "commit deadline != join deadline + runtime + grace"
        );
        assertLe(t.revealDeadline, time + p.revealWindow, "reveal deadline beyond one window");
        assertLe(a.seedBlock, handler.currentBlock(), "round seeded by a future block");
    }

    /// @dev Takes a task to a final status with permissionless calls only, moving the clock and the block number
    /// to the earliest moment each is allowed (and re-applying them: the runner does not keep them between
    /// calls). Returns the number of calls.
    function _exit(uint256 taskId) internal returns (uint256 steps) {
        for (; steps < MAX_EXIT_STEPS; ++steps) {
            Task memory t = market.getTask(taskId);
            if (_final(t.status)) return steps;
            uint256 due; // the exit is allowed after this time
            if (t.status == TaskStatus.Held) {
                handler.setBlock(_max(handler.currentBlock(), market.getSlots(taskId)[0].dueAt + 2));
            } else if (t.status == TaskStatus.Auditing) {
                due = t.revealDeadline != 0 ? t.revealDeadline : market.getAudit(taskId).commitDeadline;
            } else if (t.status == TaskStatus.Revealing) {
                due = t.revealDeadline;
            } else {
                due = t.deadline;
            }
            handler.setTime(_max(handler.currentTime(), due + 1));
            handler.setBlock(handler.currentBlock());
            if (t.status == TaskStatus.Held) market.releaseResult(taskId);
            else if (t.status == TaskStatus.Auditing || t.status == TaskStatus.Revealing) market.finalizeTask(taskId);
            else market.expireTask(taskId);
        }
        revert AssertionFailed("not final after the most exit steps", taskId, uint8(market.getTask(taskId).status));
    }

    function _max(uint256 a, uint256 b) internal pure returns (uint256) {
        return a > b ? a : b;
    }

    function _final(TaskStatus status) internal pure returns (bool) {
        return status == TaskStatus.Completed || status == TaskStatus.Failed || status == TaskStatus.Cancelled
            || status == TaskStatus.Expired;
    }

    /// @dev An AssertionFailed message, or the raw revert data.
    function _reason(bytes memory reason) internal pure returns (string memory) {
        if (reason.length >= 4 && bytes4(reason) == AssertionFailed.selector) {
            bytes memory data = new bytes(reason.length - 4);
            for (uint256 i; i < data.length; ++i) {
                data[i] = reason[i + 4];
            }
            (string memory message,,) = abi.decode(data, (string, uint256, uint256));
            return message;
        }
        bytes memory hex_ = new bytes(2 + 2 * reason.length);
        (hex_[0], hex_[1]) = ("0", "x");
        for (uint256 i; i < reason.length; ++i) {
            hex_[2 + 2 * i] = bytes("0123456789abcdef")[uint8(reason[i]) >> 4];
            hex_[3 + 2 * i] = bytes("0123456789abcdef")[uint8(reason[i]) & 15];
        }
        return string(hex_);
    }

    /// @notice The handler reaches what the invariants are about: on fixed pseudo-random sequences of its actions,
    /// k > 1 disputes open and end in every verdict (replicas outvoted among them), seats are won in the race,
    /// replaced by better tickets, refused to worse ones and taken first come after it, early claims and
    /// commitments are refused, held results are drawn, lazy auditors reveal seals they copied; and no ghost rule
    /// breaks. A campaign whose actions all reverted, or never reached a dispute or a race, would pass the
    /// invariants without checking them.
    function test_handlerReachesDisputesAndRaces() public {
        uint256[15] memory seen;
        uint256 reverted;
        for (uint256 run; run < 6; ++run) {
            Handler h = new Handler();
            for (uint256 i; i < 150; ++i) {
                if (!_randomAction(h, uint256(keccak256(abi.encode(run, i))))) ++reverted;
            }
            assertEq(h.ghostViolations(), 0, string.concat("ghost rule broken: ", h.firstViolation()));
            uint256[15] memory counts = [
                h.ghostDisputes(),
                h.ghostOutvotedReplicas(),
                h.ghostVerdicts(uint8(AuditVerdict.Upheld)),
                h.ghostVerdicts(uint8(AuditVerdict.Overturned)),
                h.ghostVerdicts(uint8(AuditVerdict.Lapsed)),
                h.ghostVerdicts(uint8(AuditVerdict.Unresolved)),
                h.ghostRacedSeats(),
                h.ghostSeatsReplaced(),
                h.ghostTicketsTooHigh(),
                h.ghostFirstComeSeats(),
                h.ghostEarlyClaims(),
                h.ghostEarlyCommits(),
                h.ghostDrawn(),
                h.ghostFinalizedTasks(),
                h.ghostLazyReveals()
            ];
            for (uint256 k; k < counts.length; ++k) {
                seen[k] += counts[k];
            }
        }
        string[15] memory what = [
            "disputes",
            "outvoted replicas",
            "upheld",
            "overturned",
            "lapsed",
            "unresolved",
            "raced seats",
            "replaced seats",
            "tickets too high",
            "first-come seats",
            "early claims",
            "early commits",
            "drawn results",
            "finalized tasks",
            "lazy auditors' reveals"
        ];
        for (uint256 k; k < seen.length; ++k) {
            assertTrue(seen[k] != 0, string.concat("the handler never reached: ", what[k]));
        }
        assertLe(reverted, 900 / 20, "more than 5 % of the handler's actions reverted");
    }

    /// @dev One of the handler's actions, chosen and fed by `r`; whether it did not revert.
    function _randomAction(Handler h, uint256 r) internal returns (bool ok) {
        uint256 a = uint256(keccak256(abi.encode(r, 1)));
        uint256 b = uint256(keccak256(abi.encode(r, 2)));
        uint256 kind = r % 14;
        bytes memory call;
        if (kind == 0) {
            call = abi.encodeCall(
                h.submit, (a, b, uint8(a >> 8), uint96(b >> 8), uint80(a >> 100), uint40(b >> 100), a % 2 == 0)
            );
        } else if (kind == 1) {
            call = abi.encodeCall(h.claim, (a, b));
        } else if (kind == 2) {
            call = abi.encodeCall(h.commit, (a, b, uint8(b >> 9)));
        } else if (kind == 3) {
            call = abi.encodeCall(h.reveal, (a, b, uint32(b >> 40)));
        } else if (kind == 4) {
            call = abi.encodeCall(h.finalize, (a));
        } else if (kind == 5) {
            call = abi.encodeCall(h.warp, (a));
        } else if (kind == 6) {
            call = abi.encodeCall(h.mine, (a));
        } else if (kind == 7) {
            call = abi.encodeCall(h.joinAudit, (a, b));
        } else if (kind == 8) {
            call = abi.encodeCall(h.submitBatch, (a, b, uint8(b)));
        } else {
            call = abi.encodeCall(h.advance, (a, b));
        }
        (ok,) = address(h).call(call);
    }

    /// @notice After every run: settle everything and take every token out; nothing may stay behind.
    function afterInvariant() public {
        _exitAll();
        uint256[] memory tasks = handler.liveTasks(); // as the handler last saw them; all settled by the exit
        for (uint256 i; i < tasks.length; ++i) {
            assertTrue(_final(market.getTask(tasks[i]).status), "a task is not final");
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

    /// @dev Σ collateral the audits of tasks not final slashed so far (it pays their later rounds).
    function _liveAuditSlashes() internal view returns (uint256 sum) {
        uint256[] memory live = handler.liveTasks();
        for (uint256 i; i < live.length; ++i) {
            sum += market.getAudit(live[i]).slashed;
        }
    }

    /// @dev Σ creator fees accrued to every source and not yet claimed.
    function _creatorFees() internal view returns (uint256 sum) {
        uint32[] memory sourceIds = handler.sourceList();
        for (uint256 i; i < sourceIds.length; ++i) {
            sum += market.creatorFeesOf(sourceIds[i]);
        }
    }

    /// @dev Lets every deadline pass, settles every live task (held results are drawn, audits run out of time)
    /// and takes every token out: internal balances, treasury fees, revenue share and stake (providers pause
    /// first: an active provider keeps its minimum stake).
    function _exitAll() internal {
        handler.setTime(handler.currentTime() + market.MAX_TASK_DURATION() + 1 days);
        uint256[] memory live = handler.liveTasks();
        for (uint256 i; i < live.length; ++i) {
            _exit(live[i]);
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
        address[] memory providerList = handler.providerList();
        for (uint256 i; i < providerList.length; ++i) {
            if (providers.getProvider(providerList[i]).paused) continue;
            vm.prank(providerList[i]);
            providers.pause();
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
        handler.setTime(handler.currentTime() + staking.unbondingPeriod());
        for (uint256 i; i < stakers.length; ++i) {
            if (staking.stakeOf(stakers[i]).unbonding == 0) continue;
            vm.prank(stakers[i]);
            staking.withdrawUnbonded();
        }
    }
}
