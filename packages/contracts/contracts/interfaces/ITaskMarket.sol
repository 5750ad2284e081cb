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
    Expired
}

/// @notice State of one replica slot of a task.
enum SlotStatus {
    Free,
    Claimed,
    Committed,
    /// @notice The result was submitted (k = 1) or revealed (k > 1).
    Submitted
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
    /// @notice Least number of completed slots of a claimant.
    uint32 minCompleted;
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
    /// @notice End of the reveal window (k > 1, once every slot committed).
    uint40 revealDeadline;
}

/// @notice One replica slot.
struct Slot {
    address provider;
    uint40 claimedAt;
    /// @notice When the result or commitment is due; once committed, when it was committed.
    uint40 dueAt;
    SlotStatus status;
    /// @notice The commitment, and after the reveal the result digest.
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
    uint96 minCollateral;
}

/// @title Task market
/// @notice Client balances, escrow, the task lifecycle, consensus, settlement and refunds.
/// @dev Accounting invariant: asset.balanceOf(market) == Σ balanceOf(account) + Σ creatorFeesOf(source)
/// + Σ escrow of tasks not final (replicas × maxPayment) + treasuryAccrued + pendingStakerFees.
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
        uint256 indexed taskId, address indexed client, uint32 indexed sourceId, string inputCID, uint256 escrow
    );
    /// @notice Emitted when `provider` claims `slot` and locks `collateral` until `dueAt`.
    event TaskClaimed(uint256 indexed taskId, address indexed provider, uint8 slot, uint40 dueAt, uint256 collateral);
    /// @notice Emitted when a k = 1 result is submitted (the task settles in the same transaction).
    event ResultSubmitted(
        uint256 indexed taskId, address indexed provider, uint8 slot, string resultCID, string receiptCID, uint32 runtimeSec
    );
    /// @notice Emitted when a provider commits to a result (k > 1).
    event ResultCommitted(uint256 indexed taskId, address indexed provider, uint8 slot, bytes32 commitment);
    /// @notice Emitted when the last slot commits and reveals open.
    event RevealOpened(uint256 indexed taskId, uint40 revealDeadline);
    /// @notice Emitted when a provider reveals its result (k > 1).
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

    // ─── Constants and state ───
    function MAX_REPLICAS() external view returns (uint8);
    function MAX_TASK_DURATION() external view returns (uint40);
    function asset() external view returns (address);
    function sources() external view returns (address);
    function providers() external view returns (address);
    function staking() external view returns (address);
    function treasury() external view returns (address);
    function params() external view returns (MarketParams memory);
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
    function getSlots(uint256 taskId) external view returns (Slot[] memory);
    /// @notice Collateral a claimant of a task with this maxPayment locks under the current parameters.
    function collateralFor(uint96 maxPayment) external view returns (uint256);

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
    /// @notice Claims the lowest free slot, locking the task's collateral. Returns the slot index. The result is
    /// due maxRuntimeSec + claimGrace after the claim, which must not be later than the task's deadline.
    function claimTask(uint256 taskId) external returns (uint8 slot);
    /// @notice k = 1: submits the result and settles. runtimeSec is capped by the time since the claim and, on a
    /// metered task, by the task's runtime limit.
    function submitResult(uint256 taskId, string calldata resultCID, string calldata receiptCID, uint32 runtimeSec)
        external;
    /// @notice k > 1: commits keccak256(abi.encode(taskId, msg.sender, resultDigest, salt)).
    function commitResult(uint256 taskId, bytes32 commitment) external;
    /// @notice k > 1: reveals the committed result. The last reveal settles the task. runtimeSec is capped by the
    /// time from the claim to the commitment and by the task's runtime limit; every winner is paid for the
    /// winners' lower median runtime.
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
    /// @notice Settles a task whose reveal window closed; non-revealers are slashed.
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

    // ─── Owner ───
    /// @notice Replaces the parameters; each is checked against its bound.
    function setParams(MarketParams calldata params) external;
    /// @notice Changes where treasury fees go.
    function setTreasury(address treasury) external;
}
