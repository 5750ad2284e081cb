import { ERC20InsufficientBalance } from '../abis/gridToken.js'
import { SourceRegistryUnknownSource } from '../abis/sourceRegistry.js'
import {
  TaskMarketAmountTooLarge,
  TaskMarketInactiveSource,
  TaskMarketInsufficientBalance,
  TaskMarketInvalidAuditBps,
  TaskMarketInvalidCID,
  TaskMarketInvalidDeadline,
  TaskMarketInvalidGates,
  TaskMarketInvalidReplicas,
  TaskMarketSourceNotDeterministic,
  TaskMarketZeroPayment,
} from '../abis/taskMarket.js'

/**
 * Every custom error a task submission can revert with (TaskMarket's checks,
 * the source lookup, the token pull), and no more: the ABI items bundled with
 * `submitTask`. Any other revert still surfaces as a ContractRevertedError
 * with its raw data.
 */
export const submissionErrors = [
  TaskMarketInsufficientBalance,
  TaskMarketInactiveSource,
  TaskMarketSourceNotDeterministic,
  TaskMarketInvalidDeadline,
  TaskMarketInvalidReplicas,
  TaskMarketZeroPayment,
  TaskMarketInvalidCID,
  TaskMarketInvalidGates,
  TaskMarketAmountTooLarge,
  TaskMarketInvalidAuditBps,
  SourceRegistryUnknownSource,
  ERC20InsufficientBalance,
] as const
