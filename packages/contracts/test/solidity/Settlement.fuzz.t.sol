// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {GridToken} from "../../contracts/GridToken.sol";
import {ProviderRegistry} from "../../contracts/ProviderRegistry.sol";
import {SourceRegistry} from "../../contracts/SourceRegistry.sol";
import {Staking} from "../../contracts/Staking.sol";
import {TaskMarket} from "../../contracts/TaskMarket.sol";
import {DiscountTier} from "../../contracts/interfaces/IStaking.sol";
import {
    Audit,
    AuditVerdict,
    ITaskMarket,
    MarketParams,
    Slot,
    Task,
    TaskParams,
    TaskStatus
} from "../../contracts/interfaces/ITaskMarket.sol";
import {FailureKind, failureOf, sealOf} from "../../contracts/libraries/Results.sol";
import {Fixture, System} from "./Fixture.sol";
import {TestBase} from "./Vm.sol";

/// @title Settlement fuzz tests
/// @notice Drives real tasks through the deployed contracts with random parameters and checks every amount
/// against DESIGN.md §2.3: the payment split, the metering cap, collateral and slashing; and the audit of k = 1
/// results of deterministic sources: its collateral, the hold until the draw, and what each verdict pays.
contract SettlementFuzzTest is TestBase {
    uint256 internal constant BPS = 10_000;
    uint96 internal constant MAX_PAYMENT = 1_000_000e18;
    uint32 internal constant MAX_RUNTIME = 3_600;
    string internal constant CID = "bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku";
    /// @dev Stands for the sha2-256 digest of CID (the market compares digests; it does not parse CIDs). Providers
    /// hand in its seal, sealOf(taskId, DIGEST); auditors reveal DIGEST itself and the market seals it.
    bytes32 internal constant DIGEST = keccak256("output");

    address internal constant TREASURY = address(0x7EA5);
    address internal constant CLIENT = address(0xC11E47);
    address internal constant CREATOR = address(0xC4EA70);
    address internal constant PROVIDER = address(0x9E0F1DE4);
    address internal constant PROVIDER_2 = address(0x9E0F1DE5);
    /// @dev Auditors of the second round.
    address internal constant PROVIDER_3 = address(0x9E0F1DE6);
    address internal constant PROVIDER_4 = address(0x9E0F1DE7);
    /// @dev The auditors' result when the provider's is wrong.
    bytes32 internal constant OTHER_DIGEST = keccak256("other output");

    GridToken internal token;
    SourceRegistry internal sources;
    Staking internal staking;
    ProviderRegistry internal providers;
    TaskMarket internal market;
    /// @dev The source the test published last (whose creator fees a settlement accrues).
    uint32 internal sourceId_;

    /// @dev What one settlement moved, read from the ledgers.
    struct Deltas {
        uint256 provider;
        uint256 client;
        uint256 creator;
        uint256 stakers;
        uint256 treasury;
    }

    function setUp() public {
        vm.warp(1_750_000_000);
        System memory s = Fixture.deploy(Fixture.defaultParams(), TREASURY);
        (token, sources, staking, providers, market) = (s.token, s.sources, s.staking, s.providers, s.market);
        // Every completion counts in the record here, whatever its size: the fuzzed amounts reach down to 1 wei
        // (the record's threshold is tested in ProviderRegistry.test.ts).
        providers.setMinRecordPayment(0);

        token.transfer(CLIENT, 100_000_000e18);
        vm.prank(CLIENT);
        token.approve(address(market), type(uint256).max);
        vm.prank(CLIENT);
        token.approve(address(staking), type(uint256).max);
        _provider(PROVIDER);
        _provider(PROVIDER_2);
        _provider(PROVIDER_3);
        _provider(PROVIDER_4);
    }

    function _provider(address provider) internal {
        token.transfer(provider, 10_000_000e18);
        vm.prank(provider);
        token.approve(address(staking), type(uint256).max);
        vm.prank(provider);
        staking.stake(10_000_000e18);
        vm.prank(provider);
        providers.register(Fixture.capabilities(), CID);
    }

    function _publish(uint16 creatorFeeBps, bool deterministic) internal returns (uint32 sourceId) {
        vm.prank(CREATOR);
        sourceId = sources.publish(
            keccak256("image"), CID, Fixture.requirements(MAX_RUNTIME, deterministic), creatorFeeBps, 0, 0, 0
        );
        sourceId_ = sourceId;
        uint32[] memory ids = new uint32[](1);
        ids[0] = sourceId;
        vm.prank(PROVIDER);
        providers.subscribe(ids);
        vm.prank(PROVIDER_2);
        providers.subscribe(ids);
        vm.prank(PROVIDER_3);
        providers.subscribe(ids);
        vm.prank(PROVIDER_4);
        providers.subscribe(ids);
    }

    function _setParams(uint16 protocolFeeBps, uint16 stakerShareBps) internal {
        MarketParams memory p = Fixture.defaultParams();
        p.protocolFeeBps = protocolFeeBps;
        p.stakerShareBps = stakerShareBps;
        market.setParams(p);
    }

    /// @dev Gives CLIENT a fee discount of `discountBps` through a one-tier table and a matching stake.
    function _discount(uint16 discountBps) internal {
        DiscountTier[] memory tiers = new DiscountTier[](1);
        tiers[0] = DiscountTier({minStake: 1e18, discountBps: discountBps});
        staking.setDiscountTiers(tiers);
        vm.prank(CLIENT);
        staking.stake(1e18);
    }

    function _submit(uint32 sourceId, uint96 maxPayment, uint80 pricePerSecond, uint8 replicas)
        internal
        returns (uint256 taskId)
    {
        TaskParams memory p =
            Fixture.task(sourceId, maxPayment, pricePerSecond, replicas, uint40(vm.getBlockTimestamp() + 1 days));
        vm.prank(CLIENT);
        taskId = market.submitTask(p);
    }

    function _snapshot() internal view returns (Deltas memory d) {
        d.provider = market.balanceOf(PROVIDER) + market.balanceOf(PROVIDER_2);
        d.client = market.balanceOf(CLIENT);
        d.creator = sourceId_ == 0 ? 0 : market.creatorFeesOf(sourceId_);
        d.stakers = market.pendingStakerFees();
        d.treasury = market.treasuryAccrued();
    }

    function _since(Deltas memory before) internal view returns (Deltas memory d) {
        Deltas memory current = _snapshot();
        d.provider = current.provider - before.provider;
        d.client = current.client - before.client;
        d.creator = current.creator - before.creator;
        d.stakers = current.stakers - before.stakers;
        d.treasury = current.treasury - before.treasury;
    }

    /// @dev The market holds Σ internal balances + Σ creator fees + `liveEscrow` + treasury + stakers' fees.
    function _assertMarketLedger(uint256 liveEscrow) internal view {
        uint256 owed = market.balanceOf(CLIENT) + market.balanceOf(CREATOR) + market.balanceOf(PROVIDER)
            + market.balanceOf(PROVIDER_2) + market.balanceOf(PROVIDER_3) + market.balanceOf(PROVIDER_4) + liveEscrow
            + market.treasuryAccrued() + market.pendingStakerFees();
        for (uint32 id = 1; id <= sources.sourceCount(); ++id) {
            owed += market.creatorFeesOf(id);
        }
        assertEq(token.balanceOf(address(market)), owed, "market token balance != what it owes");
    }

    /// @dev One fuzzed k = 1 settlement.
    struct Case {
        uint16 protocolFeeBps;
        uint16 stakerShareBps;
        uint16 creatorFeeBps;
        uint16 discountBps;
        uint96 maxPayment;
        uint80 pricePerSecond;
        uint32 runtimeSec;
        uint32 elapsed;
    }

    /// @notice payment = provider + rebate + creator + stakers + treasury, each by its formula, for any rates.
    function testFuzz_paymentSplitSumsToPayment(Case memory c) public {
        c.protocolFeeBps = uint16(bound(c.protocolFeeBps, 0, 2_000));
        c.stakerShareBps = uint16(bound(c.stakerShareBps, 0, 5_000));
        c.creatorFeeBps = uint16(bound(c.creatorFeeBps, 0, sources.MAX_CREATOR_FEE_BPS()));
        c.discountBps = uint16(bound(c.discountBps, 0, staking.MAX_DISCOUNT_BPS()));
        c.maxPayment = uint96(bound(c.maxPayment, 1, MAX_PAYMENT));
        if (c.pricePerSecond % 4 == 0) c.pricePerSecond = 0; // fixed price a quarter of the time
        else c.pricePerSecond = uint80(bound(c.pricePerSecond, 1, uint256(c.maxPayment)));
        c.elapsed = uint32(bound(c.elapsed, 0, MAX_RUNTIME));
        _setParams(c.protocolFeeBps, c.stakerShareBps);
        if (c.discountBps != 0) _discount(c.discountBps);
        uint32 sourceId = _publish(c.creatorFeeBps, false);

        uint256 taskId = _submit(sourceId, c.maxPayment, c.pricePerSecond, 1);
        vm.prank(PROVIDER);
        market.claimTask(taskId);
        vm.warp(vm.getBlockTimestamp() + c.elapsed);
        Deltas memory before = _snapshot();
        vm.prank(PROVIDER);
        market.submitResult(taskId, sealOf(taskId, DIGEST), CID, CID, c.runtimeSec);
        _assertSplit(c, _since(before));
        _assertMarketLedger(0);
    }

    function _assertSplit(Case memory c, Deltas memory d) internal pure {
        uint256 runtime = _min(c.runtimeSec, c.elapsed);
        uint256 payment =
            c.pricePerSecond == 0 ? c.maxPayment : _min(c.maxPayment, uint256(c.pricePerSecond) * runtime);
        uint256 fee = payment * c.protocolFeeBps / BPS;
        uint256 rebate = fee * c.discountBps / BPS;
        uint256 net = fee - rebate;
        uint256 toCreator = net * c.creatorFeeBps / BPS;
        uint256 toStakers = net * c.stakerShareBps / BPS;
        uint256 refund = c.maxPayment - payment;

        assertEq(d.provider, payment - fee, "provider != payment - fee");
        assertEq(d.client, refund + rebate, "client != refund + rebate");
        assertEq(d.creator, toCreator, "creator fee");
        assertEq(d.stakers, toStakers, "stakers' share");
        assertEq(d.treasury, net - toCreator - toStakers, "treasury share");
        assertEq(
            d.provider + (d.client - refund) + d.creator + d.stakers + d.treasury,
            payment,
            "split does not sum to the payment"
        );
    }

    /// @notice Metering: payment = min(maxPayment, price × runtime) with runtime never above the time between
    /// the claim and the submission; over-reporting gains nothing and the rest goes back to the client.
    function testFuzz_meteringCapsPayment(uint96 maxPayment, uint80 pricePerSecond, uint32 reported, uint32 elapsed)
        public
    {
        maxPayment = uint96(bound(maxPayment, 1, MAX_PAYMENT));
        pricePerSecond = uint80(bound(pricePerSecond, 1, type(uint80).max));
        elapsed = uint32(bound(elapsed, 0, MAX_RUNTIME));
        uint32 sourceId = _publish(0, false);
        uint256 taskId = _submit(sourceId, maxPayment, pricePerSecond, 1);
        vm.prank(PROVIDER);
        market.claimTask(taskId);
        vm.warp(vm.getBlockTimestamp() + elapsed);
        uint256 clientBefore = market.balanceOf(CLIENT);
        uint64 runtimeBefore = providers.getReputation(PROVIDER).totalRuntimeSec;
        vm.prank(PROVIDER);
        market.submitResult(taskId, sealOf(taskId, DIGEST), CID, CID, reported);

        uint256 runtime = reported < elapsed ? reported : elapsed;
        uint256 payment = _min(maxPayment, uint256(pricePerSecond) * runtime);
        assertLe(payment, maxPayment, "payment above maxPayment");
        assertLe(payment, uint256(pricePerSecond) * elapsed, "paid for more time than elapsed on chain");
        assertEq(
            providers.getReputation(PROVIDER).totalRuntimeSec - runtimeBefore, runtime, "runtime not capped"
        );
        assertEq(market.balanceOf(CLIENT) - clientBefore, maxPayment - payment, "client refund");
        _assertMarketLedger(0);
    }

    /// @notice k > 1: a replica's runtime is capped at its commit time (counted from its seat's start, the end of
    /// the race for the seats), however late it reveals.
    function testFuzz_consensusPaysTheMedianOfCappedRuntimes(
        uint96 maxPayment,
        uint80 pricePerSecond,
        uint32 commit1,
        uint32 commit2,
        uint32 reported
    ) public {
        maxPayment = uint96(bound(maxPayment, 1, MAX_PAYMENT));
        pricePerSecond = uint80(bound(pricePerSecond, 1, uint256(maxPayment)));
        commit1 = uint32(bound(commit1, 0, MAX_RUNTIME));
        commit2 = uint32(bound(commit2, commit1, MAX_RUNTIME));
        uint256 taskId = _submit(_publish(0, true), maxPayment, pricePerSecond, 2);
        // The seats are raced for from two blocks after the submission; seats won start when the race ends.
        vm.roll(vm.getBlockNumber() + 2);
        uint256 start = uint256(market.getAudit(taskId).joinDeadline) + 1;
        vm.prank(PROVIDER);
        market.claimTask(taskId);
        vm.prank(PROVIDER_2);
        market.claimTask(taskId);
        _commitAt(taskId, PROVIDER, start + commit1);
        _commitAt(taskId, PROVIDER_2, start + commit2);

        vm.warp(vm.getBlockTimestamp() + 599); // reveal as late as the window allows
        uint256[3] memory before = [market.balanceOf(PROVIDER), market.balanceOf(PROVIDER_2), market.balanceOf(CLIENT)];
        _reveal(taskId, PROVIDER, reported);
        _reveal(taskId, PROVIDER_2, reported);

        // Each revealed runtime is capped by its commit time (≤ the limit here); both winners are paid for the
        // lower median of the two, the smaller.
        uint256 feeBps = market.getTask(taskId).feeBps;
        uint256 runtime = _min(_min(reported, commit1), _min(reported, commit2));
        uint256 pay = _min(maxPayment, uint256(pricePerSecond) * runtime);
        assertEq(market.balanceOf(PROVIDER) - before[0], pay - pay * feeBps / BPS, "replica 1 not capped");
        assertEq(market.balanceOf(PROVIDER_2) - before[1], pay - pay * feeBps / BPS, "replica 2 not capped");
        assertEq(market.balanceOf(CLIENT) - before[2], 2 * uint256(maxPayment) - 2 * pay, "client refund");
        _assertMarketLedger(0);
    }

    /// @dev Both replicas commit to the seal of the same output, each with its own salt (its address).
    function _commitAt(uint256 taskId, address provider, uint256 time) internal {
        vm.warp(time);
        bytes32 salt = bytes32(uint256(uint160(provider)));
        vm.prank(provider);
        market.commitResult(taskId, Fixture.commitment(taskId, provider, sealOf(taskId, DIGEST), salt));
    }

    function _reveal(uint256 taskId, address provider, uint32 runtimeSec) internal {
        bytes32 salt = bytes32(uint256(uint160(provider)));
        vm.prank(provider);
        market.revealResult(taskId, sealOf(taskId, DIGEST), salt, CID, CID, runtimeSec);
    }

    // ─── The race for the seats of k > 1 tasks ───

    /// @notice Whatever the seed block's hash, the stakes and the order of the claims, the k lowest tickets
    /// −log2(u) / stake (Fixture.ticket, the contract's formula ported) hold the seats when the race ends: each claim
    /// takes the lowest free seat, or replaces the worst ticket held (whose collateral is unlocked) if its own is
    /// better, or reverts ClaimTicketTooHigh. No claim before block seedBlock + 2; seats won start when the race
    /// ends; nothing moves but collateral locks; after the race a full task refuses every claim.
    function testFuzz_seatRaceKeepsTheLowestTickets(
        bytes32 seedHash,
        uint256 order,
        uint64[4] memory extraStake,
        uint8 replicas
    ) public {
        replicas = uint8(bound(replicas, 2, 3));
        address[4] memory racers = [PROVIDER, PROVIDER_2, PROVIDER_3, PROVIDER_4];
        for (uint256 i; i < 4; ++i) {
            uint256 more = uint256(extraStake[i]) * 1e6; // up to about 1.8e25: stakes from 1× to 3× apart
            if (more == 0) continue;
            token.transfer(racers[i], more);
            vm.prank(racers[i]);
            staking.stake(more);
        }
        uint256 taskId = _submit(_publish(0, true), 1_000e18, 0, replicas);
        uint256 submitted = vm.getBlockNumber();
        Audit memory race = market.getAudit(taskId);
        assertEq(race.seedBlock, submitted, "race seeded by the submission block");
        assertEq(race.joinDeadline, vm.getBlockTimestamp() + market.params().auditJoinWindow, "race window");

        vm.roll(submitted + 1);
        vm.expectRevert(abi.encodeWithSelector(ITaskMarket.TaskMarketDrawNotReady.selector, taskId, submitted + 2));
        vm.prank(PROVIDER);
        market.claimTask(taskId);

        vm.roll(submitted + 2);
        vm.setBlockhash(submitted + 1, seedHash);
        bytes32 seed = Fixture.raceSeed(seedHash, taskId);
        uint256 collateral = market.getTask(taskId).collateral;
        uint256 escrow = uint256(replicas) * 1_000e18;
        // The claims come in an order drawn from `order` (Fisher–Yates).
        for (uint256 i = 3; i > 0; --i) {
            uint256 j = uint256(keccak256(abi.encode(order, i))) % (i + 1);
            (racers[i], racers[j]) = (racers[j], racers[i]);
        }
        uint256[4] memory scores;
        for (uint256 i; i < 4; ++i) {
            scores[i] = Fixture.ticket(seed, racers[i], staking.stakeOf(racers[i]).staked);
            _raceClaim(taskId, racers[i], scores[i], replicas, race.joinDeadline);
            _assertMarketLedger(escrow);
        }
        // The k lowest tickets hold the seats; the others lock nothing.
        for (uint256 i; i < 4; ++i) {
            uint256 better;
            for (uint256 j; j < 4; ++j) {
                if (scores[j] < scores[i]) ++better;
            }
            bool holds;
            Slot[] memory slots = market.getSlots(taskId);
            for (uint256 s; s < replicas; ++s) {
                if (slots[s].provider == racers[i]) holds = true;
            }
            assertTrue(holds == (better < replicas), "seats != the k lowest tickets");
            assertEq(staking.stakeOf(racers[i]).locked, holds ? collateral : 0, "locked != a held seat's collateral");
        }
        // After the race every seat is final: a full task takes no claim, even from the best ticket left out.
        vm.warp(uint256(race.joinDeadline) + 1);
        address out;
        uint256 outScore = type(uint256).max;
        for (uint256 i; i < 4; ++i) {
            if (staking.stakeOf(racers[i]).locked == 0 && scores[i] < outScore) {
                (out, outScore) = (racers[i], scores[i]);
            }
        }
        vm.expectRevert(abi.encodeWithSelector(ITaskMarket.TaskMarketWrongStatus.selector, taskId, TaskStatus.Claimed));
        vm.prank(out);
        market.claimTask(taskId);
    }

    /// @dev One claim in the race, checked against the rule: the lowest free seat, else the worst ticket's seat if
    /// `score` is better (ClaimTicketTooHigh otherwise).
    function _raceClaim(uint256 taskId, address provider, uint256 score, uint8 replicas, uint40 raceEnd) internal {
        Slot[] memory slots = market.getSlots(taskId);
        uint256 seat = type(uint256).max;
        uint256 worst;
        for (uint256 s; s < replicas; ++s) {
            if (slots[s].provider == address(0)) {
                seat = s;
                break;
            }
            if (uint256(slots[s].commitment) > worst) (worst, seat) = (uint256(slots[s].commitment), s);
        }
        bool full = slots[seat].provider != address(0);
        uint256 collateral = market.getTask(taskId).collateral;
        if (full && score >= worst) {
            vm.expectRevert(
                abi.encodeWithSelector(ITaskMarket.TaskMarketClaimTicketTooHigh.selector, taskId, score, worst)
            );
            vm.prank(provider);
            market.claimTask(taskId);
            return;
        }
        address replaced = slots[seat].provider;
        uint256 replacedLocked = full ? staking.stakeOf(replaced).locked : 0;
        uint256 staked = staking.stakeOf(provider).staked;
        vm.prank(provider);
        assertEq(market.claimTask(taskId), seat, "seat != the lowest free one or the worst ticket's");
        Slot memory held = market.getSlots(taskId)[seat];
        assertTrue(held.provider == provider, "seat not held by the claimant");
        assertEq(uint256(held.commitment), score, "seat's ticket != -log2(u) / stake");
        assertEq(held.claimedAt, uint256(raceEnd) + 1, "a seat won in the race starts when it ends");
        assertEq(held.dueAt, uint256(raceEnd) + 1 + MAX_RUNTIME + market.params().claimGrace, "seat due time");
        assertEq(staking.stakeOf(provider).staked, staked, "a claim stakes nothing");
        if (full) {
            assertEq(replacedLocked - staking.stakeOf(replaced).locked, collateral, "replaced collateral kept");
        }
    }

    // ─── Disputes ───

    /// @notice A dispute of a k = 3 fixed-price task: each replica reveals the honest result, a colluding wrong one
    /// or its own, or never reveals. Replicas that did not reveal are slashed into the dispute's pot when it opens.
    /// Round 1's auditor finds the honest result: if its vote makes it strictly the most found, the replicas that
    /// revealed it are paid in full, the others that revealed are slashed whole (outvoted), the auditor is paid
    /// from the pot first and then from the escrowed payments of the replicas that lost, and what the auditor does
    /// not take of the pot is split between the client (slashToClientBps) and the treasury. Otherwise the dispute
    /// escalates to round 2 and nothing is paid yet. Every amount to the wei, for any collateral and slash split.
    function testFuzz_disputeDecidedByRoundOne(
        uint96 maxPayment,
        uint8[3] memory choice,
        uint16 collateralBps,
        uint16 slashToClientBps
    ) public {
        maxPayment = uint96(bound(maxPayment, 1e9, MAX_PAYMENT));
        // From a pot too small to pay the auditor (the client's escrow adds the rest) to one that leaves a remainder.
        MarketParams memory p = Fixture.defaultParams();
        p.collateralBps = uint16(bound(collateralBps, 1_000, 20_000));
        p.slashToClientBps = uint16(bound(slashToClientBps, 0, BPS));
        market.setParams(p);
        address[3] memory replicas = [PROVIDER, PROVIDER_2, PROVIDER_3];
        bytes32[3] memory digests;
        bool[3] memory reveals;
        for (uint256 i; i < 3; ++i) {
            uint8 c = choice[i] % 4;
            digests[i] = c == 0 || c == 3 ? DIGEST : c == 1 ? OTHER_DIGEST : keccak256(abi.encode("own", i));
            reveals[i] = c != 3;
        }
        vm.assume(_differ(digests, reveals));
        uint256 taskId = _submit(_publish(0, true), maxPayment, 0, 3);
        uint256 collateral = market.getTask(taskId).collateral;
        vm.roll(vm.getBlockNumber() + 2);
        for (uint256 i; i < 3; ++i) {
            vm.prank(replicas[i]);
            market.claimTask(taskId);
        }
        vm.warp(uint256(market.getAudit(taskId).joinDeadline) + 61);
        for (uint256 i; i < 3; ++i) {
            bytes32 salt = bytes32(uint256(uint160(replicas[i])));
            vm.prank(replicas[i]);
            // Replicas commit to and reveal the seals of their outputs' digests.
            market.commitResult(taskId, Fixture.commitment(taskId, replicas[i], sealOf(taskId, digests[i]), salt));
        }
        Money memory before = _money(replicas);
        uint256 noShows;
        for (uint256 i; i < 3; ++i) {
            if (!reveals[i]) {
                ++noShows;
                continue;
            }
            vm.prank(replicas[i]);
            market.revealResult(
                taskId, sealOf(taskId, digests[i]), bytes32(uint256(uint160(replicas[i]))), CID, CID, 60
            );
        }
        if (noShows != 0) _finalizeAfter(market.getTask(taskId).revealDeadline, taskId);
        assertEq(uint8(market.getTask(taskId).status), uint8(TaskStatus.Auditing), "results that differ: no dispute");
        Audit memory a = market.getAudit(taskId);
        assertEq(a.firstSlot, 3, "round 1's auditor sits at slot k");
        assertEq(a.slashed, noShows * collateral, "the no-shows' collateral is the dispute's pot");

        _join(taskId, PROVIDER_4);
        _closeJoining(taskId);
        _auditCommit(taskId, PROVIDER_4, DIGEST);
        _auditReveal(taskId, PROVIDER_4, DIGEST, 60);

        // Round 1 decides when the honest result, with the auditor's vote, is strictly the most found.
        (uint256 honest, uint256 other) = _tally(digests, reveals);
        if (honest == 0 || honest + 1 <= other) {
            assertEq(market.getAudit(taskId).round, 2, "no escalation");
            assertEq(uint8(market.getTask(taskId).status), uint8(TaskStatus.Auditing), "settled without a decision");
            assertEq(market.balanceOf(CLIENT), before.client, "client paid or refunded before a decision");
            _assertMarketLedger(3 * uint256(maxPayment) + market.getAudit(taskId).slashed);
            return;
        }
        assertEq(uint8(market.getAudit(taskId).verdict), uint8(AuditVerdict.Upheld), "not upheld");
        assertEq(uint8(market.getTask(taskId).status), uint8(TaskStatus.Completed), "not completed");
        _assertDisputeMoney(replicas, digests, reveals, before, maxPayment, collateral, honest, p.slashToClientBps);
        _assertMarketLedger(0);
    }

    /// @dev What a dispute moves, read from the ledgers.
    struct Money {
        uint256 client;
        uint256 treasury;
        uint256 stakers;
        uint256 auditor;
        uint256[3] balance;
        uint256[3] staked;
    }

    function _money(address[3] memory replicas) internal view returns (Money memory m) {
        m.client = market.balanceOf(CLIENT);
        m.treasury = market.treasuryAccrued();
        m.stakers = market.pendingStakerFees();
        m.auditor = market.balanceOf(PROVIDER_4);
        for (uint256 i; i < 3; ++i) {
            m.balance[i] = market.balanceOf(replicas[i]);
            m.staked[i] = staking.stakeOf(replicas[i]).staked;
        }
    }

    /// @dev The upheld dispute's money: winners paid M − fee, losers slashed whole, no-shows slashed a no-show's
    /// share (the whole collateral at k > 1), the auditor paid M − fee from the pot then the client's escrow, the
    /// pot's rest split, fees to stakers and treasury.
    function _assertDisputeMoney(
        address[3] memory replicas,
        bytes32[3] memory digests,
        bool[3] memory reveals,
        Money memory before,
        uint256 maxPayment,
        uint256 collateral,
        uint256 honest,
        uint256 slashToClientBps
    ) internal view {
        Money memory after_ = _money(replicas);
        uint256 fee = maxPayment * 500 / BPS;
        uint256 toStakers = fee * 1_200 / BPS;
        uint256 pot = (3 - honest) * collateral; // every replica that did not reveal the honest result
        uint256 fromPot = _min(maxPayment, pot); // the auditor's pay, from the pot first
        uint256 left = pot - fromPot;
        uint256 leftToClient = left * slashToClientBps / BPS;
        uint256 paid = (honest + 1) * maxPayment;
        uint256 refund = 3 * maxPayment - (paid - fromPot);
        for (uint256 i; i < 3; ++i) {
            bool won = reveals[i] && digests[i] == DIGEST;
            assertEq(after_.balance[i] - before.balance[i], won ? maxPayment - fee : 0, "replica's pay");
            assertEq(before.staked[i] - after_.staked[i], won ? 0 : collateral, "replica's slash");
            assertEq(staking.stakeOf(replicas[i]).locked, 0, "replica's collateral still locked");
            assertEq(
                providers.getReputation(replicas[i]).outvoted, reveals[i] && !won ? 1 : 0, "outvoted not counted"
            );
        }
        assertEq(after_.auditor - before.auditor, maxPayment - fee, "auditor's pay");
        assertEq(staking.stakeOf(PROVIDER_4).locked, 0, "auditor's collateral still locked");
        assertEq(after_.client - before.client, refund + leftToClient, "client's refund and share of the pot");
        assertEq(after_.stakers - before.stakers, (honest + 1) * toStakers, "stakers' fees");
        assertEq(
            after_.treasury - before.treasury, (honest + 1) * (fee - toStakers) + left - leftToClient, "treasury"
        );
    }

    /// @dev Whether the revealed digests differ.
    function _differ(bytes32[3] memory digests, bool[3] memory reveals) internal pure returns (bool) {
        for (uint256 i; i < 3; ++i) {
            for (uint256 j = i + 1; j < 3; ++j) {
                if (reveals[i] && reveals[j] && digests[i] != digests[j]) return true;
            }
        }
        return false;
    }

    /// @dev How many replicas revealed DIGEST, and the most that revealed any one other result.
    function _tally(bytes32[3] memory digests, bool[3] memory reveals)
        internal
        pure
        returns (uint256 honest, uint256 other)
    {
        for (uint256 i; i < 3; ++i) {
            if (!reveals[i]) continue;
            if (digests[i] == DIGEST) {
                ++honest;
                continue;
            }
            uint256 count;
            for (uint256 j; j < 3; ++j) {
                if (reveals[j] && digests[j] == digests[i]) ++count;
            }
            if (count > other) other = count;
        }
    }

    /// @notice collateral = max(minCollateral, maxPayment × collateralBps / 10000), quoted and locked alike.
    function testFuzz_collateralFormula(uint96 maxPayment, uint16 collateralBps, uint80 minCollateral) public {
        maxPayment = uint96(bound(maxPayment, 1, MAX_PAYMENT));
        collateralBps = uint16(bound(collateralBps, 1_000, 20_000));
        minCollateral = uint80(bound(minCollateral, 0, 1e24));
        MarketParams memory p = Fixture.defaultParams();
        p.collateralBps = collateralBps;
        p.minCollateral = minCollateral;
        market.setParams(p);

        uint256 expected = _max(minCollateral, uint256(maxPayment) * collateralBps / BPS);
        assertEq(market.collateralFor(maxPayment, 0), expected, "collateralFor");
        uint256 taskId = _submit(_publish(0, false), maxPayment, 0, 1);
        assertEq(market.getTask(taskId).collateral, expected, "task collateral");
        uint256 lockedBefore = staking.stakeOf(PROVIDER).locked;
        vm.prank(PROVIDER);
        market.claimTask(taskId);
        assertEq(staking.stakeOf(PROVIDER).locked - lockedBefore, expected, "locked at claim");
        vm.prank(PROVIDER);
        market.submitResult(taskId, sealOf(taskId, DIGEST), CID, CID, 1);
        assertEq(staking.stakeOf(PROVIDER).locked, lockedBefore, "unlocked after settlement");
    }

    /// @notice A no-show loses its whole collateral: slashToClientBps of it to the client, the rest to the
    /// treasury, nothing created or lost.
    function testFuzz_noShowSlashSplit(uint96 maxPayment, uint16 slashToClientBps, uint32 late) public {
        maxPayment = uint96(bound(maxPayment, 1, MAX_PAYMENT));
        slashToClientBps = uint16(bound(slashToClientBps, 0, BPS));
        late = uint32(bound(late, 1, 1 days));
        MarketParams memory p = Fixture.defaultParams();
        p.slashToClientBps = slashToClientBps;
        market.setParams(p);
        uint256 taskId = _submit(_publish(0, false), maxPayment, 0, 1);
        vm.prank(PROVIDER);
        market.claimTask(taskId);
        uint40 dueAt = market.getSlots(taskId)[0].dueAt;
        vm.warp(uint256(dueAt) + late);

        uint256 amount = market.getTask(taskId).collateral;
        uint256 staked = staking.totalStaked();
        Deltas memory before = _snapshot();
        market.reopenSlot(taskId, 0);
        Deltas memory d = _since(before);
        uint256 toClient = amount * slashToClientBps / BPS;
        assertEq(staking.totalStaked(), staked - amount, "stake not slashed");
        assertEq(d.client, toClient, "client's share of the slash");
        assertEq(d.treasury, amount - toClient, "treasury's share of the slash");
        assertEq(providers.getReputation(PROVIDER).failed, 1, "failure not counted");
        _assertMarketLedger(maxPayment);
    }

    // ─── Audits of k = 1 results ───

    /// @notice An auditable result's collateral is max(collateralBps × M, ceil((1 − p) / p × M), 3 × M,
    /// minCollateral), quoted by collateralFor(M, p) and locked by claimTask; p is the protocol's audit
    /// probability or more, as the client asks (less reverts); a source that is not deterministic is not audited.
    function testFuzz_auditCollateralFormula(
        uint96 maxPayment,
        uint16 collateralBps,
        uint80 minCollateral,
        uint16 defaultAuditBps,
        uint16 auditBps
    ) public {
        // The largest collateral (99 × M at p = 1 %) stays within the providers' stake.
        maxPayment = uint96(bound(maxPayment, 1, MAX_PAYMENT / 10));
        MarketParams memory p = Fixture.defaultParams();
        p.collateralBps = uint16(bound(collateralBps, 1_000, 20_000));
        p.minCollateral = uint80(bound(minCollateral, 0, 1e24));
        p.auditBps = uint16(bound(defaultAuditBps, 100, BPS));
        market.setParams(p);
        auditBps = uint16(bound(auditBps, 0, BPS));
        uint32 deterministic = _publish(0, true);

        if (auditBps != 0 && auditBps < p.auditBps) {
            TaskParams memory tooLow =
                Fixture.task(deterministic, maxPayment, 0, 1, uint40(vm.getBlockTimestamp() + 1 days));
            tooLow.auditBps = auditBps;
            vm.expectRevert(
                abi.encodeWithSelector(ITaskMarket.TaskMarketInvalidAuditBps.selector, auditBps, p.auditBps)
            );
            vm.prank(CLIENT);
            market.submitTask(tooLow);
            auditBps = 0;
        }
        uint16 applied = auditBps == 0 ? p.auditBps : auditBps;
        uint256 expected = _max(
            _max(uint256(maxPayment) * p.collateralBps / BPS, _ceilDiv(uint256(maxPayment) * (BPS - applied), applied)),
            _max(3 * uint256(maxPayment), p.minCollateral)
        );
        assertEq(market.collateralFor(maxPayment, applied), expected, "collateralFor(M, p)");

        uint256 held = token.balanceOf(address(market));
        uint256 taskId = _submitAudited(deterministic, maxPayment, 0, auditBps);
        Task memory t = market.getTask(taskId);
        assertEq(t.auditBps, applied, "task audit probability");
        assertEq(t.collateral, expected, "task collateral");
        assertEq(token.balanceOf(address(market)) - held, 2 * uint256(maxPayment), "escrow != 2 x maxPayment");
        uint256 lockedBefore = staking.stakeOf(PROVIDER).locked;
        vm.prank(PROVIDER);
        market.claimTask(taskId);
        assertEq(staking.stakeOf(PROVIDER).locked - lockedBefore, expected, "locked at claim");

        // The same task on a source that is not deterministic: not audited, whatever the client asked.
        uint256 plain = _submitAudited(_publish(0, false), maxPayment, 0, auditBps);
        assertEq(market.getTask(plain).auditBps, 0, "audit probability of a non-deterministic source");
        assertEq(market.getTask(plain).collateral, market.collateralFor(maxPayment, 0), "unaudited collateral");
    }

    /// @notice A held result pays nobody and keeps its collateral locked until releaseResult, which cannot run
    /// before the block after the submission is known; the draw follows keccak256(blockhash(submitted + 1),
    /// taskId) % 10000 < p, a hash no longer known counting as drawn. Passed: exactly the unaudited settlement.
    function testFuzz_heldResultNotPaidBeforeRelease(
        uint96 maxPayment,
        uint80 pricePerSecond,
        uint32 reported,
        uint32 elapsed,
        uint16 auditBps,
        bytes32 drawHash,
        uint256 wait
    ) public {
        maxPayment = uint96(bound(maxPayment, 1, MAX_PAYMENT));
        if (pricePerSecond % 2 == 0) pricePerSecond = 0;
        else pricePerSecond = uint80(bound(pricePerSecond, 1, uint256(maxPayment)));
        elapsed = uint32(bound(elapsed, 0, MAX_RUNTIME));
        auditBps = uint16(bound(auditBps, market.params().auditBps, BPS));
        wait = bound(wait, 2, 600);
        uint256 taskId = _submitAudited(_publish(0, true), maxPayment, pricePerSecond, auditBps);
        vm.prank(PROVIDER);
        market.claimTask(taskId);
        vm.warp(vm.getBlockTimestamp() + elapsed);
        uint256 locked = staking.stakeOf(PROVIDER).locked;
        uint256 completed = providers.getReputation(PROVIDER).completed;
        Deltas memory before = _snapshot();
        uint256 submitted = vm.getBlockNumber();
        vm.prank(PROVIDER);
        market.submitResult(taskId, sealOf(taskId, DIGEST), CID, CID, reported);

        // Held: nothing moved but the completion count.
        assertEq(uint8(market.getTask(taskId).status), uint8(TaskStatus.Held), "not held");
        _assertNothingMoved(before, locked);
        assertEq(providers.getReputation(PROVIDER).completed, completed + 1, "completion not counted");
        Slot memory slot = market.getSlots(taskId)[0];
        assertTrue(
            slot.commitment == bytes32(bytes8(sealOf(taskId, DIGEST))), "slot 0 does not show the seal's 8-byte tag"
        );
        // The tag's low 24 bits sit in the task's openSlots, committed and revealed: getTask shows them as 0.
        Task memory held = market.getTask(taskId);
        assertEq(held.openSlots + held.committed + held.revealed, 0, "getTask shows the held tag");
        assertEq(slot.dueAt, submitted, "slot 0 does not show the submission block");
        assertEq(slot.claimedAt, 0, "slot 0 claimedAt");
        _assertMarketLedger(2 * uint256(maxPayment));

        // Not before the hash of the next block is known.
        for (uint256 n = submitted; n < submitted + 2; ++n) {
            vm.roll(n);
            (bool ready,) = market.auditDraw(taskId);
            assertTrue(!ready, "draw ready before submittedBlock + 2");
            vm.expectRevert(
                abi.encodeWithSelector(ITaskMarket.TaskMarketDrawNotReady.selector, taskId, submitted + 2)
            );
            market.releaseResult(taskId);
        }
        _assertNothingMoved(before, locked);

        vm.roll(submitted + wait);
        bool drawn = true; // the hash of a block more than 256 back reads 0: drawn
        if (wait <= 257) {
            vm.setBlockhash(submitted + 1, drawHash);
            drawn = drawHash == bytes32(0) || uint256(keccak256(abi.encode(drawHash, taskId))) % BPS < auditBps;
        }
        (bool isReady, bool isDrawn) = market.auditDraw(taskId);
        assertTrue(isReady && isDrawn == drawn, "auditDraw != the draw rule");
        market.releaseResult(taskId);

        if (drawn) {
            assertEq(uint8(market.getTask(taskId).status), uint8(TaskStatus.Auditing), "drawn but not audited");
            assertEq(uint8(market.getAudit(taskId).verdict), uint8(AuditVerdict.Pending), "audit not pending");
            _assertNothingMoved(before, locked);
            _assertMarketLedger(2 * uint256(maxPayment));
            return;
        }
        uint256 runtime = pricePerSecond == 0 ? reported : _min(_min(reported, elapsed), MAX_RUNTIME);
        uint256 payment = pricePerSecond == 0 ? maxPayment : _min(maxPayment, uint256(pricePerSecond) * runtime);
        Deltas memory d = _since(before);
        uint256 fee = payment * market.getTask(taskId).feeBps / BPS;
        assertEq(uint8(market.getTask(taskId).status), uint8(TaskStatus.Completed), "passed but not completed");
        assertEq(uint8(market.getAudit(taskId).verdict), uint8(AuditVerdict.NotDrawn), "verdict NotDrawn");
        assertEq(d.provider, payment - fee, "provider != unaudited payment - fee");
        assertEq(d.client, 2 * uint256(maxPayment) - payment, "client refund != 2 x maxPayment - payment");
        assertEq(staking.stakeOf(PROVIDER).locked, locked - market.getTask(taskId).collateral, "collateral kept");
        _assertMarketLedger(0);
    }

    /// @notice An audit that overturns the result (two auditors of the second round find another one, after the
    /// first auditor disagreed or missed its commitment or reveal) refunds the client at least everything it
    /// escrowed, pays the provider nothing and slashes its whole collateral.
    function testFuzz_overturnedAuditRefundsClient(
        uint96 maxPayment,
        uint80 pricePerSecond,
        uint16 slashToClientBps,
        uint8 firstAuditor,
        uint32 runtimeSec
    ) public {
        maxPayment = uint96(bound(maxPayment, 1, MAX_PAYMENT));
        if (pricePerSecond % 2 == 0) pricePerSecond = 0;
        else pricePerSecond = uint80(bound(pricePerSecond, 1, uint256(maxPayment)));
        MarketParams memory p = Fixture.defaultParams();
        p.slashToClientBps = uint16(bound(slashToClientBps, 0, BPS));
        market.setParams(p);
        uint256 taskId = _submitAudited(_publish(0, true), maxPayment, pricePerSecond, uint16(BPS));
        uint256 clientBefore = market.balanceOf(CLIENT);
        uint256 providerBefore = market.balanceOf(PROVIDER);
        uint256 stakedBefore = staking.stakeOf(PROVIDER).staked;
        _heldResult(taskId, DIGEST, runtimeSec);
        _releaseDrawn(taskId);

        // Round 1: the auditor finds another result, or misses its commitment (0) or its reveal (1).
        firstAuditor %= 3;
        _join(taskId, PROVIDER_2);
        _closeJoining(taskId);
        if (firstAuditor == 0) {
            _finalizeAfter(market.getAudit(taskId).commitDeadline, taskId);
        } else {
            _auditCommit(taskId, PROVIDER_2, OTHER_DIGEST);
            if (firstAuditor == 1) _finalizeAfter(market.getTask(taskId).revealDeadline, taskId);
            else _auditReveal(taskId, PROVIDER_2, OTHER_DIGEST, runtimeSec);
        }
        assertEq(market.getAudit(taskId).round, 2, "no escalation");
        // Round 2: two auditors agree on the other result.
        _join(taskId, PROVIDER_3);
        _join(taskId, PROVIDER_4);
        _closeJoining(taskId);
        _auditCommit(taskId, PROVIDER_3, OTHER_DIGEST);
        _auditCommit(taskId, PROVIDER_4, OTHER_DIGEST);
        _auditReveal(taskId, PROVIDER_3, OTHER_DIGEST, runtimeSec);
        _auditReveal(taskId, PROVIDER_4, OTHER_DIGEST, runtimeSec);

        assertEq(uint8(market.getAudit(taskId).verdict), uint8(AuditVerdict.Overturned), "not overturned");
        assertEq(uint8(market.getTask(taskId).status), uint8(TaskStatus.Failed), "not failed");
        assertGe(market.balanceOf(CLIENT) - clientBefore, 2 * uint256(maxPayment), "client refunded less than escrow");
        assertEq(market.balanceOf(PROVIDER), providerBefore, "overturned provider paid");
        assertEq(
            stakedBefore - staking.stakeOf(PROVIDER).staked, market.getTask(taskId).collateral, "provider not slashed"
        );
        assertEq(staking.stakeOf(PROVIDER).locked, 0, "provider collateral still locked");
        _assertMarketLedger(0);
    }

    /// @notice An audit that upholds the result (the first auditor reproduces it, or two auditors of the second
    /// round do after the first disagreed) pays the provider exactly what the same result pays unaudited.
    function testFuzz_upheldAuditPaysLikeUnaudited(
        uint96 maxPayment,
        uint80 pricePerSecond,
        uint16 creatorFeeBps,
        uint32 reported,
        uint32 elapsed,
        bool escalate
    ) public {
        maxPayment = uint96(bound(maxPayment, 1, MAX_PAYMENT));
        if (pricePerSecond % 2 == 0) pricePerSecond = 0;
        else pricePerSecond = uint80(bound(pricePerSecond, 1, uint256(maxPayment)));
        creatorFeeBps = uint16(bound(creatorFeeBps, 0, sources.MAX_CREATOR_FEE_BPS()));
        elapsed = uint32(bound(elapsed, 0, MAX_RUNTIME));

        // Unaudited: a source that is not deterministic settles at submission.
        uint256 plain = _submit(_publish(creatorFeeBps, false), maxPayment, pricePerSecond, 1);
        vm.prank(PROVIDER);
        market.claimTask(plain);
        vm.warp(vm.getBlockTimestamp() + elapsed);
        uint256 before = market.balanceOf(PROVIDER);
        vm.prank(PROVIDER);
        market.submitResult(plain, sealOf(plain, DIGEST), CID, CID, reported);
        uint256 unaudited = market.balanceOf(PROVIDER) - before;

        // Audited, the same result after the same time.
        uint256 taskId = _submitAudited(_publish(creatorFeeBps, true), maxPayment, pricePerSecond, uint16(BPS));
        before = market.balanceOf(PROVIDER);
        uint256 clientBefore = market.balanceOf(CLIENT);
        vm.prank(PROVIDER);
        market.claimTask(taskId);
        vm.warp(vm.getBlockTimestamp() + elapsed);
        vm.prank(PROVIDER);
        market.submitResult(taskId, sealOf(taskId, DIGEST), CID, CID, reported);
        _releaseDrawn(taskId);
        // Each auditor runs as long as the provider did before it commits: it measures the runtime billed (an
        // auditor's runtime counts from its join to its commit).
        _auditRound(taskId, PROVIDER_2, address(0), escalate ? OTHER_DIGEST : DIGEST, elapsed, reported);
        if (escalate) _auditRound(taskId, PROVIDER_3, PROVIDER_4, DIGEST, elapsed, reported);

        assertEq(uint8(market.getAudit(taskId).verdict), uint8(AuditVerdict.Upheld), "not upheld");
        assertEq(uint8(market.getTask(taskId).status), uint8(TaskStatus.Completed), "not completed");
        assertEq(market.balanceOf(PROVIDER) - before, unaudited, "upheld provider paid != unaudited payment");
        assertEq(staking.stakeOf(PROVIDER).locked, 0, "provider collateral still locked");
        // The client paid the provider and at most one auditor: never more than its escrow.
        assertLe(clientBefore, market.balanceOf(CLIENT) + 2 * uint256(maxPayment), "client paid more than escrow");
        _assertMarketLedger(0);
    }

    /// @notice A metered held result billed for more runtime than it used never pays in expectation. The same
    /// work (`measured` seconds by every auditor) is billed honestly and overstated (`billed`), unaudited and
    /// audited, at the task's audit probability p: (1 − p) × what overstating adds unaudited + p × what it adds
    /// audited ≤ 0. Within the 10% tolerance the audit confirms it alone and the excess ÷ p is forfeited; beyond
    /// it the audit escalates and the bond goes. What the provider keeps counts its stake too.
    function testFuzz_overstatedRuntimeNeverPays(
        uint96 maxPayment,
        uint80 pricePerSecond,
        uint16 auditBps,
        uint32 measured,
        uint32 billed
    ) public {
        // A bond of up to (1/p − 1) × maxPayment must fit the providers' stake at the lowest p.
        maxPayment = uint96(bound(maxPayment, 1, MAX_PAYMENT / 100));
        pricePerSecond = uint80(bound(pricePerSecond, 1, uint256(maxPayment)));
        auditBps = uint16(bound(auditBps, market.params().auditBps, BPS));
        measured = uint32(bound(measured, 1, MAX_RUNTIME - 1));
        billed = uint32(bound(billed, measured + 1, MAX_RUNTIME));

        uint32 opaque = _publish(0, false);
        int256 unaudited = _keeps(_submitAudited(opaque, maxPayment, pricePerSecond, 0), billed, measured)
            - _keeps(_submitAudited(opaque, maxPayment, pricePerSecond, 0), measured, measured);
        uint32 deterministic = _publish(0, true);
        int256 audited = _keeps(_submitAudited(deterministic, maxPayment, pricePerSecond, auditBps), billed, measured)
            - _keeps(_submitAudited(deterministic, maxPayment, pricePerSecond, auditBps), measured, measured);
        assertTrue(
            int256(BPS - auditBps) * unaudited + int256(uint256(auditBps)) * audited <= 0,
            "overstating the runtime pays in expectation"
        );
        _assertMarketLedger(0);
    }

    /// @dev PROVIDER runs `taskId` and bills `billed` seconds; a held result is drawn and its auditors each measure
    /// `measured` (escalating as the market asks). Returns what PROVIDER keeps: its balance and stake since.
    function _keeps(uint256 taskId, uint32 billed, uint32 measured) internal returns (int256) {
        int256 before = int256(market.balanceOf(PROVIDER) + staking.stakeOf(PROVIDER).staked);
        vm.prank(PROVIDER);
        market.claimTask(taskId);
        vm.warp(vm.getBlockTimestamp() + billed);
        vm.prank(PROVIDER);
        market.submitResult(taskId, sealOf(taskId, DIGEST), CID, CID, billed);
        if (market.getTask(taskId).status == TaskStatus.Held) {
            // Released past 256 blocks: the hash the draw reads is gone and the result counts as drawn.
            vm.roll(market.getSlots(taskId)[0].dueAt + 258);
            market.releaseResult(taskId);
            _auditRound(taskId, PROVIDER_2, address(0), DIGEST, measured, measured);
            if (market.getTask(taskId).status == TaskStatus.Auditing) {
                _auditRound(taskId, PROVIDER_3, PROVIDER_4, DIGEST, measured, measured);
            }
            assertEq(uint8(market.getAudit(taskId).verdict), uint8(AuditVerdict.Upheld), "not upheld");
        }
        return int256(market.balanceOf(PROVIDER) + staking.stakeOf(PROVIDER).staked) - before;
    }

    /// @dev The open round's auditors (`second` is address(0) in round 1) join, run `runFor` seconds, commit
    /// `digest` and reveal it with `runtime`.
    function _auditRound(
        uint256 taskId,
        address first,
        address second,
        bytes32 digest,
        uint32 runFor,
        uint32 runtime
    ) internal {
        _join(taskId, first);
        if (second != address(0)) _join(taskId, second);
        _closeJoining(taskId);
        vm.warp(vm.getBlockTimestamp() + runFor);
        _auditCommit(taskId, first, digest);
        if (second != address(0)) _auditCommit(taskId, second, digest);
        _auditReveal(taskId, first, digest, runtime);
        if (second != address(0)) _auditReveal(taskId, second, digest, runtime);
    }

    /// @notice Sealed results: an auditor that answers a held result's audit with the seal it read from the chain
    /// (ResultSubmitted), instead of the digest of an output it computed, never confirms it. The market seals what
    /// an auditor reveals, so the copy becomes sealOf(taskId, seal): the audit escalates, two honest auditors
    /// uphold the result, and the copier is slashed its whole collateral as outvoted, paid nothing. The provider
    /// is paid what the result pays unaudited. Any output digest (a failure digest is public and not sealed).
    function testFuzz_copiedSealNeverConfirms(bytes32 digest, uint96 maxPayment, uint32 runtimeSec) public {
        vm.assume(digest != bytes32(0) && failureOf(digest) == FailureKind.None);
        maxPayment = uint96(bound(maxPayment, 1, MAX_PAYMENT));
        uint256 taskId = _submitAudited(_publish(0, true), maxPayment, 0, uint16(BPS));
        uint256 providerBefore = market.balanceOf(PROVIDER);
        uint256 lazyStaked = staking.stakeOf(PROVIDER_2).staked;
        uint256 lazyBalance = market.balanceOf(PROVIDER_2);
        _heldResult(taskId, digest, runtimeSec);
        bytes32 seal = sealOf(taskId, digest);
        assertTrue(market.getSlots(taskId)[0].commitment == bytes32(bytes8(seal)), "held tag != the seal's");
        _releaseDrawn(taskId);

        _join(taskId, PROVIDER_2);
        _closeJoining(taskId);
        _auditCommit(taskId, PROVIDER_2, seal);
        _auditReveal(taskId, PROVIDER_2, seal, runtimeSec);
        assertTrue(market.getSlots(taskId)[1].commitment == sealOf(taskId, seal), "the market did not seal the copy");
        assertEq(market.getAudit(taskId).round, 2, "a copied seal confirmed the result");
        assertEq(uint8(market.getAudit(taskId).verdict), uint8(AuditVerdict.Pending), "decided on a copy");

        _join(taskId, PROVIDER_3);
        _join(taskId, PROVIDER_4);
        _closeJoining(taskId);
        _auditCommit(taskId, PROVIDER_3, digest);
        _auditCommit(taskId, PROVIDER_4, digest);
        _auditReveal(taskId, PROVIDER_3, digest, runtimeSec);
        _auditReveal(taskId, PROVIDER_4, digest, runtimeSec);

        assertEq(uint8(market.getAudit(taskId).verdict), uint8(AuditVerdict.Upheld), "not upheld");
        uint256 fee = uint256(maxPayment) * market.getTask(taskId).feeBps / BPS;
        assertEq(market.balanceOf(PROVIDER) - providerBefore, maxPayment - fee, "provider not paid in full");
        assertEq(market.balanceOf(PROVIDER_2), lazyBalance, "the copier was paid");
        assertEq(
            lazyStaked - staking.stakeOf(PROVIDER_2).staked, market.getTask(taskId).collateral, "copier not slashed"
        );
        assertEq(providers.getReputation(PROVIDER_2).outvoted, 1, "copier not counted as outvoted");
        _assertMarketLedger(0);
    }

    function _submitAudited(uint32 sourceId, uint96 maxPayment, uint80 pricePerSecond, uint16 auditBps)
        internal
        returns (uint256 taskId)
    {
        TaskParams memory p =
            Fixture.task(sourceId, maxPayment, pricePerSecond, 1, uint40(vm.getBlockTimestamp() + 1 days));
        p.auditBps = auditBps;
        vm.prank(CLIENT);
        taskId = market.submitTask(p);
    }

    /// @dev PROVIDER claims the task and submits the seal of `digest` as its result.
    function _heldResult(uint256 taskId, bytes32 digest, uint32 runtimeSec) internal {
        vm.prank(PROVIDER);
        market.claimTask(taskId);
        vm.warp(vm.getBlockTimestamp() + 60);
        vm.prank(PROVIDER);
        market.submitResult(taskId, sealOf(taskId, digest), CID, CID, runtimeSec);
    }

    /// @dev Releases a held result of a task audited with certainty (any hash draws it), two blocks later.
    function _releaseDrawn(uint256 taskId) internal {
        vm.roll(market.getSlots(taskId)[0].dueAt + 2);
        market.releaseResult(taskId);
        assertEq(uint8(market.getTask(taskId).status), uint8(TaskStatus.Auditing), "not drawn");
    }

    /// @dev `auditor` joins the current round, two blocks after it opened.
    function _join(uint256 taskId, address auditor) internal {
        uint256 ready = uint256(market.getAudit(taskId).seedBlock) + 2;
        if (vm.getBlockNumber() < ready) vm.roll(ready);
        uint256 lockedBefore = staking.stakeOf(auditor).locked;
        vm.prank(auditor);
        market.joinAudit(taskId);
        assertEq(
            staking.stakeOf(auditor).locked - lockedBefore, market.getTask(taskId).collateral, "auditor collateral"
        );
    }

    function _closeJoining(uint256 taskId) internal {
        vm.warp(uint256(market.getAudit(taskId).joinDeadline) + 1);
    }

    function _finalizeAfter(uint256 deadline, uint256 taskId) internal {
        vm.warp(deadline + 1);
        market.finalizeTask(taskId);
    }

    /// @dev An auditor commits to the digest it found itself (not a seal): the market seals it at the reveal.
    function _auditCommit(uint256 taskId, address auditor, bytes32 digest) internal {
        bytes32 salt = bytes32(uint256(uint160(auditor)));
        vm.prank(auditor);
        market.commitResult(taskId, Fixture.commitment(taskId, auditor, digest, salt));
    }

    function _auditReveal(uint256 taskId, address auditor, bytes32 digest, uint32 runtimeSec) internal {
        bytes32 salt = bytes32(uint256(uint160(auditor)));
        vm.prank(auditor);
        market.revealResult(taskId, digest, salt, CID, CID, runtimeSec);
    }

    /// @dev Since `before`: no balance, fee or collateral moved.
    function _assertNothingMoved(Deltas memory before, uint256 locked) internal view {
        Deltas memory d = _since(before);
        assertEq(d.provider + d.client + d.creator + d.stakers + d.treasury, 0, "a held result moved money");
        assertEq(staking.stakeOf(PROVIDER).locked, locked, "a held result's collateral moved");
    }

    function _ceilDiv(uint256 a, uint256 b) internal pure returns (uint256) {
        return a == 0 ? 0 : (a - 1) / b + 1;
    }

    function _min(uint256 a, uint256 b) internal pure returns (uint256) {
        return a < b ? a : b;
    }

    function _max(uint256 a, uint256 b) internal pure returns (uint256) {
        return a > b ? a : b;
    }
}
