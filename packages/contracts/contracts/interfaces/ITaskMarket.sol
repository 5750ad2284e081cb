// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Requirements} from "./ISourceRegistry.sol";

/// @notice Lifecycle of a task. See DESIGN.md §2.3.
enum TaskStatus {
    None,
    /// @notice At least one slot is free to claim.
    Open,
    /// @notice Every slot is claimed; results (k = 1) or commitments (k > 1) are awaited.
    Claimed,
    /// @notice Every slot committed; reveals are open until `revealDeadline`.
    Revealing,
    /// @notice Paid out. Final.
    Completed,
    /// @notice Consensus found no majority; the client was refunded. Final.
    Failed,
    /// @notice Cancelled by the client before any claim; refunded. Final.
    Cancelled,
    /// @notice Deadline passed before completion; refunded. Final.
    Expired,
    /// @notice A k = 1 result of an auditable task is in (the client has it); the payment and the collateral are
    /// held until `releaseResult` draws whether it is audited.
    Held,
    /// @notice The result was drawn for an audit: auditors drawn by the protocol re-run the task.
    Auditing
}

/// @notice State of one replica slot of a task.
enum SlotStatus {
    Free,
    Claimed,
    Committed,
    /// @notice The result was submitted (k = 1) or revealed (k > 1).
    Submitted,
    /// @notice An auditor that missed its commitment or reveal, slashed when its round closed.
    Forfeited
}

/// @notice Outcome of a k = 1 result's audit.
enum AuditVerdict {
    /// @notice Not auditable, or not drawn yet.
    None,
    /// @notice The draw passed the result without an audit.
    NotDrawn,
    /// @notice Drawn; auditors are being assigned or are re-running the task.
    Pending,
    /// @notice The auditors reproduced the result: the provider was paid.
    Upheld,
    /// @notice A majority of auditors found another result: the provider was slashed, the client refunded.
    Overturned,
    /// @notice No majority of auditors agreed on any result: the client was refunded, nobody paid.
    Unresolved,
    /// @notice No eligible provider joined the audit in time: the result was paid unaudited.
    Lapsed
}

/// @notice What a client asks for when submitting a task.
struct TaskParams {
    uint32 sourceId;
    /// @notice CID of the input (a file or a UnixFS directory). Kept in the TaskSubmitted event only.
    string inputCID;
    /// @notice Most paid to each replica.
    uint96 maxPayment;
    /// @notice 0 for a fixed price; otherwise payment = min(maxPayment, pricePerSecond × runtimeSec).
    uint80 pricePerSecond;
    /// @notice Number of providers that run the task (1..7). More than 1 needs a deterministic source.
    uint8 replicas;
    /// @notice Unix time after which the task can be expired and refunded.
    uint40 deadline;
    /// @notice Merged with the source's: minimums raise it, a non-zero maxRuntimeSec can only lower it.
    Requirements requirements;
    /// @notice Least success rate of a claimant, in basis points.
    uint16 minSuccessBps;
    /// @notice Least number of completed slots of a claimant (at most 2^24 - 1).
    uint32 minCompleted;
    /// @notice Probability that a k = 1 result of a deterministic source is audited, in basis points: 0 for the
    /// protocol's `auditBps`, otherwise at least that (a client may buy more). Ignored for k > 1 and for
    /// non-deterministic sources.
    uint16 auditBps;
    /// @notice The client's X25519 public key: providers encrypt the output to it, so that nobody else, auditors
    /// included, can read it or its digest (see libraries/Results.sol, sealOf). Zero: the output is published in
    /// the clear, and an auditor could answer an audit from it without computing. Kept in the TaskSubmitted
    /// event only.
    bytes32 resultKey;
}

/// @notice An EIP-2612 permit for the market to pull the shortfall.
struct Permit {
    uint256 value;
    uint256 deadline;
    uint8 v;
    bytes32 r;
    bytes32 s;
}

/// @notice A task as stored on chain (the input CID is in the TaskSubmitted event).
struct Task {
    address client;
    uint32 sourceId;
    uint8 replicas;
    TaskStatus status;
    /// @notice Bit i set: slot i is free to claim.
    uint8 openSlots;
    uint8 committed;
    uint8 revealed;
    /// @notice Protocol fee rate fixed at submission, in basis points.
    uint16 feeBps;
    uint96 maxPayment;
    uint80 pricePerSecond;
    uint40 deadline;
    /// @notice Source owner's share of the fee, fixed at submission.
    uint16 creatorFeeBps;
    /// @notice Client's fee discount, fixed at submission.
    uint16 discountBps;
    /// @notice Collateral each claimant locks, fixed at submission.
    uint88 collateral;
    Requirements requirements;
    uint16 minSuccessBps;
    uint32 minCompleted;
    /// @notice End of the reveal window (k > 1 once every slot committed; audits once every auditor committed).
    uint40 revealDeadline;
    /// @notice Audit probability fixed at submission, in basis points (0: the result is not audited).
    uint16 auditBps;
    /// @notice The result handed in (k = 1) or agreed (k > 1) reports a failed run: paid the source's failure terms.
    bool failed;
}

/// @notice The audit of a k = 1 result. Slot 0 is the provider; auditors hold slots 1.. in rounds.
struct Audit {
    AuditVerdict verdict;
    /// @notice 1 for the first auditor; each escalation adds a round of two.
    uint8 round;
    /// @notice First slot of the current round and the number of auditors it wants.
    uint8 firstSlot;
    uint8 auditors;
    /// @notice Auditors join until `joinDeadline`; the best stake-weighted tickets hold the round's slots.
    uint40 joinDeadline;
    /// @notice Commitments of the round are due by `commitDeadline`.
    uint40 commitDeadline;
    /// @notice The block whose successor's hash seeds the round's tickets.
    uint40 seedBlock;
    /// @notice Collateral slashed from auditors so far; it pays the later rounds.
    uint256 slashed;
}

/// @notice One replica slot.
struct Slot {
    address provider;
    uint40 claimedAt;
    /// @notice When the result or commitment is due; once committed, when it was committed. For the result of
    /// an auditable k = 1 task once submitted: the number of the block it was submitted in.
    uint40 dueAt;
    SlotStatus status;
    /// @notice The commitment, and after the reveal the result's seal (see libraries/Results.sol). For the result
    /// of an auditable k = 1 task: the first 8 bytes of its seal (all the market keeps), and claimedAt reads 0.
    bytes32 commitment;
    /// @notice Runtime revealed for a k > 1 result, as capped (the winners are all paid for their lower median).
    /// For k = 1 it is not stored (0); the ResultSubmitted event carries it.
    uint32 runtimeSec;
}

/// @notice Owner-settable parameters, each bounded.
struct MarketParams {
    /// @notice Protocol fee on each payment (≤ 2000).
    uint16 protocolFeeBps;
    /// @notice Share of the fee paid to stakers (≤ 5000).
    uint16 stakerShareBps;
    /// @notice Collateral per replica as a share of maxPayment (1000..20000).
    uint16 collateralBps;
    /// @notice Share of slashed collateral paid to the client (≤ 10000).
    uint16 slashToClientBps;
    /// @notice Length of the reveal phase (1 min..1 day).
    uint32 revealWindow;
    /// @notice Time allowed past maxRuntimeSec before a claim is a no-show (1 min..1 day).
    uint32 claimGrace;
    /// @notice Least collateral per replica (≤ 1e24).
    uint80 minCollateral;
    /// @notice Default probability that a k = 1 result of a deterministic source is audited (100..10000).
    uint16 auditBps;
    /// @notice Time eligible providers have to join an audit round (1 min..1 day).
    uint32 auditJoinWindow;
}

/// @title Task market
/// @notice Client balances, escrow, the task lifecycle, consensus, settlement and refunds.
/// @dev Accounting invariant: asset.balanceOf(market) == Σ balanceOf(account) + Σ creatorFeesOf(source)
/// + Σ escrow of tasks not final (replicas × maxPayment, plus maxPayment for an auditable k = 1 task, plus what
/// its audit slashed so far) + treasuryAccrued + pendingStakerFees.
interface ITaskMarket {
    // ─── Balances ───
    /// @notice Emitted when `account`'s tokens enter the market from outside: a deposit, or the shortfall a
    /// submission pulls straight into escrow.
    event Deposited(address indexed account, uint256 amount);
    /// @notice Emitted when tokens leave `account`'s internal balance.
    event Withdrawn(address indexed account, address indexed to, uint256 amount);

    // ─── Lifecycle ───
    /// @notice Emitted for each submitted task; `escrow` = replicas × maxPayment. The terms are in getTask.
    event TaskSubmitted(
        uint256 indexed taskId,
        address indexed client,
        uint32 indexed sourceId,
        string inputCID,
        bytes32 resultKey,
        uint256 escrow
    );
    /// @notice Emitted when `provider` claims `slot` and locks `collateral` until `dueAt`.
    event TaskClaimed(uint256 indexed taskId, address indexed provider, uint8 slot, uint40 dueAt, uint256 collateral);
    /// @notice Emitted when a k = 1 result is submitted: the task settles in the same transaction, or, when it
    /// is auditable, is held until `releaseResult`.
    /// A failure digest (see libraries/Results.sol) reports a failed run; its CID holds the run's logs.
    event ResultSubmitted(
        uint256 indexed taskId,
        address indexed provider,
        uint8 slot,
        bytes32 resultDigest,
        string resultCID,
        string receiptCID,
        uint32 runtimeSec
    );
    /// @notice Emitted when a provider commits to a result (k > 1).
    event ResultCommitted(uint256 indexed taskId, address indexed provider, uint8 slot, bytes32 commitment);
    /// @notice Emitted when the last slot commits and reveals open.
    event RevealOpened(uint256 indexed taskId, uint40 revealDeadline);
    /// @notice Emitted when a provider reveals its result (k > 1) or an auditor its finding: `resultDigest` is the
    /// seal (libraries/Results.sol, sealOf), the market's seal of what an auditor revealed.
    event ResultRevealed(
        uint256 indexed taskId,
        address indexed provider,
        uint8 slot,
        bytes32 resultDigest,
        string resultCID,
        string receiptCID,
        uint32 runtimeSec
    );
    /// @notice Emitted when a slot's claimant missed its due time and the slot is free again.
    event SlotReopened(uint256 indexed taskId, address indexed provider, uint8 slot);
    /// @notice Emitted for each paid replica: `payment` = provider amount + `fee`.
    event ReplicaPaid(uint256 indexed taskId, address indexed provider, uint8 slot, uint256 payment, uint256 fee);
    /// @notice Emitted when a claimant is slashed. `outvoted` is false for no-shows and missed reveals.
    event ProviderSlashed(
        uint256 indexed taskId, address indexed provider, uint8 slot, uint256 amount, uint256 toClient, bool outvoted
    );
    /// @notice Emitted when a held result's audit draw is made: `drawn` opens an audit, otherwise the task settles.
    event AuditDrawn(uint256 indexed taskId, bool drawn);
    /// @notice Emitted when an audit round opens: `auditors` slots from `firstSlot`, joined until `joinDeadline`.
    event AuditRoundOpened(uint256 indexed taskId, uint8 round, uint8 firstSlot, uint8 auditors, uint40 joinDeadline);
    /// @notice Emitted when `auditor` takes `slot` of an audit with its stake-weighted ticket `score` (lower wins).
    event AuditorJoined(uint256 indexed taskId, address indexed auditor, uint8 slot, uint256 score);
    /// @notice Emitted when a better ticket takes `auditor`'s slot; its collateral is unlocked.
    event AuditorReplaced(uint256 indexed taskId, address indexed auditor, uint8 slot);
    /// @notice Emitted when a better stake-weighted ticket takes `provider`'s seat on a task with k > 1 replicas
    /// while its seats are raced for; its collateral is unlocked.
    event ClaimReplaced(uint256 indexed taskId, address indexed provider, uint8 slot, uint256 score);
    /// @notice Emitted when an audit upholds a metered result billed for more runtime than its auditors measured:
    /// within the tolerance, `forfeit` (the excess ÷ the audit probability) goes to the treasury; beyond it, the
    /// whole bond is slashed (see ProviderSlashed) and the task paid for `measuredSec`.
    event RuntimeOverstated(
        uint256 indexed taskId, address indexed provider, uint32 billedSec, uint32 measuredSec, uint256 forfeit
    );
    /// @notice Emitted when an audit ends; `resultDigest` is the result the auditors' majority found (0 if none).
    event AuditResolved(uint256 indexed taskId, AuditVerdict verdict, bytes32 resultDigest);
    /// @notice Emitted once per task when it reaches a final status; `refund` went back to the client's balance.
    event TaskFinalized(
        uint256 indexed taskId, address indexed client, TaskStatus status, bytes32 resultDigest, uint256 paid, uint256 refund
    );

    // ─── Governance ───
    /// @notice Emitted when the owner changes the parameters.
    event ParamsUpdated(MarketParams params);
    /// @notice Emitted when the owner changes the treasury.
    event TreasuryUpdated(address treasury);
    /// @notice Emitted when treasury fees are paid out.
    event TreasuryWithdrawn(address indexed treasury, uint256 amount);
    /// @notice Emitted when stakers' fees move to Staking.
    event StakerFeesReleased(uint256 amount);
    /// @notice Emitted when a source's accrued creator fees move to its owner's internal balance.
    event CreatorFeesClaimed(uint32 indexed sourceId, address indexed owner, uint256 amount);

    error TaskMarketZeroAmount();
    error TaskMarketZeroAddress();
    /// @notice Internal balance too small: deposit, or approve the market for the shortfall.
    error TaskMarketInsufficientBalance(address account, uint256 balance, uint256 needed);
    error TaskMarketUnknownTask(uint256 taskId);
    error TaskMarketInactiveSource(uint32 sourceId);
    /// @notice replicas must be 1..MAX_REPLICAS.
    error TaskMarketInvalidReplicas(uint8 replicas);
    /// @notice k > 1 needs a deterministic source so that outputs can be compared.
    error TaskMarketSourceNotDeterministic(uint32 sourceId);
    /// @notice The deadline must be in the future and at most MAX_TASK_DURATION away.
    error TaskMarketInvalidDeadline(uint40 deadline);
    error TaskMarketZeroPayment();
    /// @notice The input CID is empty or longer than 128 bytes.
    error TaskMarketInvalidCID();
    error TaskMarketInvalidGates(uint16 minSuccessBps);
    /// @notice An amount does not fit its storage width.
    error TaskMarketAmountTooLarge(uint256 amount);
    /// @notice The task is not in a status that allows this.
    error TaskMarketWrongStatus(uint256 taskId, TaskStatus status);
    error TaskMarketAlreadyClaimant(uint256 taskId, address provider);
    error TaskMarketTaskDeadlinePassed(uint256 taskId, uint40 deadline);
    /// @notice The task's deadline leaves less than its runtime limit plus the claim grace: a claim now could not
    /// be honoured in time (and its collateral would be slashed for it).
    error TaskMarketClaimWindowTooShort(uint256 taskId, uint40 deadline, uint256 dueAt);
    error TaskMarketNotClaimant(uint256 taskId, address caller);
    error TaskMarketSlotNotClaimed(uint256 taskId, uint8 slot);
    /// @notice k = 1 tasks use submitResult, k > 1 tasks commit and reveal.
    error TaskMarketWrongMode(uint256 taskId, uint8 replicas);
    /// @notice The claim is past its due time; the slot can be reopened.
    error TaskMarketClaimOverdue(uint256 taskId, uint8 slot, uint40 dueAt);
    /// @notice The claim is not overdue yet.
    error TaskMarketClaimNotOverdue(uint256 taskId, uint8 slot, uint40 dueAt);
    error TaskMarketAlreadyCommitted(uint256 taskId, address provider);
    error TaskMarketZeroCommitment();
    /// @notice The revealed digest and salt do not hash to the caller's commitment.
    error TaskMarketCommitmentMismatch(uint256 taskId, address provider);
    error TaskMarketAlreadyRevealed(uint256 taskId, address provider);
    error TaskMarketRevealClosed(uint256 taskId, uint40 revealDeadline);
    error TaskMarketRevealStillOpen(uint256 taskId, uint40 revealDeadline);
    error TaskMarketNotClient(uint256 taskId, address caller);
    /// @notice A slot is claimed; cancel is only possible before any claim.
    error TaskMarketHasClaims(uint256 taskId);
    error TaskMarketDeadlineNotPassed(uint256 taskId, uint40 deadline);
    error TaskMarketParamOutOfBounds(string name);
    error TaskMarketNotStaking(address caller);
    error TaskMarketNothingToWithdraw();
    /// @notice Only the source's owner may claim its creator fees.
    error TaskMarketNotSourceOwner(uint32 sourceId, address caller);
    /// @notice auditBps must be 0 (the protocol default) or between the default and 10000.
    error TaskMarketInvalidAuditBps(uint16 auditBps, uint16 minimum);
    error TaskMarketZeroDigest();
    /// @notice A run reported as timed out must have had the whole runtime limit since its claim.
    error TaskMarketTimeoutTooEarly(uint256 taskId, uint32 maxRuntimeSec, uint256 elapsed);
    /// @notice The audit draw reads the hash of the block after the submission: release from `readyBlock` on.
    error TaskMarketDrawNotReady(uint256 taskId, uint256 readyBlock);
    /// @notice The audit round's joining window closed at `joinDeadline`.
    error TaskMarketAuditJoinClosed(uint256 taskId, uint40 joinDeadline);
    /// @notice Auditors are still joining until `joinDeadline`: the round's assignment is not final.
    error TaskMarketAuditJoinOpen(uint256 taskId, uint40 joinDeadline);
    /// @notice Every slot of the round holds a better ticket than the caller's `score`.
    error TaskMarketAuditTicketTooHigh(uint256 taskId, uint256 score, uint256 worst);
    /// @notice Every seat of the task holds a better stake-weighted ticket than the caller's `score`.
    error TaskMarketClaimTicketTooHigh(uint256 taskId, uint256 score, uint256 worst);
    /// @notice The seat is raced for until `finalAt`: work (and commitments) start once it is final.
    error TaskMarketSeatNotFinal(uint256 taskId, uint40 finalAt);
    /// @notice The audit round is still running (commitments or reveals not yet due).
    error TaskMarketAuditStillRunning(uint256 taskId);

    // ─── Constants and state ───
    function MAX_REPLICAS() external view returns (uint8);
    function MAX_TASK_DURATION() external view returns (uint40);
    function asset() external view returns (address);
    function sources() external view returns (address);
    function providers() external view returns (address);
    function staking() external view returns (address);
    /// @notice The TaskAudits code the market runs audits with (delegatecall).
    function auditsModule() external view returns (address);
    function treasury() external view returns (address);
    /// @notice The parameters new tasks take.
    function params() external view returns (MarketParams memory);
    /// @notice The parameters `taskId` settles under: those in force when it was submitted. Changing the
    /// parameters never alters the terms of a task already submitted.
    function termsOf(uint256 taskId) external view returns (MarketParams memory);
    /// @notice Number of tasks submitted (the highest id; ids start at 1).
    function taskCount() external view returns (uint256);
    /// @notice Internal balance of `account` (free to withdraw or to escrow).
    function balanceOf(address account) external view returns (uint256);
    /// @notice Creator fees accrued to a source and not yet claimed by its owner.
    function creatorFeesOf(uint32 sourceId) external view returns (uint256);
    /// @notice Treasury fees not yet withdrawn.
    function treasuryAccrued() external view returns (uint256);
    /// @notice Stakers' fees not yet moved to Staking.
    function pendingStakerFees() external view returns (uint256);

    function getTask(uint256 taskId) external view returns (Task memory);
    /// @notice The task's slots: the replicas, then (k = 1 under audit) the auditors.
    function getSlots(uint256 taskId) external view returns (Slot[] memory);
    /// @notice The audit of a k = 1 task, or the dispute of a k > 1 one (verdict None when not auditable, not drawn
    /// or not disputed yet). Before a dispute, a k > 1 task's record is round 0: the race for its seats, open
    /// until `joinDeadline`, seeded by the hash of block `seedBlock + 1`.
    function getAudit(uint256 taskId) external view returns (Audit memory);
    /// @notice Whether a held result's draw can be made (`ready`) and, if so, whether it audits it.
    function auditDraw(uint256 taskId) external view returns (bool ready, bool drawn);
    /// @notice Collateral a claimant of a task with this maxPayment locks under the current parameters, for a
    /// result audited with probability `auditBps` (0: not audited): at least (1/p − 1) × maxPayment and
    /// 3 × maxPayment, so that cheating loses in expectation and the escalation rounds are paid for.
    function collateralFor(uint96 maxPayment, uint16 auditBps) external view returns (uint256);

    // ─── Balances ───
    /// @notice Moves `amount` from the caller into its internal balance (approve first).
    function deposit(uint256 amount) external;
    /// @notice Like deposit, with an EIP-2612 permit.
    function depositWithPermit(uint256 amount, uint256 deadline, uint8 v, bytes32 r, bytes32 s) external;
    /// @notice Sends `amount` of the caller's internal balance to the caller.
    function withdraw(uint256 amount) external;
    /// @notice Sends `amount` of the caller's internal balance to `to`.
    function withdrawTo(address to, uint256 amount) external;

    // ─── Client ───
    /// @notice Submits a task, escrowing replicas × maxPayment from the internal balance and pulling
    /// any shortfall with transferFrom.
    function submitTask(TaskParams calldata taskParams) external returns (uint256 taskId);
    /// @notice Like submitTask, pulling the shortfall with a permit.
    function submitTaskWithPermit(TaskParams calldata taskParams, Permit calldata permit) external returns (uint256 taskId);
    /// @notice Submits several tasks with one shortfall pull. Returns the first id; ids are consecutive.
    function submitTasks(TaskParams[] calldata tasks) external returns (uint256 firstTaskId);
    /// @notice Cancels a task no provider has claimed; refunds the escrow to the internal balance.
    function cancelTask(uint256 taskId) external;

    // ─── Provider ───
    /// @notice Claims a slot, locking the task's collateral. Returns the slot index. The result is due
    /// maxRuntimeSec + claimGrace after the claim, which must not be later than the task's deadline.
    /// k = 1: the slot, first come. k > 1: seats are raced for, not first come, until the race ends
    /// (`getAudit(taskId).joinDeadline`, from two blocks after the submission): each claim draws a ticket
    /// −log2(u)/stake from the hash of the block after the submission, and the k lowest tickets hold the seats (a
    /// better ticket replaces the worst: ClaimReplaced). Holding a majority of seats then takes a majority of the
    /// eligible stake. A seat won in the race is final, and its time starts, when the race ends; after it (or
    /// 256 blocks after the submission, when the seed's hash can no longer be read), free seats are first come.
    function claimTask(uint256 taskId) external returns (uint8 slot);
    /// @notice k = 1: submits the result. `resultDigest` is the seal of the output's digest,
    /// keccak256(abi.encode(taskId, sha2-256 digest of the output's CID)) (libraries/Results.sol, sealOf); with a
    /// `resultKey`, `resultCID` holds the output encrypted to the client. A task that is
    /// not auditable settles at once; an auditable one is held until `releaseResult`. runtimeSec is capped by
    /// the time since the claim and, on a metered task, by the task's runtime limit. A run that failed is handed
    /// in with a failure digest (libraries/Results.sol) and its logs' CID: never slashed, paid the source's
    /// failure terms, audited like an output.
    function submitResult(
        uint256 taskId,
        bytes32 resultDigest,
        string calldata resultCID,
        string calldata receiptCID,
        uint32 runtimeSec
    ) external;
    /// @notice Anyone, from two blocks after a held result: draws, from the hash of the block after the
    /// submission, whether the result is audited. Not drawn: the task settles. Drawn (or released more than
    /// 256 blocks late, when the hash is gone): an audit round opens.
    function releaseResult(uint256 taskId) external;
    /// @notice An eligible provider (not the task's provider, not already an auditor) joins the open audit
    /// round, locking the task's collateral. Its ticket is −log2(u) / stake with u drawn from the round's seed:
    /// the lowest tickets hold the round's slots when joining closes, so a slot goes to each provider with
    /// probability proportional to its stake, however that stake is split. Returns the slot, or 255 without
    /// joining when nobody joined for 256 blocks and the seed's hash is gone: the round is re-seeded from the
    /// next block (its joining deadline unchanged); join again two blocks later.
    function joinAudit(uint256 taskId) external returns (uint8 slot);
    /// @notice k > 1, and auditors once their round's joining closed: commits
    /// keccak256(abi.encode(taskId, msg.sender, resultDigest, salt)). Replicas commit to their output's seal
    /// (sealOf), auditors to the digest they found itself: the market seals it when it is revealed, so an auditor
    /// cannot answer with the seal it sees without having computed the output.
    function commitResult(uint256 taskId, bytes32 commitment) external;
    /// @notice k > 1 and auditors: reveals the committed result. The last reveal settles the task (or the audit
    /// round). runtimeSec is capped by the time from the claim to the commitment and by the task's runtime limit;
    /// every winner is paid for the winners' lower median runtime.
    function revealResult(
        uint256 taskId,
        bytes32 resultDigest,
        bytes32 salt,
        string calldata resultCID,
        string calldata receiptCID,
        uint32 runtimeSec
    ) external;

    // ─── Anyone: permissionless exits ───
    /// @notice Frees an overdue claimed slot, slashing the no-show.
    function reopenSlot(uint256 taskId, uint8 slot) external;
    /// @notice Settles a task whose reveal window closed (non-revealers are slashed), or moves an audit round
    /// whose joining, commitment or reveal time is over to its next step.
    function finalizeTask(uint256 taskId) external;
    /// @notice Refunds a task past its deadline; overdue claimants are slashed.
    function expireTask(uint256 taskId) external;
    /// @notice Pays accrued treasury fees to the treasury.
    function withdrawTreasury() external returns (uint256 amount);

    // ─── Source owners ───
    /// @notice Moves the source's accrued creator fees to the caller's internal balance; the caller must own
    /// the source now (fees follow the source when it is transferred).
    function claimCreatorFees(uint32 sourceId) external returns (uint256 amount);

    // ─── Staking ───
    /// @notice Staking only: sends pending stakers' fees to Staking and returns the amount.
    function releaseStakerFees() external returns (uint256 amount);
    /// @notice Staking only: whether discount tiers exist (submissions skip the discount lookup without them).
    function setDiscountsOn(bool on) external;

    // ─── Owner ───
    /// @notice Replaces the parameters; each is checked against its bound.
    function setParams(MarketParams calldata params) external;
    /// @notice Changes where treasury fees go.
    function setTreasury(address treasury) external;
}
