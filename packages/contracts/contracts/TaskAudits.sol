// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {TaskMarketBase} from "./TaskMarketBase.sol";
import {IProviderRegistry} from "./interfaces/IProviderRegistry.sol";
import {ISourceRegistry} from "./interfaces/ISourceRegistry.sol";
import {FailureKind, failureOf, sealOf} from "./libraries/Results.sol";
import {IStaking} from "./interfaces/IStaking.sol";
import {AuditVerdict, ITaskMarket, MarketParams, SlotStatus, TaskStatus} from "./interfaces/ITaskMarket.sol";

/// @title Audits of single-provider results
/// @notice Runs in TaskMarket's storage through delegatecall, from the market's entry points (releaseResult,
/// joinAudit, commitResult, revealResult, finalizeTask); it has no state of its own and no use called directly.
/// @dev A drawn result is re-run by auditors the protocol draws: eligible providers join a round, and the
/// lowest stake-weighted tickets hold its slots when joining closes. Auditors commit and reveal like replicas.
/// The first auditor reproducing the result upholds it; any other outcome escalates by two auditors, until a
/// result found by at least two auditors, and by more than any other, decides. Whoever is wrong pays.
contract TaskAudits is TaskMarketBase {
    /// @dev joinAudit's answer when the round's seed block is older than 256 blocks and was replaced.
    uint8 private constant NO_SLOT = type(uint8).max;

    address private immutable _self = address(this);

    error TaskAuditsNotDelegated();

    modifier onlyDelegated() {
        if (address(this) == _self) revert TaskAuditsNotDelegated();
        _;
    }

    /// @notice releaseResult: draws whether a held result is audited; settles it, or opens the first round.
    function release(uint256 taskId) external onlyDelegated {
        TaskData storage t = _task(taskId);
        if (t.status != TaskStatus.Held) revert ITaskMarket.TaskMarketWrongStatus(taskId, t.status);
        ClaimData storage c = _claims[taskId][0];
        (bool ready, bool drawn) = _draw(taskId, c.dueAt, t.auditBps);
        if (!ready) revert ITaskMarket.TaskMarketDrawNotReady(taskId, uint256(c.dueAt) + 2);
        emit ITaskMarket.AuditDrawn(taskId, drawn);
        if (drawn) {
            t.status = TaskStatus.Auditing;
            _openRound(t, taskId, _audits[taskId], 1, 1, 1);
            return;
        }
        t.status = TaskStatus.Completed;
        Settlement memory s;
        // Only a metered result keeps its runtime: a fixed price does not depend on it.
        uint32 runtime = t.flags & METERED != 0 ? uint32(_runtimes[taskId]) : 0;
        // The completion was recorded when the result came in.
        bool failed = t.flags & FAILED != 0;
        _payReplica(s, t, taskId, 0, c.provider, _payment(taskId, t, runtime, failed), runtime, false, failed);
        _settle(s, t, taskId, TaskStatus.Completed, bytes32(0));
    }

    /// @notice claimTask of a task with k > 1 replicas: a seat in the race (stake-weighted tickets, the k lowest
    /// hold the seats) while it runs, a free seat first come after it. See ITaskMarket.claimTask.
    function claim(uint256 taskId) external onlyDelegated returns (uint8 slot) {
        TaskData storage t = _task(taskId);
        TaskStatus status = t.status;
        (uint40 raceEnd, uint256 seedBlock) = _race(taskId, t);
        // The race also ends when its seed's block hash can no longer be read: free seats are first come then.
        bool racing = block.timestamp <= raceEnd && block.number <= seedBlock + 256;
        if (status != TaskStatus.Open && (status != TaskStatus.Claimed || !racing)) {
            revert ITaskMarket.TaskMarketWrongStatus(taskId, status);
        }
        uint40 deadline = t.deadline;
        if (block.timestamp > deadline) revert ITaskMarket.TaskMarketTaskDeadlinePassed(taskId, deadline);
        // A seat won in the race starts when the race ends. No claim that could not be honoured before the
        // deadline (see the k = 1 claim).
        uint256 start = racing ? uint256(raceEnd) + 1 : block.timestamp;
        uint256 due = start + t.maxRuntimeSec + _paramsAt[t.paramsVersion].claimGrace;
        if (due > deadline) revert ITaskMarket.TaskMarketClaimWindowTooShort(taskId, deadline, due);

        uint8 replicas = t.replicas;
        uint8 open = t.openSlots;
        ClaimData[7] storage claims = _claims[taskId];
        // One seat per provider: replicas must be independent. At most 7 iterations.
        for (uint8 i; i < replicas; ++i) {
            if (open & (1 << i) == 0 && claims[i].provider == msg.sender) {
                revert ITaskMarket.TaskMarketAlreadyClaimant(taskId, msg.sender);
            }
        }
        _recordClaim(taskId, t, true);
        uint256 collateral = _collateralOf(t);
        slot = _freeSlot(open, replicas);
        if (racing) {
            if (block.number < seedBlock + 2) revert ITaskMarket.TaskMarketDrawNotReady(taskId, seedBlock + 2);
            bytes32 seed = keccak256(abi.encode(blockhash(seedBlock + 1), taskId));
            uint256 score = _ticket(seed, msg.sender, _stakingContract().stakeOf(msg.sender).staked);
            if (slot == NO_SLOT) {
                // Every seat is held: the worst ticket gives way to a better one. At most 7.
                uint256 worst;
                for (uint8 i; i < replicas; ++i) {
                    uint256 held = uint256(_commitments[taskId][i]);
                    if (held > worst) (worst, slot) = (held, i);
                }
                if (score >= worst) revert ITaskMarket.TaskMarketClaimTicketTooHigh(taskId, score, worst);
                address replaced = claims[slot].provider;
                emit ITaskMarket.ClaimReplaced(taskId, replaced, slot, worst);
                _stakingContract().unlock(replaced, collateral);
            }
            // The ticket waits in the seat's commitment until the commitment replaces it.
            _commitments[taskId][slot] = bytes32(score);
        }
        _stakingContract().lock(msg.sender, collateral);
        claims[slot] = ClaimData(msg.sender, uint40(start), uint40(due), SlotStatus.Claimed);
        open &= ~uint8(1 << slot);
        t.openSlots = open;
        if (open == 0) t.status = TaskStatus.Claimed;
        emit ITaskMarket.TaskClaimed(taskId, msg.sender, slot, uint40(due), collateral);
    }

    function join(uint256 taskId) external onlyDelegated returns (uint8 slot) {
        TaskData storage t = _task(taskId);
        if (t.status != TaskStatus.Auditing) revert ITaskMarket.TaskMarketWrongStatus(taskId, t.status);
        AuditData storage a = _audits[taskId];
        if (block.timestamp > a.joinDeadline) revert ITaskMarket.TaskMarketAuditJoinClosed(taskId, a.joinDeadline);
        bytes32 seed = a.seed;
        if (seed == bytes32(0)) {
            uint256 seedBlock = a.seedBlock;
            if (block.number < seedBlock + 2) revert ITaskMarket.TaskMarketDrawNotReady(taskId, seedBlock + 2);
            bytes32 hash = blockhash(seedBlock + 1);
            if (hash == bytes32(0)) {
                // Nobody joined for 256 blocks and the hash is gone. A seed the caller could pick its block for
                // would let it steer the round, so the round is re-seeded from a block yet to come. Its joining
                // deadline does not move: re-seeding cannot hold a round open.
                a.seedBlock = uint40(block.number);
                emit ITaskMarket.AuditRoundOpened(taskId, a.round, a.firstSlot, a.auditors, a.joinDeadline);
                return NO_SLOT;
            }
            seed = keccak256(abi.encode(hash, taskId, a.round));
            a.seed = seed;
        }
        uint8 first = a.firstSlot;
        uint8 end = first + a.auditors;
        ClaimData[7] storage claims = _claims[taskId];
        // The provider and every auditor of earlier rounds (forfeited ones included) stay out. At most 7.
        for (uint8 i; i < end; ++i) {
            if (claims[i].provider == msg.sender) revert ITaskMarket.TaskMarketAlreadyClaimant(taskId, msg.sender);
        }
        // The task's reputation gates choose who may do the client's work, not who checks it: a gate no auditor
        // passes would let every drawn result lapse unaudited.
        _recordClaim(taskId, t, false);
        uint256 score = _ticket(seed, msg.sender, _stakingContract().stakeOf(msg.sender).staked);

        // A free slot of the round, or the worst ticket in it if the caller's is better. At most 2 slots.
        slot = NO_SLOT;
        uint256 worst;
        for (uint8 i = first; i < end; ++i) {
            if (claims[i].provider == address(0)) {
                slot = i;
                break;
            }
            uint256 held = uint256(_commitments[taskId][i]);
            if (held > worst) (worst, slot) = (held, i);
        }
        uint256 collateral = _collateralOf(t);
        address replaced = claims[slot].provider;
        if (replaced != address(0)) {
            if (score >= worst) revert ITaskMarket.TaskMarketAuditTicketTooHigh(taskId, score, worst);
            emit ITaskMarket.AuditorReplaced(taskId, replaced, slot);
            _stakingContract().unlock(replaced, collateral);
        }
        _stakingContract().lock(msg.sender, collateral);
        claims[slot] = ClaimData(msg.sender, uint40(block.timestamp), a.commitDeadline, SlotStatus.Claimed);
        _commitments[taskId][slot] = bytes32(score);
        emit ITaskMarket.AuditorJoined(taskId, msg.sender, slot, score);
    }

    /// @notice commitResult on a task under audit.
    function commit(uint256 taskId, bytes32 commitment) external onlyDelegated {
        _commitAudit(_tasks[taskId], taskId, commitment);
    }

    /// @notice revealResult on a task under audit.
    function reveal(
        uint256 taskId,
        bytes32 resultDigest,
        bytes32 salt,
        string calldata resultCID,
        string calldata receiptCID,
        uint32 runtimeSec
    ) external onlyDelegated {
        _revealAudit(_tasks[taskId], taskId, resultDigest, salt, resultCID, receiptCID, runtimeSec);
    }

    /// @notice finalizeTask on a task under audit.
    function advance(uint256 taskId) external onlyDelegated {
        _advanceAudit(_tasks[taskId], taskId, _audits[taskId]);
    }

    /// @notice The last reveal, or finalizeTask after the reveal window, of a task with k > 1 replicas. Results that
    /// agree settle: a strict majority (at least 2) is paid, replicas that did not reveal are slashed. Results that
    /// differ open a dispute: auditors drawn by the protocol re-run the task, and whoever revealed a result they do
    /// not confirm pays. No veto is free, and an honest minority is never slashed by a majority (one operator's
    /// accounts, perhaps) without that check. With k = 7 no slot is left for an auditor: a strict majority wins.
    function settleReplicas(uint256 taskId) external onlyDelegated {
        TaskData storage t = _tasks[taskId];
        uint8 replicas = t.replicas;
        (bytes32 winner, uint8 winners, uint8 revealedMask, bool split) = _tally(taskId, replicas);
        if (split && replicas < AUDIT_SLOTS) return _openDispute(t, taskId, replicas, revealedMask);

        TaskStatus status = winners != 0 ? TaskStatus.Completed : TaskStatus.Failed;
        t.status = status;
        Settlement memory s;
        // Every winner is paid for the same runtime, the winners' (lower) median: one replica alone cannot
        // raise the bill of a metered task.
        uint32 runtime = winners == 0 ? 0 : _medianRuntime(_runtimes[taskId], winners, replicas, false);
        // Replicas that agree on a failure are paid the source's failure terms.
        bool failed = failureOf(winner) != FailureKind.None;
        if (failed) t.flags |= FAILED;
        for (uint8 i; i < replicas; ++i) {
            address provider = _claims[taskId][i].provider;
            uint8 bit = uint8(1 << i);
            if (revealedMask & bit == 0) {
                _slash(s, t, taskId, i, provider, false);
            } else if (winners == 0) {
                _stakingContract().unlock(provider, _collateralOf(t));
            } else if (winners & bit != 0) {
                _payReplica(s, t, taskId, i, provider, _payment(taskId, t, runtime, failed), runtime, true, failed);
            } else {
                _slash(s, t, taskId, i, provider, true);
            }
        }
        _settle(s, t, taskId, status, winner);
    }

    /// @dev The market's staking contract, read from the market (this code runs as the market).
    function _stakingContract() internal view override returns (IStaking) {
        return IStaking(ITaskMarket(address(this)).staking());
    }

    /// @dev The market's source registry, read from the market.
    function _sourceRegistry() internal view override returns (ISourceRegistry) {
        return ISourceRegistry(ITaskMarket(address(this)).sources());
    }

    /// @dev The market's provider registry, read from the market.
    function _registry() internal view override returns (IProviderRegistry) {
        return IProviderRegistry(ITaskMarket(address(this)).providers());
    }

    /// @dev Replicas that did not reveal forfeit now (what they lose pays the auditors); the revealed results wait
    /// for the auditors of slots k.. (round 1: one auditor).
    function _openDispute(TaskData storage t, uint256 taskId, uint8 replicas, uint8 revealedMask) private {
        AuditData storage a = _audits[taskId];
        uint256 slashed;
        for (uint8 i; i < replicas; ++i) {
            if (revealedMask & (1 << i) == 0) slashed += _slashToPot(t, taskId, i, false);
        }
        a.slashed = slashed;
        t.status = TaskStatus.Auditing;
        emit ITaskMarket.AuditDrawn(taskId, true);
        _openRound(t, taskId, a, 1, replicas, 1);
    }

    /// @dev The revealed results of replicas 0..k-1: the digest revealed by a strict majority of k (and at least 2),
    /// the mask of slots that revealed it (0 without a majority), the mask of slots that revealed, and whether
    /// revealed results differ. At most 7 × 7 comparisons.
    function _tally(uint256 taskId, uint8 replicas)
        private
        view
        returns (bytes32 winner, uint8 winners, uint8 revealedMask, bool split)
    {
        bytes32[7] memory digest;
        for (uint8 i; i < replicas; ++i) {
            if (_claims[taskId][i].status == SlotStatus.Submitted) {
                revealedMask |= uint8(1 << i);
                digest[i] = _commitments[taskId][i];
            }
        }
        for (uint8 i; i < replicas; ++i) {
            if (revealedMask & (1 << i) == 0) continue;
            uint8 agreeing;
            uint256 count;
            for (uint8 j; j < replicas; ++j) {
                if (revealedMask & (1 << j) == 0) continue;
                if (digest[j] == digest[i]) {
                    agreeing |= uint8(1 << j);
                    ++count;
                } else {
                    split = true;
                }
            }
            if (count * 2 > replicas && count >= 2) (winner, winners) = (digest[i], agreeing);
        }
    }

    /// @dev Opens audit round `round`: `auditors` slots from `firstSlot`, joined until the joining window ends,
    /// with tickets seeded by the hash of the block after this one.
    function _openRound(
        TaskData storage t,
        uint256 taskId,
        AuditData storage a,
        uint8 round,
        uint8 firstSlot,
        uint8 auditors
    ) internal {
        MarketParams storage terms = _paramsAt[t.paramsVersion];
        uint40 joinDeadline = uint40(block.timestamp) + terms.auditJoinWindow;
        a.verdict = AuditVerdict.Pending;
        a.round = round;
        a.firstSlot = firstSlot;
        a.auditors = auditors;
        a.committed = 0;
        a.revealed = 0;
        a.joinDeadline = joinDeadline;
        a.commitDeadline = joinDeadline + t.maxRuntimeSec + terms.claimGrace;
        a.seedBlock = uint40(block.number);
        a.seed = bytes32(0);
        a.revealDeadline = 0;
        emit ITaskMarket.AuditRoundOpened(taskId, round, firstSlot, auditors, joinDeadline);
    }

    function _commitAudit(TaskData storage t, uint256 taskId, bytes32 commitment) internal {
        AuditData storage a = _audits[taskId];
        // Tickets can still be beaten while joining is open: work starts on an assignment that is final.
        if (block.timestamp <= a.joinDeadline) revert ITaskMarket.TaskMarketAuditJoinOpen(taskId, a.joinDeadline);
        if (commitment == bytes32(0)) revert ITaskMarket.TaskMarketZeroCommitment();
        (uint8 slot, ClaimData storage c) = _auditorOf(taskId, a, msg.sender);
        if (c.status != SlotStatus.Claimed) revert ITaskMarket.TaskMarketAlreadyCommitted(taskId, msg.sender);
        if (block.timestamp > a.commitDeadline) revert ITaskMarket.TaskMarketClaimOverdue(taskId, slot, a.commitDeadline);

        _commitments[taskId][slot] = commitment;
        c.status = SlotStatus.Committed;
        c.dueAt = uint40(block.timestamp);
        uint8 committed = a.committed + 1;
        a.committed = committed;
        emit ITaskMarket.ResultCommitted(taskId, msg.sender, slot, commitment);
        if (committed == _filled(taskId, a)) _openReveal(t, taskId, a);
    }

    function _openReveal(TaskData storage t, uint256 taskId, AuditData storage a) internal {
        uint40 revealDeadline = uint40(block.timestamp) + _paramsAt[t.paramsVersion].revealWindow;
        a.revealDeadline = revealDeadline;
        emit ITaskMarket.RevealOpened(taskId, revealDeadline);
    }

    function _revealAudit(
        TaskData storage t,
        uint256 taskId,
        bytes32 resultDigest,
        bytes32 salt,
        string calldata resultCID,
        string calldata receiptCID,
        uint32 runtimeSec
    ) internal {
        AuditData storage a = _audits[taskId];
        uint40 revealDeadline = a.revealDeadline;
        if (revealDeadline == 0) revert ITaskMarket.TaskMarketWrongStatus(taskId, TaskStatus.Auditing);
        if (block.timestamp > revealDeadline) revert ITaskMarket.TaskMarketRevealClosed(taskId, revealDeadline);
        (uint8 slot, ClaimData storage c) = _auditorOf(taskId, a, msg.sender);
        if (c.status != SlotStatus.Committed) revert ITaskMarket.TaskMarketAlreadyRevealed(taskId, msg.sender);
        if (keccak256(abi.encode(taskId, msg.sender, resultDigest, salt)) != _commitments[taskId][slot]) {
            revert ITaskMarket.TaskMarketCommitmentMismatch(taskId, msg.sender);
        }
        _requireCID(resultCID);
        _requireCID(receiptCID);

        uint32 runtime = _capRuntime(runtimeSec, c.dueAt - c.claimedAt, t.maxRuntimeSec);
        _isFailure(taskId, t, resultDigest, c.dueAt - c.claimedAt);
        // An auditor reveals the digest it found; what it is compared with is the seal of it (see sealOf).
        bytes32 seal = sealOf(taskId, resultDigest);
        _commitments[taskId][slot] = seal;
        c.status = SlotStatus.Submitted;
        _runtimes[taskId] |= uint256(runtime) << (32 * slot);
        uint8 revealed = a.revealed + 1;
        a.revealed = revealed;
        emit ITaskMarket.ResultRevealed(taskId, msg.sender, slot, seal, resultCID, receiptCID, runtime);
        if (revealed == a.committed) _closeRound(t, taskId, a);
    }

    /// @dev finalizeTask on an audit: moves a round whose joining, commitments or reveals are over to its
    /// next step. Auditors that missed their commitment or reveal forfeit their collateral.
    function _advanceAudit(TaskData storage t, uint256 taskId, AuditData storage a) internal {
        if (block.timestamp <= a.joinDeadline) revert ITaskMarket.TaskMarketAuditStillRunning(taskId);
        uint40 revealDeadline = a.revealDeadline;
        if (revealDeadline == 0) {
            if (block.timestamp <= a.commitDeadline && _filled(taskId, a) != 0) {
                revert ITaskMarket.TaskMarketAuditStillRunning(taskId);
            }
            _forfeit(t, taskId, a, SlotStatus.Claimed);
            if (a.committed != 0) return _openReveal(t, taskId, a);
        } else {
            if (block.timestamp <= revealDeadline) revert ITaskMarket.TaskMarketAuditStillRunning(taskId);
            _forfeit(t, taskId, a, SlotStatus.Committed);
        }
        _closeRound(t, taskId, a);
    }

    /// @dev Slashes the round's auditors still in `status`; their collateral stays here to pay later rounds.
    function _forfeit(TaskData storage t, uint256 taskId, AuditData storage a, SlotStatus status) internal {
        uint8 end = a.firstSlot + a.auditors;
        uint256 slashed;
        for (uint8 i = a.firstSlot; i < end; ++i) {
            ClaimData storage c = _claims[taskId][i];
            if (c.provider != address(0) && c.status == status) slashed += _slashToPot(t, taskId, i, false);
        }
        if (slashed != 0) a.slashed += slashed;
    }

    /// @dev Slashes a slot of an audit (an auditor, or a disputed replica); the amount joins the audit's pot.
    function _slashToPot(TaskData storage t, uint256 taskId, uint8 slot, bool outvoted)
        internal
        returns (uint256 amount)
    {
        ClaimData storage c = _claims[taskId][slot];
        address auditor = c.provider;
        uint256 collateral = _collateralOf(t);
        // Outvoted: the whole bond. A no-show: what a task without audits locks; the rest is released.
        amount = outvoted ? collateral : _noShowSlash(t);
        if (amount != collateral) _stakingContract().unlock(auditor, collateral - amount);
        c.status = SlotStatus.Forfeited;
        // The client's share of slashes is decided when the audit settles.
        emit ITaskMarket.ProviderSlashed(taskId, auditor, slot, amount, 0, outvoted);
        _registry().recordFailure(auditor, outvoted, amount);
        _stakingContract().slash(auditor, amount);
    }

    /// @dev Decides the audit when its auditors agree enough; otherwise opens the next round while slots remain.
    /// Round 1's auditor decides alone when it confirms a result (see _confirms). After a disagreement, only
    /// independent re-executions count: a result found by at least two auditors and by more than any other decides.
    function _closeRound(TaskData storage t, uint256 taskId, AuditData storage a) internal {
        uint8 end = a.firstSlot + a.auditors;
        (bytes32 found, uint256 votes, uint256 runnerUp) = _auditTally(taskId, t.replicas, end);
        if (a.round == 1) {
            if (_filled(taskId, a) == 0) return _settleAudit(t, taskId, a, AuditVerdict.Lapsed, bytes32(0));
            // Alone, round 1's auditor confirms the result and, on a metered result, the runtime billed (within
            // the tolerance of its own). Either disagreement escalates: one auditor's word is not enough to
            // slash on.
            if (votes == 1 && _confirms(t, taskId, found) && _confirmsRuntime(t, taskId, a.firstSlot)) {
                return _settleAudit(t, taskId, a, AuditVerdict.Upheld, found);
            }
        } else if (votes >= 2 && votes > runnerUp) {
            return _settleAudit(t, taskId, a, _confirmed(t, taskId, found) ? AuditVerdict.Upheld : AuditVerdict.Overturned, found);
        }
        if (end < AUDIT_SLOTS) return _openRound(t, taskId, a, a.round + 1, end, end + 2 <= AUDIT_SLOTS ? 2 : 1);
        _settleAudit(t, taskId, a, AuditVerdict.Unresolved, bytes32(0));
    }

    /// @dev Whether round 1's auditor, finding `found`, confirms a result: a held k = 1 result whose tag it matches,
    /// or, in a dispute, a replica's result that its vote makes more found than any other.
    function _confirms(TaskData storage t, uint256 taskId, bytes32 found) private view returns (bool) {
        uint8 replicas = t.replicas;
        if (replicas == 1) return _tagOf(found) == _heldTag(t, _claims[taskId][0]);
        uint256 votes = 1;
        uint256 other;
        for (uint8 i; i < replicas; ++i) {
            if (_claims[taskId][i].status != SlotStatus.Submitted) continue;
            bytes32 digest = _commitments[taskId][i];
            uint256 count;
            for (uint8 j; j < replicas; ++j) {
                if (_claims[taskId][j].status == SlotStatus.Submitted && _commitments[taskId][j] == digest) ++count;
            }
            if (digest == found) votes = count + 1;
            else if (count > other) other = count;
        }
        return votes > 1 && votes > other;
    }

    /// @dev Whether an audit measures the runtime billed: a metered held result whose audits rerun the workload (a
    /// validator's runtime says nothing about the workload's).
    function _measuresRuntime(TaskData storage t) private view returns (bool) {
        return t.replicas == 1 && t.flags & (METERED | VALIDATED) == METERED;
    }

    /// @dev Whether the held result's billed runtime is within the tolerance of the runtime `slot`'s auditor found.
    function _confirmsRuntime(TaskData storage t, uint256 taskId, uint8 slot) private view returns (bool) {
        if (!_measuresRuntime(t)) return true;
        uint256 runtimes = _runtimes[taskId];
        return _tolerated(uint32(runtimes), uint32(runtimes >> (32 * slot)));
    }

    /// @dev Whether `billed` is at most `measured` plus the tolerance.
    function _tolerated(uint32 billed, uint32 measured) private pure returns (bool) {
        return uint256(billed) * BPS <= uint256(measured) * (BPS + RUNTIME_TOLERANCE_BPS);
    }

    /// @dev Whether the result the auditors found is the one handed in: a held result's tag, or in a dispute the
    /// result of some replica.
    function _confirmed(TaskData storage t, uint256 taskId, bytes32 found) private view returns (bool) {
        uint8 replicas = t.replicas;
        if (replicas == 1) return _tagOf(found) == _heldTag(t, _claims[taskId][0]);
        for (uint8 i; i < replicas; ++i) {
            if (_claims[taskId][i].status == SlotStatus.Submitted && _commitments[taskId][i] == found) return true;
        }
        return false;
    }

    /// @dev The digest revealed by most auditors (slots first..end-1), its count and the next best count.
    /// At most 6 × 6 comparisons.
    function _auditTally(uint256 taskId, uint8 first, uint8 end)
        internal
        view
        returns (bytes32 found, uint256 votes, uint256 runnerUp)
    {
        bytes32[7] memory digest;
        uint8 revealed;
        for (uint8 i = first; i < end; ++i) {
            if (_claims[taskId][i].status == SlotStatus.Submitted) {
                revealed |= uint8(1 << i);
                digest[i] = _commitments[taskId][i];
            }
        }
        for (uint8 i = first; i < end; ++i) {
            if (revealed & (1 << i) == 0) continue;
            uint256 count;
            for (uint8 j = i; j < end; ++j) {
                if (revealed & (1 << j) != 0 && digest[j] == digest[i]) ++count;
            }
            if (count > votes) {
                if (digest[i] != found) runnerUp = votes;
                (found, votes) = (digest[i], count);
            } else if (digest[i] != found && count > runnerUp) {
                runnerUp = count;
            }
        }
    }

    /// @dev Pays and slashes by the verdict. The client pays for the result that stands; for a held k = 1 result it
    /// also pays one auditor, for a dispute the auditors are paid from what the wrong lose first, then from the
    /// payments the client had escrowed for the replicas that lost. What is left of the slashes goes to the client
    /// (slashToClientBps) and the treasury.
    function _settleAudit(
        TaskData storage t,
        uint256 taskId,
        AuditData storage a,
        AuditVerdict verdict,
        bytes32 truth
    ) internal {
        a.verdict = verdict;
        emit ITaskMarket.AuditResolved(taskId, verdict, truth);
        uint8 end = a.firstSlot + a.auditors;
        (uint8 winners, uint256 pot) = _judgeAuditors(t, taskId, verdict, truth, end, a.slashed);

        Settlement memory s;
        bool stands;
        uint256 clientShare;
        if (t.replicas == 1) (stands, pot, clientShare) = _settleHeld(s, t, taskId, verdict, winners, pot);
        else (stands, pot, clientShare, truth) = _settleDisputed(s, t, taskId, verdict, truth, pot);
        TaskStatus status = stands ? TaskStatus.Completed : TaskStatus.Failed;
        t.status = status;

        if (winners != 0) {
            _payAuditors(s, t, taskId, winners, end, pot, clientShare, failureOf(truth) != FailureKind.None);
        }
        uint256 left = pot - s.fromSlashes;
        uint256 toClient = left * _paramsAt[t.paramsVersion].slashToClientBps / BPS;
        s.toClient += toClient;
        s.toTreasury += left - toClient;
        _settle(s, t, taskId, status, truth);
    }

    /// @dev Auditors (slots k..end-1) who revealed `truth` win; the others who revealed are slashed into the pot,
    /// or get their collateral back when nothing was decided. Returns the winners' mask and the pot. At most 6.
    function _judgeAuditors(
        TaskData storage t,
        uint256 taskId,
        AuditVerdict verdict,
        bytes32 truth,
        uint8 end,
        uint256 pot
    ) private returns (uint8 winners, uint256) {
        for (uint8 i = t.replicas; i < end; ++i) {
            ClaimData storage c = _claims[taskId][i];
            if (c.status != SlotStatus.Submitted) continue;
            if (verdict == AuditVerdict.Unresolved) _stakingContract().unlock(c.provider, _collateralOf(t));
            else if (_commitments[taskId][i] == truth) winners |= uint8(1 << i);
            else pot += _slashToPot(t, taskId, i, true);
        }
        return (winners, pot);
    }

    /// @dev The provider of a held k = 1 result: paid when it stands (upheld, or lapsed), its whole bond slashed into
    /// the pot when overturned, its bond released when unresolved. When it stands the client pays one auditor too
    /// (clientShare = max: see _payAuditors). An upheld metered result billed above what its auditors (`winners`)
    /// measured is settled by _settleOverstated.
    function _settleHeld(
        Settlement memory s,
        TaskData storage t,
        uint256 taskId,
        AuditVerdict verdict,
        uint8 winners,
        uint256 pot
    ) private returns (bool stands, uint256, uint256 clientShare) {
        ClaimData storage c = _claims[taskId][0];
        address provider = c.provider;
        uint256 collateral = _collateralOf(t);
        bool failed = t.flags & FAILED != 0;
        uint32 runtime = uint32(_runtimes[taskId]);
        stands = verdict == AuditVerdict.Upheld || verdict == AuditVerdict.Lapsed;
        if (stands) {
            clientShare = type(uint256).max;
            if (verdict == AuditVerdict.Upheld && _measuresRuntime(t)) {
                // The upper median: one auditor who under-reports cannot lower it.
                uint32 measured = _medianRuntime(_runtimes[taskId], winners, AUDIT_SLOTS, true);
                if (runtime > measured) {
                    pot += _settleOverstated(s, t, taskId, provider, runtime, measured, failed);
                    return (stands, pot, clientShare);
                }
            }
            // The completion was recorded when the result came in.
            _payReplica(s, t, taskId, 0, provider, _payment(taskId, t, runtime, failed), runtime, false, failed);
        } else if (verdict == AuditVerdict.Overturned) {
            c.status = SlotStatus.Forfeited;
            emit ITaskMarket.ProviderSlashed(taskId, provider, 0, collateral, 0, true);
            _registry().recordOverturned(provider, collateral, _payment(taskId, t, runtime, failed), failed);
            _stakingContract().slash(provider, collateral);
            pot += collateral;
        } else {
            _stakingContract().unlock(provider, collateral);
        }
        return (stands, pot, clientShare);
    }

    /// @dev A held metered result, right, but billed for more runtime than its audit measured. Returns what joins
    /// the audit's pot.
    /// - Within the tolerance (as round 1 confirms it): paid as billed, but it forfeits the excess ÷ p (the task's
    ///   audit probability) to the treasury. Billing more than the audit would measure then earns nothing in
    ///   expectation: the excess (1 − p) of the time, less excess ÷ p p of the time. The treasury, not the client,
    ///   takes it, so a client's own auditor gains nothing by reporting a short runtime.
    /// - Beyond it (only after an escalation, against the upper median of at least two independent runs): a lie,
    ///   like a wrong result. Paid what was measured; its whole bond is slashed into the pot. With the bond at
    ///   least (1/p − 1) × the payment, no overstatement pays: (1 − p) × excess < p × bond.
    function _settleOverstated(
        Settlement memory s,
        TaskData storage t,
        uint256 taskId,
        address provider,
        uint32 billed,
        uint32 measured,
        bool failed
    ) private returns (uint256 toPot) {
        uint256 collateral = _collateralOf(t);
        uint256 forfeit = collateral;
        if (_tolerated(billed, measured)) {
            uint256 payment = _payment(taskId, t, billed, failed);
            uint256 excess = payment - _payment(taskId, t, measured, failed);
            uint256 fine = (excess * BPS + t.auditBps - 1) / t.auditBps;
            if (fine < forfeit) forfeit = fine;
            _credit(s, t, taskId, 0, provider, payment);
            s.toTreasury += forfeit;
            if (collateral != forfeit) _stakingContract().unlock(provider, collateral - forfeit);
        } else {
            _claims[taskId][0].status = SlotStatus.Forfeited;
            _credit(s, t, taskId, 0, provider, _payment(taskId, t, measured, failed));
            emit ITaskMarket.ProviderSlashed(taskId, provider, 0, collateral, 0, true);
            _registry().recordFailure(provider, true, collateral);
            toPot = collateral;
        }
        emit ITaskMarket.RuntimeOverstated(taskId, provider, billed, measured, forfeit);
        if (forfeit != 0) _stakingContract().slash(provider, forfeit);
    }

    /// @dev The replicas of a dispute. Decided: those that revealed `truth` are paid (their lower median runtime),
    /// the others that revealed are slashed into the pot. Lapsed (no auditor came): a strict majority, if any, is
    /// paid and nobody is slashed. Unresolved: nobody is paid or slashed. Returns whether a result stands, the pot,
    /// what the client's escrow may add to pay the auditors (the payments of the replicas not paid), and the
    /// result that stands.
    function _settleDisputed(
        Settlement memory s,
        TaskData storage t,
        uint256 taskId,
        AuditVerdict verdict,
        bytes32 truth,
        uint256 pot
    ) private returns (bool stands, uint256, uint256 clientShare, bytes32) {
        uint8 replicas = t.replicas;
        bool decided = verdict == AuditVerdict.Upheld || verdict == AuditVerdict.Overturned;
        if (verdict == AuditVerdict.Lapsed) (truth,,,) = _tally(taskId, replicas);
        uint8 winners;
        for (uint8 i; i < replicas; ++i) {
            ClaimData storage c = _claims[taskId][i];
            if (c.status != SlotStatus.Submitted) continue;
            if (truth != bytes32(0) && _commitments[taskId][i] == truth) winners |= uint8(1 << i);
            else if (decided) pot += _slashToPot(t, taskId, i, true);
            else _stakingContract().unlock(c.provider, _collateralOf(t));
        }
        if (winners == 0) return (false, pot, 0, truth);

        uint32 runtime = _medianRuntime(_runtimes[taskId], winners, replicas, false);
        bool failed = failureOf(truth) != FailureKind.None;
        if (failed) t.flags |= FAILED;
        uint256 payment = _payment(taskId, t, runtime, failed);
        _payWinners(s, t, taskId, winners, replicas, payment, runtime, failed);
        clientShare = uint256(t.maxPayment) * replicas - payment * _count(winners);
        return (true, pot, clientShare, truth);
    }

    /// @dev Pays the winning auditors alike, for their lower median runtime, within what the pot and the client's
    /// share can pay; records what the pot paid in `s`. A held k = 1 result (clientShare = max when it stands): the
    /// client pays one auditor, before the pot. A dispute: the pot first, then up to clientShare from the escrow.
    /// Auditors who found a failure are paid for a failed run (`failed`); the rest for the work they checked.
    function _payAuditors(
        Settlement memory s,
        TaskData storage t,
        uint256 taskId,
        uint8 winners,
        uint8 end,
        uint256 pot,
        uint256 clientShare,
        bool failed
    ) private {
        uint32 runtime = _medianRuntime(_runtimes[taskId], winners, end, false);
        uint256 count = _count(winners);
        (uint256 each, uint256 fromClient) =
            _auditorPay(_payment(taskId, t, runtime, failed), count, pot, clientShare, t.replicas == 1);
        s.fromSlashes = each * count - fromClient;
        _payWinners(s, t, taskId, winners, end, each, runtime, failed);
    }

    /// @dev Pays `each` to every slot of `winners` below `end`, counting the completion (or failed run) of each.
    function _payWinners(
        Settlement memory s,
        TaskData storage t,
        uint256 taskId,
        uint8 winners,
        uint8 end,
        uint256 each,
        uint32 runtime,
        bool failed
    ) private {
        for (uint8 i; i < end; ++i) {
            if (winners & (1 << i) != 0) {
                _payReplica(s, t, taskId, i, _claims[taskId][i].provider, each, runtime, true, failed);
            }
        }
    }

    /// @dev The lowest free slot in `open` below `replicas`, or NO_SLOT.
    function _freeSlot(uint8 open, uint8 replicas) private pure returns (uint8) {
        for (uint8 i; i < replicas; ++i) {
            if (open & (1 << i) != 0) return i;
        }
        return NO_SLOT;
    }

    /// @dev The number of bits set in `mask`.
    function _count(uint8 mask) private pure returns (uint256 count) {
        for (; mask != 0; mask &= mask - 1) ++count;
    }

    /// @dev Each winning auditor's pay (`each` at most) and the part of it all the client pays.
    function _auditorPay(uint256 each, uint256 count, uint256 pot, uint256 clientShare, bool clientFirst)
        private
        pure
        returns (uint256, uint256 fromClient)
    {
        if (clientFirst && clientShare > each) clientShare = each;
        if (each * count > pot + clientShare) each = (pot + clientShare) / count;
        uint256 total = each * count;
        if (clientFirst) fromClient = total < clientShare ? total : clientShare;
        else if (total > pot) fromClient = total - pot;
        return (each, fromClient);
    }

    /// @dev The caller's slot in the audit's current round. At most 2 iterations.
    function _auditorOf(uint256 taskId, AuditData storage a, address auditor)
        internal
        view
        returns (uint8 slot, ClaimData storage c)
    {
        uint8 end = a.firstSlot + a.auditors;
        for (slot = a.firstSlot; slot < end; ++slot) {
            c = _claims[taskId][slot];
            if (c.provider == auditor) return (slot, c);
        }
        revert ITaskMarket.TaskMarketNotClaimant(taskId, auditor);
    }

    /// @dev Auditors holding a slot of the current round.
    function _filled(uint256 taskId, AuditData storage a) internal view returns (uint8 filled) {
        uint8 end = a.firstSlot + a.auditors;
        for (uint8 i = a.firstSlot; i < end; ++i) {
            if (_claims[taskId][i].provider != address(0)) ++filled;
        }
    }

    /// @dev An exponential race: −log2(u) / stake with u uniform in (0, 1]. The lowest ticket belongs to each
    /// racer with probability stake / total stake, and splitting a stake over several accounts does not change
    /// the chance that one of them wins (the minimum of exponential variables is exponential with the summed
    /// rate).
    function _ticket(bytes32 seed, address auditor, uint256 stake) internal pure returns (uint256) {
        if (stake == 0) return type(uint256).max;
        uint256 u = (uint256(keccak256(abi.encode(seed, auditor))) >> 192) + 1; // 1..2^64
        uint256 negLog2 = (64 << 32) - _log2(u); // −log2(u / 2^64) with 32 fractional bits
        return (negLog2 << 96) / stake;
    }

    /// @dev log2(x) for 1 ≤ x ≤ 2^64 with 32 fractional bits, one bit per squaring.
    function _log2(uint256 x) internal pure returns (uint256 result) {
        uint256 n = Math.log2(x);
        result = n << 32;
        uint256 y = (x << 64) >> n; // x / 2^n in [1, 2), 64 fractional bits
        for (uint256 bit = 1 << 31; bit != 0; bit >>= 1) {
            y = (y * y) >> 64;
            if (y >= 2 << 64) {
                y >>= 1;
                result |= bit;
            }
        }
    }
}
