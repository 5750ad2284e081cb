import type { Account, Address, Chain, Client, Hash, Hex, Transport } from 'viem'
import * as z from 'zod/mini'
import {
  AuditResolved,
  ProviderSlashed,
  ReplicaPaid,
  ResultRevealed,
  ResultSubmitted,
  RuntimeOverstated,
  TaskFinalized,
} from '../abis/taskMarket.js'
import type { ContractRevertedErrorType } from '../errors/contract.js'
import type { TaskNotFoundErrorType } from '../errors/task.js'
import type { InvalidParametersErrorType } from '../errors/validation.js'
import { getLogsPaginated } from '../internal/logs.js'
import * as s from '../internal/schemas.js'
import { validate } from '../internal/validate.js'
import type { DeploymentParameter } from '../types/deployment.js'
import type { TaskSettlementRecord } from '../types/settlement.js'
import type { TaskStatus } from '../types/task.js'
import { type Failure, parseFailure } from './failures.js'
import { getTask } from './getTask.js'
import { decodeSettlement } from './settlement.js'

export type GetTaskResultParameters = DeploymentParameter & {
  taskId: number | bigint
  /** First block to search (default: the deployment's block). */
  fromBlock?: bigint | undefined
  /** Most blocks per `eth_getLogs` request (default: the whole range, halved if the RPC refuses). */
  blockRange?: bigint | undefined
}

/** A result a provider handed in for one slot. */
export interface SlotResult {
  slot: number
  provider: Address
  /**
   * CID of the output (a file or a UnixFS directory), of its sealed envelope
   * when the task has a `resultKey` (open it with `openOutput` from
   * `@gridforge/sdk/results`), or of the run's logs when `failure` is set.
   */
  resultCID: string
  /** CID of the provider's signed run receipt. */
  receiptCID: string
  /** Runtime counted for payment (capped by the time since the claim). */
  runtimeSec: number
  /**
   * The result's seal, as the chain has it: what a provider handed in
   * (`sealResult` of its output's digest), or the market's seal of what an
   * auditor revealed; a failure digest is its own seal. Equal seals agree.
   * A client that opened the output checks it with
   * `sealResult({ taskId, digest: resultDigest(outputCid) })`.
   */
  resultDigest: Hex
  /** The failure this result reports (see `parseFailure`); `undefined` for an output or a validation. */
  failure: Failure | undefined
  /** Whether this result was paid, i.e. accepted (known once the task settled). */
  accepted: boolean
  hash: Hash
  blockNumber: bigint
}

export type GetTaskResultReturnType = {
  taskId: bigint
  /** The task's status now. */
  status: TaskStatus
  /**
   * The accepted result's CID once Completed, otherwise `undefined`. When
   * `failed`, it holds the failed run's logs, not an output; for a task with
   * a `resultKey`, the output's sealed envelope (`openOutput`).
   */
  resultCID: string | undefined
  /** The accepted result reports a failed run (see `getTask`): paid the source's failure terms. */
  failed: boolean
  /** How the run failed, when `failed` (and its digest is one `failureDigest` makes). */
  failure: Failure | undefined
  /**
   * Every result handed in, by slot (replicas > 1 and auditors: only the
   * revealed ones). An audited single result has its auditors' after slot 0,
   * a dispute of replicas its auditors' after the replicas'.
   */
  results: SlotResult[]
  /** How the task settled, with the settling transaction; `undefined` until it settles. */
  settlement: TaskSettlementRecord | undefined
}

export type GetTaskResultErrorType =
  | InvalidParametersErrorType
  | TaskNotFoundErrorType
  | ContractRevertedErrorType
  | Error

const schema = z.object({
  taskId: s.taskId,
  fromBlock: z.optional(z.bigint()),
  blockRange: z.optional(z.bigint()),
})

/**
 * Reads what providers handed in for a task (result and receipt CIDs and
 * runtimes, from ResultSubmitted / ResultRevealed) and, once it settled, how:
 * status, payments, slashes, refund, and the settling transaction. A task
 * whose audit or dispute ended has its verdict in `settlement.audit`; the
 * results its auditors confirmed are the ones `accepted` (paid). Slashes
 * made before the settling transaction (replicas that did not reveal when a
 * dispute opened, auditors that missed a step) are not in the settlement:
 * `watchTask` reports each.
 *
 * @example
 * import { createPublicClient, http } from 'viem'
 * import { hardhat } from 'viem/chains'
 * import { getDeployment } from '@gridforge/contracts'
 * import { formatFailure, getTaskResult } from '@gridforge/sdk'
 *
 * const client = createPublicClient({ chain: hardhat, transport: http() })
 * const { status, resultCID, failure } = await getTaskResult(client, {
 *   deployment: getDeployment(31337),
 *   taskId: 7n,
 * })
 * if (status === 'Completed') console.log(failure ? `failed run (${formatFailure(failure)}), logs:` : 'output:', resultCID)
 */
export async function getTaskResult(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: GetTaskResultParameters,
): Promise<GetTaskResultReturnType> {
  const { deployment } = parameters
  const { taskId, fromBlock, blockRange } = validate('getTaskResult', schema, parameters)
  const range = {
    address: deployment.contracts.market,
    args: { taskId },
    fromBlock: fromBlock ?? BigInt(deployment.blockNumber),
    blockRange,
  }
  const [task, submitted, revealed, finalized, paid, slashed, resolved, overstated] = await Promise.all([
    getTask(client, { deployment, taskId }),
    getLogsPaginated(client, { ...range, event: ResultSubmitted }),
    getLogsPaginated(client, { ...range, event: ResultRevealed }),
    getLogsPaginated(client, { ...range, event: TaskFinalized }),
    getLogsPaginated(client, { ...range, event: ReplicaPaid }),
    getLogsPaginated(client, { ...range, event: ProviderSlashed }),
    getLogsPaginated(client, { ...range, event: AuditResolved }),
    getLogsPaginated(client, { ...range, event: RuntimeOverstated }),
  ])

  let settlement: TaskSettlementRecord | undefined
  const final = finalized[0]
  if (final !== undefined) {
    const inSettlement = <log extends { transactionHash: Hash }>(logs: log[]) =>
      logs.filter((log) => log.transactionHash === final.transactionHash)
    const settled = decodeSettlement(
      [
        final,
        ...inSettlement(paid),
        ...inSettlement(slashed),
        ...inSettlement(resolved),
        ...inSettlement(overstated),
      ],
      taskId,
    )
    if (settled) settlement = { ...settled, hash: final.transactionHash, blockNumber: final.blockNumber }
  }
  const payments = settlement?.payments ?? []

  const accepted = (slot: number) => payments.some((payment) => payment.slot === slot)
  const results: SlotResult[] = [...submitted, ...revealed]
    .map((log) => ({
      slot: log.args.slot,
      provider: log.args.provider,
      resultCID: log.args.resultCID,
      receiptCID: log.args.receiptCID,
      runtimeSec: log.args.runtimeSec,
      resultDigest: log.args.resultDigest,
      failure: parseFailure(log.args.resultDigest),
      accepted: accepted(log.args.slot),
      hash: log.transactionHash,
      blockNumber: log.blockNumber,
    }))
    .sort((a, b) => a.slot - b.slot)

  return {
    taskId,
    status: task.status,
    resultCID: task.status === 'Completed' ? results.find((result) => result.accepted)?.resultCID : undefined,
    failed: task.failed,
    failure: task.failure,
    results,
    settlement,
  }
}
