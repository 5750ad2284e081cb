import { amountArg, type RevertHints } from '../contract.js'

const statusNames = ['None', 'Open', 'Claimed', 'Revealing', 'Completed', 'Failed', 'Cancelled', 'Expired']

/** What to do about each TaskMarket error. */
export const taskMarketHints: RevertHints = {
  TaskMarketInsufficientBalance: ([, balance, needed], { token }) =>
    `balance ${amountArg(balance, token)} < ${amountArg(needed, token)} needed: deposit, or approve the market to pull the rest`,
  TaskMarketInactiveSource: ([sourceId]) => `source ${sourceId} is deactivated: use an active source`,
  TaskMarketSourceNotDeterministic: ([sourceId]) =>
    `source ${sourceId} is not deterministic: use replicas: 1, or a source published with deterministic: true`,
  TaskMarketInvalidDeadline: () => 'the deadline must be in the future and at most 30 days away',
  TaskMarketInvalidReplicas: () => 'replicas must be 1 to 7',
  TaskMarketZeroPayment: () => 'maxPayment must be greater than zero',
  TaskMarketInvalidCID: () => 'CIDs must be 1 to 128 characters',
  TaskMarketInvalidGates: () => 'minSuccessBps must be at most 10000',
  TaskMarketAmountTooLarge: () => 'the amount does not fit the contract: use a smaller payment',
  TaskMarketUnknownTask: ([taskId]) => `task ${taskId} does not exist: check the id and the deployment`,
  TaskMarketWrongStatus: ([taskId, status]) =>
    `task ${taskId} is ${statusNames[Number(status)] ?? status}: this action is not possible in that state`,
  TaskMarketNotClient: ([taskId]) => `only the client that submitted task ${taskId} can do this`,
  TaskMarketHasClaims: ([taskId]) =>
    `task ${taskId} has a live claim: it cannot be cancelled; wait for the result or the deadline`,
  TaskMarketNotClaimant: ([taskId]) => `this account holds no claim on task ${taskId}`,
  TaskMarketAlreadyClaimant: ([taskId]) => `this account already holds a slot of task ${taskId}`,
  TaskMarketClaimOverdue: ([taskId]) =>
    `the claim on task ${taskId} is past its due time: the result can no longer be submitted`,
  TaskMarketClaimNotOverdue: ([taskId, , dueAt]) =>
    `the claim on task ${taskId} is due at ${new Date(Number(dueAt) * 1000).toISOString()}: reopen after that`,
  TaskMarketDeadlineNotPassed: ([taskId, deadline]) =>
    `task ${taskId} can be expired after ${new Date(Number(deadline) * 1000).toISOString()}`,
  TaskMarketTaskDeadlinePassed: ([taskId]) => `task ${taskId} is past its deadline: expire it instead`,
  TaskMarketNothingToWithdraw: () => 'there is nothing to withdraw',
  TaskMarketAlreadyCommitted: ([taskId]) => `this account already committed a result to task ${taskId}`,
  TaskMarketAlreadyRevealed: ([taskId]) => `this account already revealed its result of task ${taskId}`,
  TaskMarketCommitmentMismatch: () => 'the revealed digest and salt do not match the commitment',
  TaskMarketRevealClosed: ([taskId]) => `the reveal window of task ${taskId} has closed: finalize it`,
  TaskMarketRevealStillOpen: ([taskId]) => `the reveal window of task ${taskId} is still open`,
  TaskMarketWrongMode: ([taskId, replicas]) =>
    Number(replicas) > 1
      ? `task ${taskId} has ${replicas} replicas: commit and reveal instead of submitResult`
      : `task ${taskId} has one replica: use submitResult`,
  TaskMarketNotSourceOwner: ([sourceId]) => `only the owner of source ${sourceId} can claim its creator fees`,
}
