// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Ownable, Ownable2Step} from "@openzeppelin/contracts/access/Ownable2Step.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Permit.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Multicall} from "@openzeppelin/contracts/utils/Multicall.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";
import {ProviderRegistry} from "./ProviderRegistry.sol";
import {Staking} from "./Staking.sol";
import {TaskAudits} from "./TaskAudits.sol";
import {TaskMarketBase} from "./TaskMarketBase.sol";
import {IProviderRegistry} from "./interfaces/IProviderRegistry.sol";
import {ISourceRegistry, Requirements, SourceTerms} from "./interfaces/ISourceRegistry.sol";
import {VALIDATION_PASSED, sealOf} from "./libraries/Results.sol";
import {IStaking} from "./interfaces/IStaking.sol";
import {
    Audit,
    AuditVerdict,
    ITaskMarket,
    MarketParams,
    Permit,
    Slot,
    SlotStatus,
    Task,
    TaskParams,
    TaskStatus
} from "./interfaces/ITaskMarket.sol";

/// @title Task market
/// @notice Client balances (the "cloud wallet"), escrow, the task lifecycle, consensus, settlement and refunds.
/// @dev Every non-final state has a permissionless exit after a deadline (reopenSlot, finalizeTask,
/// expireTask); balances are pull-based. Loops run over a task's slots only (k ≤ 7).
/// The constructor deploys Staking and ProviderRegistry with this contract as their immutable market: the wiring
/// can never change, and their market checks cost no storage reads.
/// The asset must be a plain ERC-20: fee-on-transfer and rebasing tokens break the escrow accounting.
contract TaskMarket is TaskMarketBase, ITaskMarket, Ownable2Step, ReentrancyGuardTransient, Multicall {
    using SafeERC20 for IERC20;

    /// @inheritdoc ITaskMarket
    uint8 public constant MAX_REPLICAS = 7;
    /// @inheritdoc ITaskMarket
    uint40 public constant MAX_TASK_DURATION = 30 days;
    uint16 private constant MAX_PROTOCOL_FEE_BPS = 2_000;
    uint16 private constant MAX_STAKER_SHARE_BPS = 5_000;
    uint16 private constant MIN_COLLATERAL_BPS = 1_000;
    uint16 private constant MAX_COLLATERAL_BPS = 20_000;
    uint32 private constant MIN_WINDOW = 1 minutes;
    uint32 private constant MAX_WINDOW = 1 days;
    uint96 private constant MAX_MIN_COLLATERAL = 1e24;
    uint16 private constant MIN_AUDIT_BPS = 100;

    IERC20 private immutable _asset;
    ISourceRegistry private immutable _sources;
    IProviderRegistry private immutable _providers;
    IStaking private immutable _staking;

    /// @dev Runs audits in this contract's storage (delegatecall).
    TaskAudits private immutable _auditsModule;

    /// @param asset_ The ERC-20 of payments and stake.
    /// @param sources_ The source registry.
    /// @param treasury_ Receives the treasury's part of fees and slashes.
    /// @param initialOwner Owner of this contract, Staking and ProviderRegistry.
    /// @param initialParams Market parameters, each checked against its bound.
    /// @param unbondingPeriod Staking's unbonding period.
    /// @param minProviderStake Stake a provider needs to register.
    /// @param auditsModule_ The TaskAudits code that runs audits in this contract's storage.
    constructor(
        IERC20 asset_,
        ISourceRegistry sources_,
        address treasury_,
        address initialOwner,
        MarketParams memory initialParams,
        uint40 unbondingPeriod,
        uint256 minProviderStake,
        TaskAudits auditsModule_
    ) Ownable(initialOwner) {
        if (address(asset_) == address(0) || address(sources_) == address(0) || address(auditsModule_).code.length == 0)
        {
            revert TaskMarketZeroAddress();
        }
        _auditsModule = auditsModule_;
        _asset = asset_;
        _sources = sources_;
        Staking staking_ = new Staking(asset_, address(this), initialOwner, unbondingPeriod);
        _staking = staking_;
        _providers = new ProviderRegistry(sources_, staking_, address(this), initialOwner, minProviderStake);
        _setTreasury(treasury_);
        _setParams(initialParams);
    }

    // ─── Balances ───

    /// @inheritdoc ITaskMarket
    function deposit(uint256 amount) external nonReentrant {
        _deposit(amount);
    }

    /// @inheritdoc ITaskMarket
    function depositWithPermit(uint256 amount, uint256 deadline, uint8 v, bytes32 r, bytes32 s) external nonReentrant {
        _permit(amount, deadline, v, r, s);
        _deposit(amount);
    }

    /// @inheritdoc ITaskMarket
    function withdraw(uint256 amount) external nonReentrant {
        _withdraw(msg.sender, amount);
    }

    /// @inheritdoc ITaskMarket
    function withdrawTo(address to, uint256 amount) external nonReentrant {
        _withdraw(to, amount);
    }

    // ─── Client ───

    /// @inheritdoc ITaskMarket
    function submitTask(TaskParams calldata taskParams) external nonReentrant returns (uint256 taskId) {
        uint256 escrow;
        (taskId, escrow) = _submit(taskParams, _params);
        _collect(escrow);
    }

    /// @inheritdoc ITaskMarket
    function submitTaskWithPermit(TaskParams calldata taskParams, Permit calldata permit)
        external
        nonReentrant
        returns (uint256 taskId)
    {
        uint256 escrow;
        (taskId, escrow) = _submit(taskParams, _params);
        _permit(permit.value, permit.deadline, permit.v, permit.r, permit.s);
        _collect(escrow);
    }

    /// @inheritdoc ITaskMarket
    function submitTasks(TaskParams[] calldata tasks) external nonReentrant returns (uint256 firstTaskId) {
        if (tasks.length == 0) revert TaskMarketZeroAmount();
        MarketParams memory marketParams = _params;
        uint256 escrow;
        for (uint256 i; i < tasks.length; ++i) {
            (uint256 taskId, uint256 taskEscrow) = _submit(tasks[i], marketParams);
            if (i == 0) firstTaskId = taskId;
            escrow += taskEscrow;
        }
        _collect(escrow);
    }

    /// @inheritdoc ITaskMarket
    function cancelTask(uint256 taskId) external nonReentrant {
        TaskData storage t = _task(taskId);
        if (t.client != msg.sender) revert TaskMarketNotClient(taskId, msg.sender);
        if (t.status != TaskStatus.Open) revert TaskMarketWrongStatus(taskId, t.status);
        if (t.openSlots != _fullMask(t.replicas)) revert TaskMarketHasClaims(taskId);
        t.status = TaskStatus.Cancelled;
        Settlement memory s;
        _settle(s, t, taskId, TaskStatus.Cancelled, bytes32(0));
    }

    // ─── Provider ───

    /// @inheritdoc ITaskMarket
    function claimTask(uint256 taskId) external nonReentrant returns (uint8 slot) {
        TaskData storage t = _task(taskId);
        if (t.replicas != 1) return abi.decode(_delegate(abi.encodeCall(TaskAudits.claim, (taskId))), (uint8));
        if (t.status != TaskStatus.Open) revert TaskMarketWrongStatus(taskId, t.status);
        uint40 deadline = t.deadline;
        if (block.timestamp > deadline) revert TaskMarketTaskDeadlinePassed(taskId, deadline);
        // No claim that could not be honoured before the deadline: the provider would be slashed for the client's
        // choice of deadline (a honeypot). Its result is due after the whole runtime limit and the grace.
        uint256 due = block.timestamp + t.maxRuntimeSec + _paramsAt[t.paramsVersion].claimGrace;
        if (due > deadline) revert TaskMarketClaimWindowTooShort(taskId, deadline, due);
        _recordClaim(taskId, t, true);
        uint256 collateral = _collateralOf(t);
        _staking.lock(msg.sender, collateral);

        // due ≤ deadline (checked above), which fits 40 bits. One slot (0): status Open means it is free.
        uint40 dueAt = uint40(due);
        _claims[taskId][0] = ClaimData(msg.sender, uint40(block.timestamp), dueAt, SlotStatus.Claimed);
        t.openSlots = 0;
        t.status = TaskStatus.Claimed;
        emit TaskClaimed(taskId, msg.sender, 0, dueAt, collateral);
    }

    /// @inheritdoc ITaskMarket
    function submitResult(
        uint256 taskId,
        bytes32 resultDigest,
        string calldata resultCID,
        string calldata receiptCID,
        uint32 runtimeSec
    ) external nonReentrant {
        TaskData storage t = _task(taskId);
        if (t.replicas != 1) revert TaskMarketWrongMode(taskId, t.replicas);
        if (t.status != TaskStatus.Claimed) revert TaskMarketWrongStatus(taskId, t.status);
        ClaimData storage c = _claims[taskId][0];
        if (c.provider != msg.sender) revert TaskMarketNotClaimant(taskId, msg.sender);
        if (block.timestamp > c.dueAt) revert TaskMarketClaimOverdue(taskId, 0, c.dueAt);
        if (resultDigest == bytes32(0)) revert TaskMarketZeroDigest();
        _requireCID(resultCID);
        _requireCID(receiptCID);

        uint256 elapsed = block.timestamp - c.claimedAt;
        bool failed = _isFailure(taskId, t, resultDigest, elapsed);
        uint8 flags = t.flags;
        // A metered run is billed at most the task's runtime limit; a fixed price does not depend on it.
        uint32 runtime = _capRuntime(runtimeSec, elapsed, flags & METERED != 0 ? t.maxRuntimeSec : type(uint32).max);
        c.status = SlotStatus.Submitted;
        emit ResultSubmitted(taskId, msg.sender, 0, resultDigest, resultCID, receiptCID, runtime);
        if (failed) t.flags = flags |= FAILED;

        Settlement memory s;
        if (flags & AUDITED == 0) {
            t.status = TaskStatus.Completed;
            _payReplica(s, t, taskId, 0, msg.sender, _payment(taskId, t, runtime, failed), runtime, true, failed);
            _settle(s, t, taskId, TaskStatus.Completed, resultDigest);
            return;
        }
        // Auditable: the client has its result (the event); the payment and the collateral wait for the draw,
        // which reads the hash of the next block, unknown now. The seal binds the provider to this result;
        // where a validator checks the source's outputs, what auditors must find is the validator's pass.
        t.status = TaskStatus.Held;
        _hold(t, c, flags & VALIDATED != 0 && !failed ? sealOf(taskId, VALIDATION_PASSED) : resultDigest);
        c.dueAt = uint40(block.number);
        if (flags & METERED != 0) _runtimes[taskId] = runtime;
        _providers.recordCompletion(msg.sender, runtime, _payment(taskId, t, runtime, failed), failed);
    }

    /// @inheritdoc ITaskMarket
    function releaseResult(uint256 taskId) external nonReentrant {
        _delegate(abi.encodeCall(TaskAudits.release, (taskId)));
    }

    /// @inheritdoc ITaskMarket
    function joinAudit(uint256 taskId) external nonReentrant returns (uint8 slot) {
        return abi.decode(_delegate(abi.encodeCall(TaskAudits.join, (taskId))), (uint8));
    }

    /// @inheritdoc ITaskMarket
    function commitResult(uint256 taskId, bytes32 commitment) external nonReentrant {
        TaskData storage t = _task(taskId);
        if (t.status == TaskStatus.Auditing) {
            _delegate(abi.encodeCall(TaskAudits.commit, (taskId, commitment)));
            return;
        }
        if (t.replicas == 1) revert TaskMarketWrongMode(taskId, 1);
        if (t.status != TaskStatus.Open && t.status != TaskStatus.Claimed) {
            revert TaskMarketWrongStatus(taskId, t.status);
        }
        if (commitment == bytes32(0)) revert TaskMarketZeroCommitment();
        (uint8 slot, ClaimData storage c) = _claimOf(taskId, t, msg.sender);
        if (c.status != SlotStatus.Claimed) revert TaskMarketAlreadyCommitted(taskId, msg.sender);
        if (block.timestamp > c.dueAt) revert TaskMarketClaimOverdue(taskId, slot, c.dueAt);
        // A seat won in the race starts when the race ends: until then a better ticket can take it.
        if (block.timestamp < c.claimedAt) revert TaskMarketSeatNotFinal(taskId, c.claimedAt);

        _commitments[taskId][slot] = commitment;
        c.status = SlotStatus.Committed;
        c.dueAt = uint40(block.timestamp);
        uint8 committed = t.committed + 1;
        t.committed = committed;
        emit ResultCommitted(taskId, msg.sender, slot, commitment);
        if (committed == t.replicas) {
            uint40 revealDeadline = uint40(block.timestamp) + _paramsAt[t.paramsVersion].revealWindow;
            t.status = TaskStatus.Revealing;
            // No runtime is revealed before the reveals open: the word holds only the race's end until now.
            _runtimes[taskId] = uint256(revealDeadline) << 224;
            emit RevealOpened(taskId, revealDeadline);
        }
    }

    /// @inheritdoc ITaskMarket
    function revealResult(
        uint256 taskId,
        bytes32 resultDigest,
        bytes32 salt,
        string calldata resultCID,
        string calldata receiptCID,
        uint32 runtimeSec
    ) external nonReentrant {
        TaskData storage t = _task(taskId);
        if (t.status == TaskStatus.Auditing) {
            _delegate(
                abi.encodeCall(TaskAudits.reveal, (taskId, resultDigest, salt, resultCID, receiptCID, runtimeSec))
            );
            return;
        }
        if (t.status != TaskStatus.Revealing) revert TaskMarketWrongStatus(taskId, t.status);
        uint256 runtimes = _runtimes[taskId];
        uint40 revealDeadline = _replicaDeadline(runtimes);
        if (block.timestamp > revealDeadline) revert TaskMarketRevealClosed(taskId, revealDeadline);
        (uint8 slot, ClaimData storage c) = _claimOf(taskId, t, msg.sender);
        if (c.status == SlotStatus.Submitted) revert TaskMarketAlreadyRevealed(taskId, msg.sender);
        // The commitment binds the sender: a commitment copied from another provider never matches.
        if (keccak256(abi.encode(taskId, msg.sender, resultDigest, salt)) != _commitments[taskId][slot]) {
            revert TaskMarketCommitmentMismatch(taskId, msg.sender);
        }
        _requireCID(resultCID);
        _requireCID(receiptCID);

        uint32 runtime = _capRuntime(runtimeSec, c.dueAt - c.claimedAt, t.maxRuntimeSec);
        _isFailure(taskId, t, resultDigest, c.dueAt - c.claimedAt);
        _commitments[taskId][slot] = resultDigest;
        c.status = SlotStatus.Submitted;
        _runtimes[taskId] = runtimes | uint256(runtime) << (32 * slot);
        uint8 revealed = t.revealed + 1;
        t.revealed = revealed;
        emit ResultRevealed(taskId, msg.sender, slot, resultDigest, resultCID, receiptCID, runtime);
        if (revealed == t.replicas) _delegate(abi.encodeCall(TaskAudits.settleReplicas, (taskId)));
    }

    // ─── Permissionless exits ───

    /// @inheritdoc ITaskMarket
    function reopenSlot(uint256 taskId, uint8 slot) external nonReentrant {
        TaskData storage t = _task(taskId);
        if (t.status != TaskStatus.Open && t.status != TaskStatus.Claimed) {
            revert TaskMarketWrongStatus(taskId, t.status);
        }
        if (slot >= t.replicas) revert TaskMarketSlotNotClaimed(taskId, slot);
        ClaimData storage c = _claims[taskId][slot];
        if (c.status != SlotStatus.Claimed) revert TaskMarketSlotNotClaimed(taskId, slot);
        if (block.timestamp <= c.dueAt) revert TaskMarketClaimNotOverdue(taskId, slot, c.dueAt);

        address provider = c.provider;
        delete _claims[taskId][slot];
        t.openSlots |= uint8(1 << slot);
        t.status = TaskStatus.Open;
        emit SlotReopened(taskId, provider, slot);

        Settlement memory s;
        _slash(s, t, taskId, slot, provider, false);
        _balances[t.client] += s.toClient;
        _treasuryAccrued += uint128(s.toTreasury);
    }

    /// @inheritdoc ITaskMarket
    function finalizeTask(uint256 taskId) external nonReentrant {
        TaskData storage t = _task(taskId);
        if (t.status == TaskStatus.Auditing) {
            _delegate(abi.encodeCall(TaskAudits.advance, (taskId)));
            return;
        }
        if (t.status != TaskStatus.Revealing) revert TaskMarketWrongStatus(taskId, t.status);
        uint40 revealDeadline = _replicaDeadline(_runtimes[taskId]);
        if (block.timestamp <= revealDeadline) revert TaskMarketRevealStillOpen(taskId, revealDeadline);
        _delegate(abi.encodeCall(TaskAudits.settleReplicas, (taskId)));
    }

    /// @inheritdoc ITaskMarket
    function expireTask(uint256 taskId) external nonReentrant {
        TaskData storage t = _task(taskId);
        if (t.status != TaskStatus.Open && t.status != TaskStatus.Claimed) {
            revert TaskMarketWrongStatus(taskId, t.status);
        }
        if (block.timestamp <= t.deadline) revert TaskMarketDeadlineNotPassed(taskId, t.deadline);
        t.status = TaskStatus.Expired;

        Settlement memory s;
        uint256 collateral = _collateralOf(t);
        uint8 replicas = t.replicas;
        uint8 open = t.openSlots;
        for (uint8 i; i < replicas; ++i) {
            if (open & (1 << i) != 0) continue;
            ClaimData storage c = _claims[taskId][i];
            // Claimed slots are overdue (dueAt ≤ deadline < now): no-shows. Committed ones did their part.
            if (c.status == SlotStatus.Claimed) _slash(s, t, taskId, i, c.provider, false);
            else _staking.unlock(c.provider, collateral);
        }
        _settle(s, t, taskId, TaskStatus.Expired, bytes32(0));
    }

    /// @inheritdoc ITaskMarket
    function withdrawTreasury() external nonReentrant returns (uint256 amount) {
        amount = _treasuryAccrued;
        if (amount == 0) revert TaskMarketNothingToWithdraw();
        _treasuryAccrued = 0;
        address to = _treasury;
        emit TreasuryWithdrawn(to, amount);
        _asset.safeTransfer(to, amount);
    }

    /// @inheritdoc ITaskMarket
    function claimCreatorFees(uint32 sourceId) external nonReentrant returns (uint256 amount) {
        if (_sources.ownerOf(sourceId) != msg.sender) revert TaskMarketNotSourceOwner(sourceId, msg.sender);
        amount = _creatorFees[sourceId];
        if (amount == 0) revert TaskMarketNothingToWithdraw();
        _creatorFees[sourceId] = 0;
        _balances[msg.sender] += amount;
        emit CreatorFeesClaimed(sourceId, msg.sender, amount);
    }

    /// @inheritdoc ITaskMarket
    function releaseStakerFees() external nonReentrant returns (uint256 amount) {
        if (msg.sender != address(_staking)) revert TaskMarketNotStaking(msg.sender);
        amount = _pendingStakerFees;
        if (amount == 0) return 0;
        _pendingStakerFees = 0;
        emit StakerFeesReleased(amount);
        _asset.safeTransfer(msg.sender, amount);
    }

    /// @inheritdoc ITaskMarket
    function setDiscountsOn(bool on) external {
        if (msg.sender != address(_staking)) revert TaskMarketNotStaking(msg.sender);
        _discountsOn = on;
    }

    // ─── Owner ───

    /// @inheritdoc ITaskMarket
    function setParams(MarketParams calldata params_) external onlyOwner {
        _setParams(params_);
    }

    /// @inheritdoc ITaskMarket
    function setTreasury(address treasury_) external onlyOwner {
        _setTreasury(treasury_);
    }

    // ─── Views ───

    /// @inheritdoc ITaskMarket
    function treasury() external view returns (address) {
        return _treasury;
    }

    /// @inheritdoc ITaskMarket
    function taskCount() external view returns (uint256) {
        return _taskCount;
    }

    /// @inheritdoc ITaskMarket
    function balanceOf(address account) external view returns (uint256) {
        return _balances[account];
    }

    /// @inheritdoc ITaskMarket
    function creatorFeesOf(uint32 sourceId) external view returns (uint256) {
        return _creatorFees[sourceId];
    }

    /// @inheritdoc ITaskMarket
    function auditsModule() external view returns (address) {
        return address(_auditsModule);
    }

    /// @inheritdoc ITaskMarket
    function asset() external view returns (address) {
        return address(_asset);
    }

    /// @inheritdoc ITaskMarket
    function sources() external view returns (address) {
        return address(_sources);
    }

    /// @inheritdoc ITaskMarket
    function providers() external view returns (address) {
        return address(_providers);
    }

    /// @inheritdoc ITaskMarket
    function staking() external view returns (address) {
        return address(_staking);
    }

    /// @inheritdoc ITaskMarket
    function params() external view returns (MarketParams memory) {
        return _params;
    }

    /// @inheritdoc ITaskMarket
    function termsOf(uint256 taskId) external view returns (MarketParams memory) {
        return _paramsAt[_task(taskId).paramsVersion];
    }

    /// @inheritdoc ITaskMarket
    function treasuryAccrued() external view returns (uint256) {
        return _treasuryAccrued;
    }

    /// @inheritdoc ITaskMarket
    function pendingStakerFees() external view returns (uint256) {
        return _pendingStakerFees;
    }

    /// @inheritdoc ITaskMarket
    function getTask(uint256 taskId) external view returns (Task memory task) {
        TaskData storage t = _task(taskId);
        task.client = t.client;
        task.sourceId = t.sourceId;
        task.replicas = t.replicas;
        task.status = t.status;
        // A single-replica task keeps its held result's tag in these fields once the result is in (see _hold).
        if (t.replicas == 1) {
            task.openSlots = t.status == TaskStatus.Open ? 1 : 0;
        } else {
            task.openSlots = t.openSlots;
            task.committed = t.committed;
            task.revealed = t.revealed;
        }
        task.feeBps = _paramsAt[t.paramsVersion].protocolFeeBps;
        task.maxPayment = t.maxPayment;
        TaskExtra storage extra = _extras[taskId];
        task.pricePerSecond = extra.pricePerSecond;
        task.deadline = t.deadline;
        task.creatorFeeBps = t.creatorFeeBps;
        task.discountBps = t.discountBps;
        task.collateral = uint88(_collateralOf(t));
        // `deterministic` is the source's property; it is not copied into the task's storage.
        bool deterministic = _sources.getSourceTerms(t.sourceId).requirements.deterministic;
        task.requirements =
            Requirements(t.minGpus, t.minVramMiB, t.minComputeCapability, t.maxRuntimeSec, deterministic);
        task.minSuccessBps = extra.minSuccessBps;
        task.minCompleted = extra.minCompleted;
        // An audit (k = 1) or a dispute (k > 1) shows its round's reveal deadline. A k > 1 task keeps its seat race
        // in auditBps and its runtimes word until its reveals open (see _race).
        AuditData storage audit = _audits[taskId];
        if (audit.round != 0) task.revealDeadline = audit.revealDeadline;
        else if (t.replicas > 1 && t.status != TaskStatus.Open && t.status != TaskStatus.Claimed) {
            task.revealDeadline = _replicaDeadline(_runtimes[taskId]);
        }
        if (t.replicas == 1) task.auditBps = t.auditBps;
        task.failed = t.flags & FAILED != 0;
    }

    /// @inheritdoc ITaskMarket
    function getSlots(uint256 taskId) external view returns (Slot[] memory slots) {
        TaskData storage t = _task(taskId);
        AuditData storage a = _audits[taskId];
        // A k = 1 task under audit shows its auditors' slots after the provider's.
        slots = new Slot[](a.round == 0 ? t.replicas : a.firstSlot + a.auditors);
        uint256 runtimes = _runtimes[taskId];
        for (uint256 i; i < slots.length; ++i) {
            ClaimData storage c = _claims[taskId][i];
            slots[i] = Slot(
                c.provider, c.claimedAt, c.dueAt, c.status, _commitments[taskId][i], uint32(runtimes >> (32 * i))
            );
        }
        // A held result keeps its tag where the claim time was (see _hold).
        if (t.flags & AUDITED != 0 && slots[0].status >= SlotStatus.Submitted) {
            slots[0].commitment = bytes32(bytes8(_heldTag(t, _claims[taskId][0])));
            slots[0].claimedAt = 0;
        }
    }

    /// @inheritdoc ITaskMarket
    function getAudit(uint256 taskId) external view returns (Audit memory audit) {
        TaskData storage t = _task(taskId);
        AuditData storage a = _audits[taskId];
        audit = Audit(
            a.verdict, a.round, a.firstSlot, a.auditors, a.joinDeadline, a.commitDeadline, a.seedBlock, a.slashed
        );
        // Not drawn leaves no audit record: a completed auditable task without one passed the draw.
        if (a.round == 0 && t.flags & AUDITED != 0 && t.status == TaskStatus.Completed) {
            audit.verdict = AuditVerdict.NotDrawn;
        }
        // A k > 1 task's seat race, while its seats can be claimed (see _race).
        if (a.round == 0 && t.replicas > 1 && (t.status == TaskStatus.Open || t.status == TaskStatus.Claimed)) {
            (uint40 end, uint256 seedBlock) = _race(taskId, t);
            audit.joinDeadline = end;
            audit.seedBlock = uint40(seedBlock);
        }
    }

    /// @inheritdoc ITaskMarket
    function auditDraw(uint256 taskId) external view returns (bool ready, bool drawn) {
        TaskData storage t = _task(taskId);
        if (t.status != TaskStatus.Held) revert TaskMarketWrongStatus(taskId, t.status);
        return _draw(taskId, _claims[taskId][0].dueAt, t.auditBps);
    }

    /// @inheritdoc ITaskMarket
    function collateralFor(uint96 maxPayment, uint16 auditBps) external view returns (uint256) {
        return _collateral(maxPayment, auditBps, _params.collateralBps, _params.minCollateral);
    }

    // ─── Internals: submission ───

    function _submit(TaskParams calldata params_, MarketParams memory p) private returns (uint256 taskId, uint256 escrow) {
        uint8 replicas = params_.replicas;
        if (replicas == 0 || replicas > MAX_REPLICAS) revert TaskMarketInvalidReplicas(replicas);
        if (params_.maxPayment == 0) revert TaskMarketZeroPayment();
        if (params_.deadline <= block.timestamp || params_.deadline > block.timestamp + MAX_TASK_DURATION) {
            revert TaskMarketInvalidDeadline(params_.deadline);
        }
        if (params_.minSuccessBps > BPS) revert TaskMarketInvalidGates(params_.minSuccessBps);
        _requireCID(params_.inputCID);

        if (params_.minCompleted > type(uint24).max) revert TaskMarketInvalidGates(params_.minSuccessBps);
        SourceTerms memory terms = _sources.getSourceTerms(params_.sourceId);
        if (!terms.active) revert TaskMarketInactiveSource(params_.sourceId);
        Requirements memory source = terms.requirements;
        if (replicas > 1 && !source.deterministic) revert TaskMarketSourceNotDeterministic(params_.sourceId);
        // A single result can be checked by re-running a deterministic source, or by running the source's
        // validator: it is audited with probability auditBps, the protocol's default or more if the client buys it.
        uint16 auditBps;
        bool validated = terms.validator != 0;
        if (replicas == 1 && (source.deterministic || validated)) {
            auditBps = params_.auditBps == 0 ? p.auditBps : params_.auditBps;
            if (auditBps < p.auditBps || auditBps > BPS) revert TaskMarketInvalidAuditBps(params_.auditBps, p.auditBps);
        }

        // Not stored (see _collateralOf), but bounded: views and events report it in 88 bits.
        uint256 collateral = _collateral(params_.maxPayment, auditBps, p.collateralBps, p.minCollateral);
        if (collateral > type(uint88).max) revert TaskMarketAmountTooLarge(collateral);

        taskId = ++_taskCount;
        uint16 paramsVersion = _paramsVersion;
        Requirements calldata asked = params_.requirements;
        bool gated = params_.minSuccessBps != 0 || params_.minCompleted != 0;
        // One assignment of the whole struct: whole-slot writes, no read-modify-write of fresh slots.
        _tasks[taskId] = TaskData({
            client: msg.sender,
            sourceId: params_.sourceId,
            replicas: replicas,
            status: TaskStatus.Open,
            openSlots: _fullMask(replicas),
            committed: 0,
            revealed: 0,
            paramsVersion: paramsVersion,
            flags: (params_.pricePerSecond != 0 ? METERED : 0) | (auditBps != 0 ? AUDITED : 0)
                | (validated ? VALIDATED : 0) | (gated ? GATED : 0),
            maxPayment: params_.maxPayment,
            // Checked above: at most MAX_TASK_DURATION from now.
            deadline: uint32(params_.deadline),
            creatorFeeBps: terms.creatorFeeBps,
            discountBps: _discountsOn ? _staking.pinDiscount(msg.sender) : 0,
            // Replicas race for their seats until the window ends, with tickets drawn from the next block's hash:
            // the race is kept in this field and the top of the runtimes word until the reveals open (see _race).
            auditBps: replicas > 1 ? uint16(block.number) : auditBps,
            maxRuntimeSec: _tighterRuntime(asked.maxRuntimeSec, source.maxRuntimeSec),
            minGpus: _max8(asked.minGpus, source.minGpus),
            minComputeCapability: _max8(asked.minComputeCapability, source.minComputeCapability),
            minVramMiB: asked.minVramMiB > source.minVramMiB ? asked.minVramMiB : source.minVramMiB
        });
        if (gated || params_.pricePerSecond != 0) {
            _extras[taskId] = TaskExtra({
                pricePerSecond: params_.pricePerSecond,
                minSuccessBps: params_.minSuccessBps,
                minCompleted: uint24(params_.minCompleted)
            });
        }
        if (replicas > 1) _runtimes[taskId] = (block.timestamp + Math.min(p.auditJoinWindow, MAX_RACE)) << 224;
        // An auditable result escrows one more payment: the first auditor's, refunded when no audit is drawn.
        escrow = uint256(params_.maxPayment) * (auditBps == 0 ? replicas : 2);
        emit TaskSubmitted(taskId, msg.sender, params_.sourceId, params_.inputCID, params_.resultKey, escrow);
    }

    /// @dev Tasks only tighten the source's requirements: a non-zero maxRuntimeSec can only lower it.
    function _tighterRuntime(uint32 asked, uint32 source) private pure returns (uint32) {
        return asked != 0 && asked < source ? asked : source;
    }

    /// @dev Takes `escrow` from the caller's internal balance, pulling any shortfall with transferFrom (last).
    function _collect(uint256 escrow) private {
        uint256 balance = _balances[msg.sender];
        uint256 fromBalance = balance < escrow ? balance : escrow;
        uint256 shortfall = escrow - fromBalance;
        if (fromBalance != 0) _balances[msg.sender] = balance - fromBalance;
        if (shortfall != 0) {
            uint256 allowance = _asset.allowance(msg.sender, address(this));
            if (allowance < shortfall) revert TaskMarketInsufficientBalance(msg.sender, balance, escrow);
            emit Deposited(msg.sender, shortfall);
            _asset.safeTransferFrom(msg.sender, address(this), shortfall);
        }
    }

    // ─── Internals: settlement ───

    // ─── Internals: audits ───

    /// @dev Runs `data` on TaskAudits in this contract's storage; bubbles up its revert.
    function _delegate(bytes memory data) private returns (bytes memory result) {
        bool ok;
        (ok, result) = address(_auditsModule).delegatecall(data);
        if (!ok) {
            assembly ("memory-safe") {
                revert(add(result, 0x20), mload(result))
            }
        }
    }

    function _stakingContract() internal view override returns (IStaking) {
        return _staking;
    }

    function _registry() internal view override returns (IProviderRegistry) {
        return _providers;
    }

    function _sourceRegistry() internal view override returns (ISourceRegistry) {
        return _sources;
    }

    // ─── Internals: helpers ───

    function _deposit(uint256 amount) private {
        if (amount == 0) revert TaskMarketZeroAmount();
        _balances[msg.sender] += amount;
        emit Deposited(msg.sender, amount);
        _asset.safeTransferFrom(msg.sender, address(this), amount);
    }

    function _withdraw(address to, uint256 amount) private {
        if (amount == 0) revert TaskMarketZeroAmount();
        if (to == address(0)) revert TaskMarketZeroAddress();
        uint256 balance = _balances[msg.sender];
        if (amount > balance) revert TaskMarketInsufficientBalance(msg.sender, balance, amount);
        _balances[msg.sender] = balance - amount;
        emit Withdrawn(msg.sender, to, amount);
        _asset.safeTransfer(to, amount);
    }

    /// @dev A permit front-run by someone else leaves the allowance in place, so its failure is not fatal;
    /// the transfer that follows fails if there is no allowance.
    function _permit(uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s) private {
        try IERC20Permit(address(_asset)).permit(msg.sender, address(this), value, deadline, v, r, s) {} catch {}
    }

    /// @dev The caller's claimed slot on the task. At most 7 iterations.
    function _claimOf(uint256 taskId, TaskData storage t, address provider)
        private
        view
        returns (uint8 slot, ClaimData storage c)
    {
        uint8 replicas = t.replicas;
        uint8 open = t.openSlots;
        for (; slot < replicas; ++slot) {
            c = _claims[taskId][slot];
            if (open & (1 << slot) == 0 && c.provider == provider) return (slot, c);
        }
        revert TaskMarketNotClaimant(taskId, provider);
    }

    function _fullMask(uint8 replicas) private pure returns (uint8) {
        return uint8((1 << replicas) - 1);
    }

    function _max8(uint8 a, uint8 b) private pure returns (uint8) {
        return a > b ? a : b;
    }

    /// @dev setParams and the constructor: checks every parameter against its bound and keeps the set as a new
    /// version.
    function _setParams(MarketParams memory p) private {
        if (p.protocolFeeBps > MAX_PROTOCOL_FEE_BPS) revert TaskMarketParamOutOfBounds("protocolFeeBps");
        if (p.stakerShareBps > MAX_STAKER_SHARE_BPS) revert TaskMarketParamOutOfBounds("stakerShareBps");
        if (p.collateralBps < MIN_COLLATERAL_BPS || p.collateralBps > MAX_COLLATERAL_BPS) {
            revert TaskMarketParamOutOfBounds("collateralBps");
        }
        if (p.slashToClientBps > BPS) revert TaskMarketParamOutOfBounds("slashToClientBps");
        if (p.revealWindow < MIN_WINDOW || p.revealWindow > MAX_WINDOW) revert TaskMarketParamOutOfBounds("revealWindow");
        if (p.claimGrace < MIN_WINDOW || p.claimGrace > MAX_WINDOW) revert TaskMarketParamOutOfBounds("claimGrace");
        if (p.minCollateral > MAX_MIN_COLLATERAL) revert TaskMarketParamOutOfBounds("minCollateral");
        if (p.auditBps < MIN_AUDIT_BPS || p.auditBps > BPS) revert TaskMarketParamOutOfBounds("auditBps");
        if (p.auditJoinWindow < MIN_WINDOW || p.auditJoinWindow > MAX_WINDOW) {
            revert TaskMarketParamOutOfBounds("auditJoinWindow");
        }
        uint16 version = _paramsVersion + 1; // reverts after 65,535 changes
        _params = p;
        _paramsAt[version] = p;
        _paramsVersion = version;
        emit ParamsUpdated(p);
    }

    function _setTreasury(address treasury_) private {
        if (treasury_ == address(0)) revert TaskMarketZeroAddress();
        _treasury = treasury_;
        emit TreasuryUpdated(treasury_);
    }
}
