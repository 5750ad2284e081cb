// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {TaskMarketBase} from "./TaskMarketBase.sol";
import {IProviderRegistry} from "./interfaces/IProviderRegistry.sol";
import {ISourceRegistry, Requirements} from "./interfaces/ISourceRegistry.sol";
import {FailureKind, failureOf} from "./libraries/Results.sol";
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
    uint16 private constant MAX_PROTOCOL_FEE_BPS = 2_000;
    uint16 private constant MAX_STAKER_SHARE_BPS = 5_000;
    uint16 private constant MIN_COLLATERAL_BPS = 1_000;
    uint16 private constant MAX_COLLATERAL_BPS = 20_000;
    uint32 private constant MIN_WINDOW = 1 minutes;
    uint32 private constant MAX_WINDOW = 1 days;
    uint96 private constant MAX_MIN_COLLATERAL = 1e24;
    uint16 private constant MIN_AUDIT_BPS = 100;

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
        uint32 runtime = uint32(_runtimes[taskId]);
        // The completion was recorded when the result came in.
        bool failed = t.flags & FAILED != 0;
        _payReplica(s, t, taskId, 0, c.provider, _payment(t, runtime, failed), runtime, false, failed);
        _settle(s, t, taskId, TaskStatus.Completed, bytes32(0));
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
        _registry().recordClaim(
            msg.sender,
            t.sourceId,
            Requirements(t.minGpus, t.minVramMiB, t.minComputeCapability, t.maxRuntimeSec, false),
            // The task's reputation gates choose who may do the client's work, not who checks it: a gate no
            // auditor passes would let every drawn result lapse unaudited.
            0,
            0
        );
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
        uint256 collateral = t.collateral;
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

    /// @notice setParams (and the market's constructor): checks every parameter against its bound and keeps the set
    /// as a new version. Here rather than in the market only for the room it takes.
    function setParams(MarketParams memory p) external onlyDelegated {
        if (p.protocolFeeBps > MAX_PROTOCOL_FEE_BPS) revert ITaskMarket.TaskMarketParamOutOfBounds("protocolFeeBps");
        if (p.stakerShareBps > MAX_STAKER_SHARE_BPS) revert ITaskMarket.TaskMarketParamOutOfBounds("stakerShareBps");
        if (p.collateralBps < MIN_COLLATERAL_BPS || p.collateralBps > MAX_COLLATERAL_BPS) {
            revert ITaskMarket.TaskMarketParamOutOfBounds("collateralBps");
        }
        if (p.slashToClientBps > BPS) revert ITaskMarket.TaskMarketParamOutOfBounds("slashToClientBps");
        if (p.revealWindow < MIN_WINDOW || p.revealWindow > MAX_WINDOW) revert ITaskMarket.TaskMarketParamOutOfBounds("revealWindow");
        if (p.claimGrace < MIN_WINDOW || p.claimGrace > MAX_WINDOW) revert ITaskMarket.TaskMarketParamOutOfBounds("claimGrace");
        if (p.minCollateral > MAX_MIN_COLLATERAL) revert ITaskMarket.TaskMarketParamOutOfBounds("minCollateral");
        if (p.auditBps < MIN_AUDIT_BPS || p.auditBps > BPS) revert ITaskMarket.TaskMarketParamOutOfBounds("auditBps");
        if (p.auditJoinWindow < MIN_WINDOW || p.auditJoinWindow > MAX_WINDOW) {
            revert ITaskMarket.TaskMarketParamOutOfBounds("auditJoinWindow");
        }
        uint16 version = _paramsVersion + 1; // reverts after 65,535 changes
        _params = p;
        _paramsAt[version] = p;
        _paramsVersion = version;
        emit ITaskMarket.ParamsUpdated(p);
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
        t.revealDeadline = 0;
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
        if (committed == _filled(taskId, a)) _openReveal(t, taskId);
    }

    function _openReveal(TaskData storage t, uint256 taskId) internal {
        uint40 revealDeadline = uint40(block.timestamp) + _paramsAt[t.paramsVersion].revealWindow;
        t.revealDeadline = revealDeadline;
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
        uint40 revealDeadline = t.revealDeadline;
        if (revealDeadline == 0) revert ITaskMarket.TaskMarketWrongStatus(taskId, TaskStatus.Auditing);
        if (block.timestamp > revealDeadline) revert ITaskMarket.TaskMarketRevealClosed(taskId, revealDeadline);
        AuditData storage a = _audits[taskId];
        (uint8 slot, ClaimData storage c) = _auditorOf(taskId, a, msg.sender);
        if (c.status != SlotStatus.Committed) revert ITaskMarket.TaskMarketAlreadyRevealed(taskId, msg.sender);
        if (keccak256(abi.encode(taskId, msg.sender, resultDigest, salt)) != _commitments[taskId][slot]) {
            revert ITaskMarket.TaskMarketCommitmentMismatch(taskId, msg.sender);
        }
        _requireCID(resultCID);
        _requireCID(receiptCID);

        uint32 runtime = _capRuntime(runtimeSec, c.dueAt - c.claimedAt, t.maxRuntimeSec);
        _isFailure(taskId, t, resultDigest, c.dueAt - c.claimedAt);
        _commitments[taskId][slot] = resultDigest;
        c.status = SlotStatus.Submitted;
        _runtimes[taskId] |= uint256(runtime) << (32 * slot);
        uint8 revealed = a.revealed + 1;
        a.revealed = revealed;
        emit ITaskMarket.ResultRevealed(taskId, msg.sender, slot, resultDigest, resultCID, receiptCID, runtime);
        if (revealed == a.committed) _closeRound(t, taskId, a);
    }

    /// @dev finalizeTask on an audit: moves a round whose joining, commitments or reveals are over to its
    /// next step. Auditors that missed their commitment or reveal forfeit their collateral.
    function _advanceAudit(TaskData storage t, uint256 taskId, AuditData storage a) internal {
        if (block.timestamp <= a.joinDeadline) revert ITaskMarket.TaskMarketAuditStillRunning(taskId);
        uint40 revealDeadline = t.revealDeadline;
        if (revealDeadline == 0) {
            if (block.timestamp <= a.commitDeadline && _filled(taskId, a) != 0) {
                revert ITaskMarket.TaskMarketAuditStillRunning(taskId);
            }
            _forfeit(t, taskId, a, SlotStatus.Claimed);
            if (a.committed != 0) return _openReveal(t, taskId);
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
            if (c.provider != address(0) && c.status == status) slashed += _slashAuditor(t, taskId, i, false);
        }
        if (slashed != 0) a.slashed += slashed;
    }

    function _slashAuditor(TaskData storage t, uint256 taskId, uint8 slot, bool outvoted)
        internal
        returns (uint256 amount)
    {
        ClaimData storage c = _claims[taskId][slot];
        address auditor = c.provider;
        uint256 collateral = t.collateral;
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
    /// The first auditor reproducing the result upholds it. After a disagreement, only independent
    /// re-executions count: a result found by at least two auditors and by more than any other decides.
    function _closeRound(TaskData storage t, uint256 taskId, AuditData storage a) internal {
        uint8 end = a.firstSlot + a.auditors;
        uint40 claimed = _claims[taskId][0].claimedAt; // the held result's tag
        (bytes32 found, uint256 votes, uint256 runnerUp) = _auditTally(taskId, end);
        if (a.round == 1) {
            if (_filled(taskId, a) == 0) return _settleAudit(t, taskId, a, AuditVerdict.Lapsed, bytes32(0));
            if (votes == 1 && _tagOf(found) == claimed) return _settleAudit(t, taskId, a, AuditVerdict.Upheld, found);
        } else if (votes >= 2 && votes > runnerUp) {
            AuditVerdict verdict = _tagOf(found) == claimed ? AuditVerdict.Upheld : AuditVerdict.Overturned;
            return _settleAudit(t, taskId, a, verdict, found);
        }
        if (end < AUDIT_SLOTS) return _openRound(t, taskId, a, a.round + 1, end, end + 2 <= AUDIT_SLOTS ? 2 : 1);
        _settleAudit(t, taskId, a, AuditVerdict.Unresolved, bytes32(0));
    }

    /// @dev The digest revealed by most auditors (slots 1..end-1), its count and the next best count.
    /// At most 6 × 6 comparisons.
    function _auditTally(uint256 taskId, uint8 end)
        internal
        view
        returns (bytes32 found, uint256 votes, uint256 runnerUp)
    {
        bytes32[7] memory digest;
        uint8 revealed;
        for (uint8 i = 1; i < end; ++i) {
            if (_claims[taskId][i].status == SlotStatus.Submitted) {
                revealed |= uint8(1 << i);
                digest[i] = _commitments[taskId][i];
            }
        }
        for (uint8 i = 1; i < end; ++i) {
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

    /// @dev Pays and slashes by the verdict. The client pays for the result if it stands and for one auditor;
    /// the collateral of whoever was wrong pays every other auditor, and what is left of it goes to the client
    /// (slashToClientBps) and the treasury.
    function _settleAudit(
        TaskData storage t,
        uint256 taskId,
        AuditData storage a,
        AuditVerdict verdict,
        bytes32 truth
    ) internal {
        bool stands = verdict == AuditVerdict.Upheld || verdict == AuditVerdict.Lapsed;
        TaskStatus status = stands ? TaskStatus.Completed : TaskStatus.Failed;
        a.verdict = verdict;
        t.status = status;
        emit ITaskMarket.AuditResolved(taskId, verdict, truth);

        uint8 end = a.firstSlot + a.auditors;
        uint256 collateral = t.collateral;
        uint256 slashed = a.slashed;
        ClaimData[7] storage claims = _claims[taskId];
        // Auditors who revealed `truth` win; the others who revealed lose, or get their collateral back when
        // nothing was decided. At most 6.
        uint8 winners;
        uint256 count;
        for (uint8 i = 1; i < end; ++i) {
            if (claims[i].status != SlotStatus.Submitted) continue;
            if (verdict == AuditVerdict.Unresolved) {
                _stakingContract().unlock(claims[i].provider, collateral);
            } else if (_commitments[taskId][i] == truth) {
                winners |= uint8(1 << i);
                ++count;
            } else {
                slashed += _slashAuditor(t, taskId, i, true);
            }
        }

        address provider = claims[0].provider;
        Settlement memory s;
        if (stands) {
            uint32 runtime = uint32(_runtimes[taskId]);
            bool failed = t.flags & FAILED != 0;
            // The completion was recorded when the result came in.
            _payReplica(s, t, taskId, 0, provider, _payment(t, runtime, failed), runtime, false, failed);
        } else if (verdict == AuditVerdict.Overturned) {
            claims[0].status = SlotStatus.Forfeited;
            emit ITaskMarket.ProviderSlashed(taskId, provider, 0, collateral, 0, true);
            _registry().recordOverturned(provider, collateral, t.flags & FAILED != 0);
            _stakingContract().slash(provider, collateral);
            slashed += collateral;
        } else {
            _stakingContract().unlock(provider, collateral);
        }

        if (count != 0) _payAuditors(s, t, taskId, truth, winners, count, end, slashed, stands);
        uint256 left = slashed - s.fromSlashes;
        uint256 toClient = left * _paramsAt[t.paramsVersion].slashToClientBps / BPS;
        s.toClient += toClient;
        s.toTreasury += left - toClient;
        _settle(s, t, taskId, status, truth);
    }

    /// @dev Pays the winning auditors alike, for their lower median runtime, within what the client's share (one
    /// auditor, when the result stands) and the slashes can pay; records what the slashes paid in `s`.
    function _payAuditors(
        Settlement memory s,
        TaskData storage t,
        uint256 taskId,
        bytes32 truth,
        uint8 winners,
        uint256 count,
        uint8 end,
        uint256 slashed,
        bool stands
    ) private {
        uint32 runtime = _medianRuntime(_runtimes[taskId], winners, end);
        // Auditors who found the same failure are paid for a failed run; the rest for the work they checked.
        bool failed = failureOf(truth) != FailureKind.None;
        uint256 each = _payment(t, runtime, failed);
        uint256 fromClient = stands ? each : 0;
        if (each * count > slashed + fromClient) each = (slashed + fromClient) / count;
        if (each * count < fromClient) fromClient = each * count;
        for (uint8 i = 1; i < end; ++i) {
            if (winners & (1 << i) != 0) {
                _payReplica(s, t, taskId, i, _claims[taskId][i].provider, each, runtime, true, failed);
            }
        }
        s.fromSlashes = each * count - fromClient;
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
