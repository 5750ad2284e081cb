// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {IProviderRegistry} from "./interfaces/IProviderRegistry.sol";
import {ISourceRegistry, Requirements} from "./interfaces/ISourceRegistry.sol";
import {IStaking} from "./interfaces/IStaking.sol";
import {AuditVerdict, ITaskMarket, MarketParams, SlotStatus, TaskStatus} from "./interfaces/ITaskMarket.sol";
import {isValidCID} from "./libraries/CIDs.sol";
import {FailureKind, failureOf} from "./libraries/Results.sol";

/// @title Task market state and settlement
/// @notice The storage of TaskMarket and the settlement steps it shares with TaskAudits, which runs audits on
/// that storage through delegatecall: the market's code and the audits' would not fit one contract's 24 KiB.
/// @dev TaskMarket and TaskAudits both inherit this contract first, so its variables sit in the same slots in
/// both. Nothing else declares storage before it.
abstract contract TaskMarketBase {
    uint256 internal constant BPS = 10_000;
    /// @dev Slot 0 holds the provider; auditors hold slots 1..6: one in the first round, two per escalation.
    uint8 internal constant AUDIT_SLOTS = 7;
    /// @dev TaskData.flags: a price per second is set.
    uint8 internal constant METERED = 1;
    /// @dev TaskData.flags: a k = 1 result is held for the audit draw (auditBps > 0).
    uint8 internal constant AUDITED = 2;
    /// @dev TaskData.flags: the source has a validator; audits of a result run it instead of the workload.
    uint8 internal constant VALIDATED = 4;
    /// @dev TaskData.flags: the result handed in (k = 1) or agreed on (k > 1) is a failure report.
    uint8 internal constant FAILED = 8;
    /// @dev How far above an audit's measured runtime a metered k = 1 result's billed runtime may be before it
    /// counts as a lie (10%): the spread between two runs of one source on hardware that meets its requirements.
    uint256 internal constant RUNTIME_TOLERANCE_BPS = 1_000;

    /// @dev TaskData.flags: minSuccessBps or minCompleted is set (kept in TaskExtra).
    uint8 internal constant GATED = 16;

    /// @dev Two slots; field order is the packing. They hold everything a k = 1 task of a fixed price without
    /// reputation gates ever reads: its claim, its result, its audit draw and its settlement. The collateral is
    /// not stored: it follows from maxPayment, auditBps and the parameters of the task's version (_collateralOf).
    struct TaskData {
        // slot 0
        address client;
        uint32 sourceId;
        uint8 replicas;
        TaskStatus status;
        uint8 openSlots;
        uint8 committed;
        uint8 revealed;
        /// @dev The version of the market parameters in force at submission: the task settles under them.
        uint16 paramsVersion;
        /// @dev METERED, AUDITED, VALIDATED, FAILED and GATED bits.
        uint8 flags;
        // slot 1
        uint96 maxPayment;
        /// @dev At most MAX_TASK_DURATION after the submission: 32 bits last until 2106.
        uint32 deadline;
        uint16 creatorFeeBps;
        uint16 discountBps;
        /// @dev k > 1: the low 16 bits of the seat race's seed block (see _race).
        uint16 auditBps;
        uint32 maxRuntimeSec;
        uint8 minGpus;
        uint8 minComputeCapability;
        uint32 minVramMiB;
    }

    /// @dev A task's third slot, written only for the tasks that use it (METERED or GATED): a task of a fixed
    /// price without reputation gates never pays for it.
    struct TaskExtra {
        uint80 pricePerSecond;
        uint16 minSuccessBps;
        uint24 minCompleted;
    }

    /// @dev Written only when a result is drawn for an audit.
    struct AuditData {
        // slot 0
        AuditVerdict verdict;
        uint8 round;
        uint8 firstSlot;
        uint8 auditors;
        uint8 committed;
        uint8 revealed;
        uint40 joinDeadline;
        uint40 commitDeadline;
        uint40 seedBlock;
        /// @dev When the round's reveals close; 0 until they open.
        uint40 revealDeadline;
        // slot 1
        bytes32 seed;
        // slot 2: collateral slashed from auditors in earlier rounds, held here until the audit settles.
        uint256 slashed;
    }

    /// @dev One slot per replica.
    /// @dev A held k = 1 result (the only case where a claim outlives its submission with nothing else to
    /// store) reuses the slot: `claimedAt` takes the high bits of the result's tag (see _hold), `dueAt` the
    /// submission block.
    struct ClaimData {
        address provider;
        uint40 claimedAt;
        /// @dev Due time of the result or commitment; replaced by the commit time on commit, which then
        /// bounds the runtime that can be revealed, and for a held k = 1 result by the number of the block it was
        /// submitted in (the audit draw reads the next block's hash).
        uint40 dueAt;
        SlotStatus status;
    }

    /// @dev Amounts gathered while settling a task and written once at the end.
    struct Settlement {
        uint256 paid;
        /// @dev Part of `paid` that slashed collateral funded (auditors of escalated audits), not the escrow.
        uint256 fromSlashes;
        uint256 toClient;
        uint256 toCreator;
        uint256 toStakers;
        uint256 toTreasury;
    }

    address internal _treasury;
    /// @dev The parameters new tasks take.
    MarketParams internal _params;
    /// @dev Every set of parameters ever in force, by version. A task keeps the version in force when it was
    /// submitted, so no change of parameters alters the terms of work already agreed (fees, shares, windows).
    mapping(uint16 version => MarketParams) internal _paramsAt;
    // Protocol fees not yet paid out, in one slot: a settlement writes it once.
    uint128 internal _treasuryAccrued;
    uint128 internal _pendingStakerFees;
    // One slot, read and written by every submission (declared after the fees: they must not share it).
    uint64 internal _taskCount;
    uint16 internal _paramsVersion;
    /// @dev Whether Staking has discount tiers: without them a submission does not call Staking at all.
    bool internal _discountsOn;

    /// @dev Internal balances: free to withdraw or to escrow.
    mapping(address account => uint256) internal _balances;
    mapping(uint256 taskId => TaskData) internal _tasks;
    mapping(uint256 taskId => TaskExtra) internal _extras;
    mapping(uint256 taskId => ClaimData[7]) internal _claims;
    /// @dev Commitment of each slot, replaced by the revealed result digest; for a held k = 1 result, slot 0
    /// holds its digest, and an auditor's ticket is kept in its slot until it commits.
    mapping(uint256 taskId => bytes32[7]) internal _commitments;
    mapping(uint256 taskId => AuditData) internal _audits;
    /// @dev Revealed runtimes, seven 32-bit lanes in one word. Of a k > 1 task, the top 32 bits hold its seat race's
    /// end and then its reveal deadline (see _replicaDeadline): every reveal reads and writes this word anyway.
    mapping(uint256 taskId => uint256) internal _runtimes;
    /// @dev Accrued per source rather than paid to its owner at settlement: a settlement then needs no call to
    /// the registry, and fees follow the source when it changes hands.
    mapping(uint32 sourceId => uint256) internal _creatorFees;

    /// @dev The longest a seat race runs, whatever the join window: its seed block is kept in 16 bits (see _race).
    uint256 internal constant MAX_RACE = 1 hours;

    /// @dev The seat race of a k > 1 task lives in words written at submission anyway, until its reveals open: the
    /// top of its runtimes word holds the race's end, `auditBps` (0 for k > 1) the low 16 bits of its seed block
    /// (the submission's). No fresh slot for it. The seed block is the latest block up to now with those low bits:
    /// exact while fewer than 65,536 blocks have passed, which a race of at most an hour (MAX_RACE) ensures on any
    /// chain with blocks 55 ms apart or more; past it (or 256 blocks) the race is over anyway.
    function _race(uint256 taskId, TaskData storage t) internal view returns (uint40 end, uint256 seedBlock) {
        end = _replicaDeadline(_runtimes[taskId]);
        seedBlock = block.number - ((block.number - t.auditBps) & 0xFFFF);
    }

    /// @dev The deadline a k > 1 task keeps at the top of its runtimes word: its seat race's end, then its reveals'.
    function _replicaDeadline(uint256 runtimes) internal pure returns (uint40) {
        return uint40(runtimes >> 224);
    }

    /// @dev The first 8 bytes of a result's seal: all a held result keeps of it. Matching a tag without the
    /// result means finding a preimage of 64 bits, about 2^64 hashes (a 40-bit tag would take one GPU a minute).
    function _tagOf(bytes32 seal) internal pure returns (uint64) {
        return uint64(bytes8(seal));
    }

    /// @dev Keeps a held result's tag without fresh storage: its high 40 bits in the claim's `claimedAt`, its low
    /// 24 in the task's openSlots, committed and revealed, which a single-replica task does not use once its result
    /// is in (getTask reports them as 0).
    function _hold(TaskData storage t, ClaimData storage c, bytes32 seal) internal {
        uint64 tag = _tagOf(seal);
        c.claimedAt = uint40(tag >> 24);
        t.openSlots = uint8(tag >> 16);
        t.committed = uint8(tag >> 8);
        t.revealed = uint8(tag);
    }

    /// @dev The tag `_hold` kept.
    function _heldTag(TaskData storage t, ClaimData storage c) internal view returns (uint64) {
        return uint64(c.claimedAt) << 24 | uint64(t.openSlots) << 16 | uint64(t.committed) << 8 | uint64(t.revealed);
    }

    /// @dev What a no-show forfeits: the collateral a task without audits would lock. The rest of an audit bond
    /// answers for wrong results only: a client whose input makes honest runs time out must not collect it.
    /// Never more than the collateral: that is the same formula with the bond added.
    function _noShowSlash(TaskData storage t) internal view returns (uint256) {
        MarketParams storage terms = _paramsAt[t.paramsVersion];
        return _collateral(t.maxPayment, 0, terms.collateralBps, terms.minCollateral);
    }

    /// @dev Checks that the sender may claim a slot of `t` (the registry's eligibility checks, and the task's
    /// reputation gates when `gated`) and counts the claim.
    function _recordClaim(uint256 taskId, TaskData storage t, bool gated) internal {
        (uint16 minSuccessBps, uint24 minCompleted) = gated && t.flags & GATED != 0
            ? (_extras[taskId].minSuccessBps, _extras[taskId].minCompleted)
            : (0, 0);
        _registry().recordClaim(
            msg.sender,
            t.sourceId,
            Requirements(t.minGpus, t.minVramMiB, t.minComputeCapability, t.maxRuntimeSec, false),
            minSuccessBps,
            minCompleted
        );
    }

    /// @dev The collateral each replica of `t` locks (see _collateral), under the parameters of its version.
    function _collateralOf(TaskData storage t) internal view returns (uint256) {
        MarketParams storage terms = _paramsAt[t.paramsVersion];
        return _collateral(
            t.maxPayment, t.flags & AUDITED != 0 ? t.auditBps : 0, terms.collateralBps, terms.minCollateral
        );
    }

    /// @dev An audited result's bond makes cheating lose in expectation: a provider that saves up to the payment
    /// M by not computing loses M + bond with probability p, so bond ≥ (1/p − 1) × M; and at least 3 × M, which
    /// pays the auditors of the escalation rounds when the provider is wrong.
    function _collateral(uint96 maxPayment, uint16 auditBps, uint16 collateralBps, uint80 minCollateral)
        internal
        pure
        returns (uint256 collateral)
    {
        collateral = uint256(maxPayment) * collateralBps / BPS;
        if (auditBps != 0) {
            uint256 bond = Math.mulDiv(maxPayment, BPS - auditBps, auditBps, Math.Rounding.Ceil);
            if (bond < 3 * uint256(maxPayment)) bond = 3 * uint256(maxPayment);
            if (collateral < bond) collateral = bond;
        }
        if (collateral < minCollateral) collateral = minCollateral;
    }

    /// @dev The staking contract (an immutable of TaskMarket).
    function _stakingContract() internal view virtual returns (IStaking);

    /// @dev The provider registry (an immutable of TaskMarket).
    function _registry() internal view virtual returns (IProviderRegistry);

    function _task(uint256 taskId) internal view returns (TaskData storage t) {
        t = _tasks[taskId];
        if (t.status == TaskStatus.None) revert ITaskMarket.TaskMarketUnknownTask(taskId);
    }

    /// @dev The source registry (an immutable of TaskMarket).
    function _sourceRegistry() internal view virtual returns (ISourceRegistry);

    /// @dev What one replica's result is worth: maxPayment, or the metered price of `runtime` if lower. A failed
    /// run is paid like any other on a metered task (the runtime it used) and the source's failure fee on a
    /// fixed-price one. Sources never change their terms, so reading the fee now reads the one agreed.
    function _payment(uint256 taskId, TaskData storage t, uint32 runtime, bool failed)
        internal
        view
        returns (uint256 payment)
    {
        payment = t.maxPayment;
        if (t.flags & METERED != 0) {
            uint256 metered = uint256(_extras[taskId].pricePerSecond) * runtime;
            if (metered < payment) payment = metered;
        } else if (failed) {
            payment = payment * _sourceRegistry().getSourceTerms(t.sourceId).failureFeeBps / BPS;
        }
    }

    /// @dev Whether `digest` reports a failure. A timeout is only believed once the runtime limit has passed since
    /// the claim (`elapsed`): a provider cannot end a task early as "timed out" and collect the failure fee.
    function _isFailure(uint256 taskId, TaskData storage t, bytes32 digest, uint256 elapsed)
        internal
        view
        returns (bool)
    {
        FailureKind kind = failureOf(digest);
        if (kind == FailureKind.TimedOut && elapsed < t.maxRuntimeSec) {
            revert ITaskMarket.TaskMarketTimeoutTooEarly(taskId, t.maxRuntimeSec, elapsed);
        }
        return kind != FailureKind.None;
    }

    /// @dev Pays one replica `payment` into `s`; unlocks its collateral and, if `record`, counts the completion
    /// (or the failed run, if `failed`).
    function _payReplica(
        Settlement memory s,
        TaskData storage t,
        uint256 taskId,
        uint8 slot,
        address provider,
        uint256 payment,
        uint32 runtime,
        bool record,
        bool failed
    ) internal {
        _credit(s, t, taskId, slot, provider, payment);
        _stakingContract().unlock(provider, _collateralOf(t));
        if (record) _registry().recordCompletion(provider, runtime, payment, failed);
    }

    /// @dev Credits one replica `payment` in `s`, less the fee (rebate, creator, stakers, treasury).
    function _credit(Settlement memory s, TaskData storage t, uint256 taskId, uint8 slot, address provider, uint256 payment)
        internal
    {
        MarketParams storage terms = _paramsAt[t.paramsVersion];
        uint256 fee = payment * terms.protocolFeeBps / BPS;
        uint256 rebate = fee * t.discountBps / BPS;
        uint256 net = fee - rebate;
        uint256 toCreator = net * t.creatorFeeBps / BPS;
        uint256 toStakers = net * terms.stakerShareBps / BPS;

        _balances[provider] += payment - fee;
        s.paid += payment;
        s.toClient += rebate;
        s.toCreator += toCreator;
        s.toStakers += toStakers;
        s.toTreasury += net - toCreator - toStakers;
        emit ITaskMarket.ReplicaPaid(taskId, provider, slot, payment, fee);
    }

    /// @dev Slashes one claim's collateral into `s`: part to the client, the rest to the treasury. Outvoted: the
    /// whole collateral. A no-show: what a task without audits locks (see _noShowSlash); the rest is released.
    function _slash(
        Settlement memory s,
        TaskData storage t,
        uint256 taskId,
        uint8 slot,
        address provider,
        bool outvoted
    ) internal {
        uint256 collateral = _collateralOf(t);
        uint256 amount = outvoted ? collateral : _noShowSlash(t);
        if (amount != collateral) _stakingContract().unlock(provider, collateral - amount);
        uint256 toClient = amount * _paramsAt[t.paramsVersion].slashToClientBps / BPS;
        s.toClient += toClient;
        s.toTreasury += amount - toClient;
        emit ITaskMarket.ProviderSlashed(taskId, provider, slot, amount, toClient, outvoted);
        _registry().recordFailure(provider, outvoted, amount);
        // Staking sends the slashed tokens here; they are counted in the ledger by the caller.
        if (amount != 0) _stakingContract().slash(provider, amount);
    }

    /// @dev Writes a final settlement: releases the escrow (replicas × maxPayment), refunds what was not paid,
    /// books fees once.
    function _settle(Settlement memory s, TaskData storage t, uint256 taskId, TaskStatus status, bytes32 resultDigest)
        internal
    {
        address client = t.client;
        uint256 refund = _escrowOf(t) - (s.paid - s.fromSlashes);
        if (t.discountBps != 0) _stakingContract().unpinDiscount(client);
        uint256 toClient = refund + s.toClient;
        if (toClient != 0) _balances[client] += toClient;
        if (s.toCreator != 0) _creatorFees[t.sourceId] += s.toCreator;
        if (s.toTreasury != 0 || s.toStakers != 0) {
            _treasuryAccrued += uint128(s.toTreasury);
            _pendingStakerFees += uint128(s.toStakers);
        }
        emit ITaskMarket.TaskFinalized(taskId, client, status, resultDigest, s.paid, refund);
    }

    /// @dev What a task escrowed: a payment per replica, and the first auditor's for an auditable result.
    function _escrowOf(TaskData storage t) internal view returns (uint256) {
        return uint256(t.maxPayment) * (t.flags & AUDITED == 0 ? t.replicas : 2);
    }

    /// @dev Whether the draw of a result submitted in `submittedBlock` can be made, and whether it audits it. It
    /// reads the hash of the next block, which the provider could not know when it submitted. Past 256 blocks
    /// the hash is gone and the result counts as drawn: the provider, the only one who loses by an audit, had
    /// 256 blocks to release it.
    function _draw(uint256 taskId, uint256 submittedBlock, uint16 auditBps)
        internal
        view
        returns (bool ready, bool drawn)
    {
        if (block.number < submittedBlock + 2) return (false, false);
        bytes32 hash = blockhash(submittedBlock + 1);
        if (hash == bytes32(0)) return (true, true);
        return (true, uint256(keccak256(abi.encode(hash, taskId))) % BPS < auditBps);
    }

    /// @dev The runtime counted: what was reported, at most the time since the claim and the limit.
    function _capRuntime(uint32 reported, uint256 elapsed, uint32 limit) internal pure returns (uint32 runtime) {
        runtime = elapsed < reported ? uint32(elapsed) : reported;
        if (limit < runtime) runtime = limit;
    }

    /// @dev The median of the runtimes (32-bit lanes of `packed`) of the slots in `mask` below `slots`: of an even
    /// count, the lower one, or the `upper`. At most 7 lanes, sorted by insertion.
    function _medianRuntime(uint256 packed, uint8 mask, uint8 slots, bool upper) internal pure returns (uint32) {
        uint32[7] memory sorted;
        uint256 n;
        for (uint8 i; i < slots; ++i) {
            if (mask & (1 << i) == 0) continue;
            uint32 value = uint32(packed >> (32 * i));
            uint256 j = n++;
            while (j > 0 && sorted[j - 1] > value) {
                sorted[j] = sorted[j - 1];
                --j;
            }
            sorted[j] = value;
        }
        return sorted[upper ? n / 2 : (n - 1) / 2];
    }

    function _requireCID(string calldata cid) internal pure {
        if (!isValidCID(cid)) revert ITaskMarket.TaskMarketInvalidCID();
    }
}
