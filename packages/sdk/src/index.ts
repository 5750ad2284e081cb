/**
 * `@gridforge/sdk`: viem-native actions for the Gridforge GPU compute market.
 *
 * @packageDocumentation
 */
export { type Bound, type GridforgeActions, gridforgeActions } from './clients/decorators/gridforge.js'
export { BaseError, type BaseErrorParameters, type BaseErrorType } from './errors/base.js'
export {
  ContractRevertedError,
  type ContractRevertedErrorType,
  type RevertHint,
  type RevertHints,
} from './errors/contract.js'
export {
  EventNotFoundError,
  type EventNotFoundErrorType,
  TransactionRevertedError,
  type TransactionRevertedErrorType,
} from './errors/transaction.js'
export {
  type InvalidField,
  InvalidParametersError,
  type InvalidParametersErrorType,
} from './errors/validation.js'
export type { WriteOptions, WriteResult } from './internal/write.js'
export {
  maxTaskDurationSec,
  type SubmitTaskErrorType,
  type SubmitTaskParameters,
  type SubmitTaskReturnType,
  submitTask,
} from './tasks/submitTask.js'
export type { Deployment, DeploymentParameter } from './types/deployment.js'
export type { Requirements } from './types/requirements.js'
export { type Amount, formatAmount, gridToken, parseAmount, type TokenInfo } from './utils/amount.js'
export { isCid, maxCidLength, type ParsedCid, parseCid } from './utils/cid.js'
export { type Duration, formatDuration, parseDuration } from './utils/duration.js'
