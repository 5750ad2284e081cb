import { formatDuration } from '../../utils/duration.js'
import { amountArg, type RevertHints } from '../contract.js'

/** The contract's `TaskStatus` names, by enum value. */
const statusNames = [
  'None',
  'Open',
  'Claimed',
  'Revealing',
  'Completed',
  'Failed',
  'Cancelled',
  'Expired',
  'Held',
  'Auditing',
]

/** What can still happen to a task in each status (for TaskMarketWrongStatus). */
const statusNext: Record<string, string> = {
  Open: 'it waits for claims',
  Claimed: 'every slot is claimed and the results are not in yet',
  Revealing:
    'it is in its reveal phase: claimants reveal, then it settles (anyone may finalize after the window)',
  Completed: 'it is settled and final',
  Failed: 'it is settled (no majority, client refunded) and final',
  Cancelled: 'it was cancelled and refunded: it is final',
  Expired: 'it expired and was refunded: it is final',
  Held: 'its result is in and held for the audit draw: anyone may releaseResult it two blocks after the submission',
  Auditing:
    'its result is being audited: eligible providers joinAudit, auditors commit and reveal, anyone may finalizeTask a round whose time is over',
}

/** The bounds `setParams` checks, by parameter name (TaskMarketParamOutOfBounds names the parameter). */
export const marketParamBounds = {
  protocolFeeBps: 'at most 2000 (20%)',
  stakerShareBps: 'at most 5000 (50% of the fee)',
  collateralBps: '1000 to 20000 (10% to 200% of maxPayment)',
  slashToClientBps: 'at most 10000',
  revealWindow: '1 minute to 1 day',
  claimGrace: '1 minute to 1 day',
  minCollateral: 'at most 1e24 base units',
  auditBps: '100 to 10000 (1% to 100% of auditable results)',
  auditJoinWindow: '1 minute to 1 day',
} as const

const time = (seconds: unknown) => new Date(Number(seconds) * 1000).toISOString()
const seconds = (value: unknown) => formatDuration(Number(value))
const remaining = (limit: unknown, elapsed: unknown) => Math.max(0, Number(limit) - Number(elapsed))

/**
 * The hints of `claimTask`: a claim of a task with replicas > 1 draws its
 * ticket from the hash of the block after the submission, so
 * `TaskMarketDrawNotReady` means the race for the seats has not started yet.
 */
export const claimHints: RevertHints = {
  TaskMarketDrawNotReady: ([taskId, readyBlock]) =>
    `the race for the seats of task ${taskId} draws its tickets from the hash of a block not mined yet: claim again from block ${readyBlock}`,
}

/** What to do about each TaskMarket error (and the Ownable errors of its owner-only functions). */
export const taskMarketHints: RevertHints = {
  // Balances and submission.
  TaskMarketInsufficientBalance: ([, balance, needed], { token }) =>
    `market balance ${amountArg(balance, token)} < ${amountArg(needed, token)} needed: deposit, or approve the market to pull the rest (a withdrawal can take at most the balance)`,
  TaskMarketZeroAmount: () => 'the amount must be greater than zero (submitTasks: pass at least one task)',
  TaskMarketZeroAddress: () => 'the address must not be the zero address',
  TaskMarketInactiveSource: ([sourceId]) =>
    `source ${sourceId} is deactivated: use an active source (or its successor), or ask its owner to reactivate it`,
  TaskMarketSourceNotDeterministic: ([sourceId]) =>
    `source ${sourceId} is not deterministic: use replicas: 1, or a source published with deterministic: true`,
  TaskMarketInvalidDeadline: ([deadline]) =>
    `deadline ${time(deadline)} is not in the future or more than 30 days away (the chain's clock counts)`,
  TaskMarketInvalidReplicas: ([replicas]) => `replicas must be 1 to 7, got ${replicas}`,
  TaskMarketZeroPayment: () => 'maxPayment must be greater than zero',
  TaskMarketInvalidCID: () => 'every CID must be 1 to 128 characters',
  TaskMarketInvalidAuditBps: ([auditBps, minimum]) =>
    `auditBps ${auditBps} is out of range: pass 0 for the market's default, or ${minimum} (the default) to 10000`,
  TaskMarketInvalidGates: ([minSuccessBps]) => `minSuccessBps must be at most 10000, got ${minSuccessBps}`,
  TaskMarketAmountTooLarge: ([amount], { token }) =>
    `the collateral ${amountArg(amount, token)} for this maxPayment does not fit the contract: use a smaller maxPayment`,
  // Lifecycle.
  TaskMarketUnknownTask: ([taskId]) => `task ${taskId} does not exist: check the id and the deployment`,
  TaskMarketWrongStatus: ([taskId, status]) => {
    const name = statusNames[Number(status)] ?? String(status)
    return `task ${taskId} is ${name}: ${statusNext[name] ?? 'this action is not possible in that state'}; read it with getTask`
  },
  TaskMarketNotClient: ([taskId, caller]) =>
    `${caller} did not submit task ${taskId}: only its client can cancel it`,
  TaskMarketHasClaims: ([taskId]) =>
    `task ${taskId} has been claimed, so it can no longer be cancelled: wait for the result, or expire it after its deadline`,
  TaskMarketAlreadyClaimant: ([taskId, provider]) =>
    `${provider} already holds a slot of task ${taskId}: replicas must run on different providers`,
  TaskMarketDeadlineNotPassed: ([taskId, deadline]) =>
    `task ${taskId} can be expired after ${time(deadline)}`,
  TaskMarketTaskDeadlinePassed: ([taskId, deadline]) =>
    `task ${taskId} passed its deadline (${time(deadline)}): it can no longer be claimed; anyone may expire it`,
  TaskMarketClaimWindowTooShort: ([taskId, deadline, dueAt]) =>
    `a claim of task ${taskId} now would be due at ${time(dueAt)}, after its deadline (${time(deadline)}): the task leaves too little time for its runtime limit and the claim grace, so it can no longer be claimed (clients: give tasks a deadline of at least the runtime limit + the claim grace)`,
  TaskMarketNotClaimant: ([taskId, caller]) =>
    `${caller} holds no claim on task ${taskId}: send from the account that claimed it (a reopened slot is no longer yours)`,
  TaskMarketSlotNotClaimed: ([taskId, slot]) =>
    `slot ${slot} of task ${taskId} holds no pending claim (free, committed or delivered): there is nothing to reopen`,
  TaskMarketWrongMode: ([taskId, replicas]) =>
    Number(replicas) > 1
      ? `task ${taskId} has ${replicas} replicas: use commitResult, then revealResult`
      : `task ${taskId} has one replica: use submitResult`,
  TaskMarketClaimOverdue: ([taskId, slot, dueAt]) =>
    `the claim on slot ${slot} of task ${taskId} was due at ${time(dueAt)}: it can no longer be delivered, and anyone may reopen the slot (slashing its collateral)`,
  TaskMarketClaimNotOverdue: ([taskId, slot, dueAt]) =>
    `the claim on slot ${slot} of task ${taskId} is due at ${time(dueAt)}: it can be reopened only after that`,
  // Commit and reveal.
  TaskMarketZeroCommitment: () => 'the commitment must not be zero: compute it with computeCommitment',
  TaskMarketAlreadyCommitted: ([taskId, provider]) =>
    `${provider} already committed to task ${taskId}: reveal once every slot has committed`,
  TaskMarketCommitmentMismatch: ([taskId, provider]) =>
    `the result digest and salt do not match ${provider}'s commitment to task ${taskId}: reveal the same result CID (and output) with the salt that commitResult returned, from the account that committed`,
  TaskMarketAlreadyRevealed: ([taskId, provider]) =>
    `${provider} already revealed its result of task ${taskId}`,
  TaskMarketRevealClosed: ([taskId, revealDeadline]) =>
    `the reveal window of task ${taskId} closed at ${time(revealDeadline)}: it can only be finalized now (unrevealed slots are slashed)`,
  TaskMarketRevealStillOpen: ([taskId, revealDeadline]) =>
    `the reveal window of task ${taskId} is open until ${time(revealDeadline)}: finalize after that, or wait for the last reveal to settle it`,
  TaskMarketTimeoutTooEarly: ([taskId, maxRuntimeSec, elapsed]) =>
    `a run reported as timed out must have had the whole runtime limit since the claim: task ${taskId}'s limit is ${seconds(maxRuntimeSec)} and ${seconds(elapsed)} had passed: wait until the limit is reached (${seconds(remaining(maxRuntimeSec, elapsed))} more) before handing in the timeout, or report how the run really ended (exited, outOfMemory, outputTooLarge); replicas and auditors: the time from the claim to the commitment is what counts`,
  TaskMarketZeroDigest: () =>
    'the result digest must not be zero: hand in the seal of the output digest (sealResult; submitResult computes it)',
  // Audits.
  TaskMarketDrawNotReady: ([taskId, readyBlock]) =>
    `the draw of task ${taskId} uses the hash of a block not mined yet: send it again from block ${readyBlock} (getAuditDraw says when it is ready)`,
  TaskMarketAuditJoinClosed: ([taskId, joinDeadline]) =>
    `the audit round of task ${taskId} stopped taking auditors at ${time(joinDeadline)}: wait for its next round, if it escalates`,
  TaskMarketAuditJoinOpen: ([taskId, joinDeadline]) =>
    `auditors of task ${taskId} may still join until ${time(joinDeadline)}: commit (or finalize the round) after that`,
  TaskMarketAuditTicketTooHigh: ([taskId, score, worst]) =>
    `your audit ticket for task ${taskId} (${score}) is not lower than the worst seated one (${worst}): the round is full of better tickets; more stake gives lower tickets in later rounds`,
  // The race for the seats of a task with replicas > 1.
  TaskMarketClaimTicketTooHigh: ([taskId, score, worst]) =>
    `every seat of task ${taskId} is held by a better ticket than yours (${score}, the worst seated is ${worst}): its seats are raced for until the race ends (getAudit's joinDeadline), and the lowest stake-weighted tickets hold them; claim other tasks (more stake draws lower tickets)`,
  TaskMarketSeatNotFinal: ([taskId, finalAt]) =>
    `your seat of task ${taskId} was won in the race for its seats and is final at ${time(finalAt)}: until then a better ticket may take it, so commit (and start the work) from then on`,
  TaskMarketAuditStillRunning: ([taskId]) =>
    `the audit round of task ${taskId} is still within its join, commit or reveal time: finalize it once that time is over (getAudit gives the deadlines)`,
  // Fees and governance.
  TaskMarketNothingToWithdraw: () => 'nothing has accrued yet: there is nothing to withdraw or claim',
  TaskMarketNotSourceOwner: ([sourceId, caller]) =>
    `${caller} does not own source ${sourceId}: only its current owner can claim its creator fees`,
  TaskMarketNotStaking: () => 'only the Staking contract releases staker fees: stakers call claimRewards',
  TaskMarketParamOutOfBounds: ([name]) =>
    `${name} is out of bounds: it must be ${marketParamBounds[name as keyof typeof marketParamBounds] ?? 'within its documented bound'}`,
  OwnableUnauthorizedAccount: ([account]) =>
    `${account} is not the owner of this contract: send it from the owner (in real deployments, a timelock proposal)`,
  OwnableInvalidOwner: ([owner]) => `${owner} cannot own the contract: pass a non-zero address`,
  ReentrancyGuardReentrantCall: () =>
    'the market was re-entered: the token or a contract in the call is misbehaving',
  SafeERC20FailedOperation: ([token]) =>
    `the token ${token} refused the transfer: check the balance and allowance in the wallet`,
  // multicall: a call of the batch reverts with its own error; these only when it gave none.
  FailedCall: () => 'a call of the multicall batch reverted without a reason: the whole batch was undone',
  AddressEmptyCode: ([target]) => `${target} has no code: the multicall batch cannot run there`,
}
