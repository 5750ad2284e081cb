import type { Account, Address, Chain, Client, Hex, Transport } from 'viem'
import * as z from 'zod/mini'
import { errors as providerRegistryErrors } from '../abis/providerRegistry.js'
import { errors as stakingErrors } from '../abis/staking.js'
import {
  ResultSubmitted,
  submitResult as submitResultFunction,
  errors as taskMarketErrors,
} from '../abis/taskMarket.js'
import type { ContractRevertedErrorType } from '../errors/contract.js'
import { providerRegistryHints } from '../errors/hints/registries.js'
import { stakingHints } from '../errors/hints/staking.js'
import { taskMarketHints } from '../errors/hints/taskMarket.js'
import type { TransactionRevertedErrorType } from '../errors/transaction.js'
import type { InvalidParametersErrorType } from '../errors/validation.js'
import * as s from '../internal/schemas.js'
import { validate } from '../internal/validate.js'
import {
  findEvent,
  type WriteOptions,
  type WriteResult,
  writeAndWait,
  writeOptions,
} from '../internal/write.js'
import type { DeploymentParameter } from '../types/deployment.js'
import { gridToken } from '../utils/amount.js'
import {
  type Failure,
  parseFailure,
  reportedResult,
  reportedResultCheck,
  reportedResultShape,
} from './failures.js'
import { handedInDigest } from './handIn.js'
import { findSettlement } from './settlement.js'

export type SubmitResultParameters = DeploymentParameter &
  WriteOptions & {
    /** A single-replica task the sender claimed. */
    taskId: number | bigint
    /**
     * What the client reads: CID of the output (a file or a UnixFS directory;
     * hashed with sha2-256), or of its sealed envelope when the task has a
     * `resultKey` (`sealOutput` in `@gridforge/sdk/results`; then pass the
     * plain output as `output`), or with `failure` the CID of the run's logs
     * (any CID, in the clear).
     */
    result: string
    /**
     * The plain output's CID when `result` is its sealed envelope (default:
     * `result` itself). Its digest is what is sealed and handed in; it stays
     * off chain, so that only the client (who can open the envelope) and this
     * provider know it.
     */
    output?: string | undefined
    /**
     * The run failed (non-zero exit, timeout at the runtime limit, out of
     * memory, output over the cap): hand in this failure instead of an output.
     * It is never slashed and is paid the source's failure terms (metered: the
     * runtime used; fixed price: the source's `failureFeeBps` of the price).
     * `timedOut` is refused until the runtime limit has passed since the claim.
     */
    failure?: Failure | undefined
    /** CID of the signed receipt document. */
    receipt: string
    /**
     * Seconds the task ran. It prices a metered task (`pricePerSecond > 0`); the
     * market caps it at the time since the claim.
     */
    runtimeSec: number
  }

export type SubmitResultReturnType = WriteResult & {
  taskId: bigint
  /**
   * True when the task is auditable (one replica of a deterministic source)
   * and went to `Held`: nothing is paid yet (`payment`, `fee` and `refund` are
   * 0n) and the collateral stays locked until `releaseResult` draws whether
   * the result is audited and, when it is not, settles it.
   */
  held: boolean
  provider: Address
  /** The result CID handed in: the output's (or its sealed envelope's), or a failure's logs'. */
  result: string
  /**
   * The digest handed in, as the chain has it: the seal of the output's
   * sha2-256 digest (`sealResult({ taskId, digest: resultDigest(output) })`),
   * or `failureDigest(failure)` (a failure is its own seal).
   */
  digest: Hex
  /** The failure handed in; `undefined` for an output. */
  failure: Failure | undefined
  receipt: string
  /** The runtime counted, after the cap. */
  runtimeSec: number
  /** Charged to the escrow for this result (fee included); 0n when `held`. */
  payment: bigint
  /** The protocol fee; the provider's market balance grew by `payment − fee`; 0n when `held`. */
  fee: bigint
  /** The unspent escrow returned to the client; 0n when `held`. */
  refund: bigint
}

export type SubmitResultErrorType =
  | InvalidParametersErrorType
  | ContractRevertedErrorType
  | TransactionRevertedErrorType
  | Error

const schema = /* @__PURE__ */ z
  .object({
    taskId: s.taskId,
    ...reportedResultShape,
    receipt: s.cid,
    runtimeSec: s.uint(32),
  })
  .check(reportedResultCheck)

/**
 * Delivers the result of a single-replica task the sender claimed, with the
 * seal of its output's sha2-256 digest (`sealResult`, computed here from
 * `output`, else `result`): the digest itself stays off chain, so an auditor
 * cannot answer an audit of it without computing. Most tasks settle in the same
 * transaction: the provider is paid into its market balance, its collateral
 * unlocks and the client gets any unspent escrow back. An auditable task (a
 * deterministic source) is `held` instead: `releaseResult` settles it two
 * blocks later unless the draw picks it for an audit.
 *
 * A run that failed is a result too: pass `failure` and the CID of the run's
 * logs as `result`; the digest is `failureDigest(failure)`.
 *
 * A task with a `resultKey` (see `getTask` with `includeInput`) wants its
 * output sealed to its client: hand in the envelope `sealOutput` stores as
 * `result` and the plain output as `output`.
 *
 * @example
 * import { submitResult } from '@gridforge/sdk'
 * import { sealOutput } from '@gridforge/sdk/results'
 *
 * const { held, payment, fee } = await submitResult(providerClient, {
 *   deployment,
 *   taskId: 12n,
 *   result: 'bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi',
 *   receipt: 'bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku',
 *   runtimeSec: 42,
 * })
 *
 * // A task with a resultKey: seal the output to the client, hand in the envelope.
 * const { cid: envelope } = await sealOutput(store, { cid: outputCid, resultKey: task.resultKey })
 * await submitResult(providerClient, {
 *   deployment,
 *   taskId: 12n,
 *   result: envelope,
 *   output: outputCid,
 *   receipt: receiptCid,
 *   runtimeSec: 42,
 * })
 *
 * // The workload exited with code 2: hand in the failure and its logs.
 * await submitResult(providerClient, {
 *   deployment,
 *   taskId: 13n,
 *   result: logsCid,
 *   failure: { kind: 'exited', exitCode: 2 },
 *   receipt: receiptCid,
 *   runtimeSec: 7,
 * })
 */
export async function submitResult(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: SubmitResultParameters,
): Promise<SubmitResultReturnType> {
  const { deployment } = parameters
  const action = 'submitResult'
  const params = validate(action, schema, parameters)
  const taskId = params.taskId as bigint
  const digest = handedInDigest(reportedResult(params), taskId, 'provider')
  const market = deployment.contracts.market
  const receipt = await writeAndWait(client, {
    action,
    hints: { ...providerRegistryHints, ...stakingHints, ...taskMarketHints },
    token: deployment.token ?? gridToken,
    address: market,
    abi: [submitResultFunction, ...taskMarketErrors, ...stakingErrors, ...providerRegistryErrors],
    functionName: 'submitResult',
    args: [taskId, digest, params.result, params.receipt, params.runtimeSec],
    ...writeOptions(parameters),
  })
  const { args } = findEvent(action, receipt, market, ResultSubmitted)
  // An auditable task is held: no settlement in this transaction.
  const settlement = findSettlement(receipt, market, taskId)
  const [paid] = settlement?.payments ?? []
  return {
    taskId: args.taskId,
    held: settlement === undefined,
    provider: args.provider,
    result: args.resultCID,
    digest: args.resultDigest,
    failure: parseFailure(args.resultDigest),
    receipt: args.receiptCID,
    runtimeSec: args.runtimeSec,
    payment: paid?.payment ?? 0n,
    fee: paid?.fee ?? 0n,
    refund: settlement?.refund ?? 0n,
    hash: receipt.transactionHash,
    blockNumber: receipt.blockNumber,
  }
}
