import { amountArg, type RevertHints } from '../contract.js'

/**
 * What to do about the errors a task submission can revert with that the SDK
 * cannot rule out before sending (the others — deadline, replicas, payment,
 * CID, gates — are refused by validation first). Kept apart from the other
 * TaskMarket hints so that `submitTask` bundles only these.
 */
export const taskSubmissionHints: RevertHints = {
  TaskMarketInsufficientBalance: ([, balance, needed], { token }) =>
    `balance ${amountArg(balance, token)} < ${amountArg(needed, token)} needed: deposit, or approve the market to pull the rest`,
  ERC20InsufficientBalance: ([, balance, needed], { token }) =>
    `the wallet holds ${amountArg(balance, token)} < ${amountArg(needed, token)}: get more tokens or pay less`,
  TaskMarketInactiveSource: ([sourceId]) => `source ${sourceId} is deactivated: use an active source`,
  SourceRegistryUnknownSource: ([sourceId]) =>
    `source ${sourceId} does not exist: check the id and the deployment`,
  TaskMarketSourceNotDeterministic: ([sourceId]) =>
    `source ${sourceId} is not deterministic: use replicas: 1, or a source published with deterministic: true`,
  TaskMarketInvalidAuditBps: ([auditBps, minimum]) =>
    `auditBps ${auditBps} is below the market's audit probability (${minimum}): leave it out for the default, or ask for ${minimum} to 10000`,
}
