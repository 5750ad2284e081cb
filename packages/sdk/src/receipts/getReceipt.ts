import {
  type Account,
  type Address,
  type Chain,
  type Client,
  type Hash,
  type Hex,
  isAddressEqual,
  type Transport,
} from 'viem'
import { getBlockNumber, getChainId } from 'viem/actions'
import { getAction } from 'viem/utils'
import * as z from 'zod/mini'
import { getSource, errors as sourceRegistryErrors } from '../abis/sourceRegistry.js'
import {
  getAudit,
  getTask,
  ReplicaPaid,
  ResultRevealed,
  ResultSubmitted,
  TaskFinalized,
  TaskSubmitted,
  errors as taskMarketErrors,
} from '../abis/taskMarket.js'
import type { ContractRevertedErrorType } from '../errors/contract.js'
import { sourceRegistryHints } from '../errors/hints/registries.js'
import { taskMarketHints } from '../errors/hints/taskMarket.js'
import type { InvalidParametersErrorType } from '../errors/validation.js'
import { getLogsPaginated } from '../internal/logs.js'
import * as s from '../internal/schemas.js'
import { validate } from '../internal/validate.js'
import { read } from '../internal/write.js'
import type { ContentStore, ContentStoreGetErrorType } from '../storage/ContentStore.js'
import {
  ContentNotFoundError,
  ContentTooLargeError,
  InvalidCidError,
  UnsupportedCidError,
} from '../storage/errors.js'
import { type Failure, parseFailure } from '../tasks/failures.js'
import type { DeploymentParameter } from '../types/deployment.js'
import { type AuditVerdict, auditVerdicts, taskStatuses } from '../types/task.js'
import {
  ReceiptNotFoundError,
  type ReceiptNotFoundErrorType,
  ReceiptNotSubmittedError,
  type ReceiptNotSubmittedErrorType,
  ReceiptTooLargeError,
  type ReceiptTooLargeErrorType,
  TaskLogsNotFoundError,
  type TaskLogsNotFoundErrorType,
  TaskNotSettledError,
  type TaskNotSettledErrorType,
} from './errors.js'
import type { Receipt } from './schema.js'
import { type ReceiptMismatch, show, verifyReceipt } from './verifyReceipt.js'

/** Receipts are about 1 kB; larger documents are not read unless `maxBytes` says so. */
export const defaultReceiptMaxBytes = 64 * 1024

export type GetReceiptParameters = DeploymentParameter & {
  taskId: bigint | number | string
  /** Where to read receipt documents (every byte is checked against the CID the provider submitted). */
  store: Pick<ContentStore, 'get'>
  /** Only this slot's receipt; default: every slot that submitted or revealed a result. */
  slot?: number | undefined
  /** Largest document read, in bytes (default 64 KiB). */
  maxBytes?: number | undefined
  /** First block to search for the task's events (default: the deployment's block). */
  fromBlock?: bigint | undefined
  /** Most blocks per `eth_getLogs` request (default: the whole range; halved when the RPC refuses). */
  blockRange?: bigint | undefined
}

/** What the chain says about one replica of a settled task. */
export interface ReceiptSettlement {
  taskId: bigint
  /**
   * The task's final status: `Completed`, or `Failed` (replicas disagreed, or
   * an audit overturned the result or reached no verdict: client refunded).
   */
  status: 'Completed' | 'Failed'
  /**
   * The verdict of the audit of a single-replica result of a deterministic
   * source (`not-drawn`, `upheld`, `overturned`, `unresolved`, `lapsed`), or
   * of the dispute of replicas whose results differed; `undefined` for a
   * task that is not auditable and was not disputed. A result the audit
   * rejected (`overturned`; in a dispute a replica's result the auditors did
   * not confirm) fails verification.
   */
  audit: AuditVerdict | undefined
  /** Who submitted and paid for the task. */
  client: Address
  sourceId: number
  /** The source's image digest. */
  imageDigest: Hex
  /** The task's input, from its TaskSubmitted event. */
  inputCID: string
  slot: number
  /** The provider that submitted (k = 1) or revealed (k > 1) this slot's result: the slot's claimant. */
  provider: Address
  /** The output's CID, or the logs' CID of a failed run (`failure`). */
  resultCID: string
  receiptCID: string
  /**
   * The failed run this slot's result reports (its digest is a failure
   * digest); `undefined` for an output. A receipt of a failed run verifies
   * like any other: its `outputCID` is the logs' CID handed in, and an
   * `exited` failure's exit code must be the receipt's `exitCode`.
   */
  failure: Failure | undefined
  /** Runtime the market counted (what the provider reported, capped by the time since its claim). */
  runtimeSec: number
  /** Whether this replica was paid (an outvoted replica, or any replica of a failed task, is not). */
  paid: boolean
  /** Paid for this replica (the provider's amount plus the fee), in base units; 0n when not paid. */
  payment: bigint
  /** The protocol fee taken from `payment`. */
  fee: bigint
  /** Paid for the whole task (every replica). */
  totalPaid: bigint
  /** Escrow returned to the client for the whole task. */
  refund: bigint
  /** The transaction that settled the task, and its block. */
  hash: Hash
  blockNumber: bigint
  /** The transaction that submitted or revealed this result (the settlement itself for k = 1), and its block. */
  resultHash: Hash
  resultBlockNumber: bigint
}

/**
 * A receipt whose document, signature and every field agree with the chain
 * (and, for an audited result, whose result the audit did not overturn).
 */
export type VerifiedReceipt = { status: 'verified'; receipt: Receipt; settlement: ReceiptSettlement }

/**
 * A receipt that does not: `mismatches` names each field with the chain's
 * value (or the rule) and the document's. `receipt` is absent when the
 * document is not a valid receipt at all.
 */
export type MismatchedReceipt = {
  status: 'mismatch'
  receipt: Receipt | undefined
  settlement: ReceiptSettlement
  mismatches: ReceiptMismatch[]
}

export type ReceiptResult = VerifiedReceipt | MismatchedReceipt

/** One entry per slot with a result, in slot order (one for single-replica tasks, or with `slot`). */
export type GetReceiptReturnType = ReceiptResult[]

export type GetReceiptErrorType =
  | InvalidParametersErrorType
  | ContractRevertedErrorType
  | TaskNotSettledErrorType
  | ReceiptNotSubmittedErrorType
  | ReceiptNotFoundErrorType
  | ReceiptTooLargeErrorType
  | TaskLogsNotFoundErrorType
  | ContentStoreGetErrorType
  | Error

const schema = z.object({
  taskId: s.taskId,
  slot: z.optional(s.uint(8, 6)),
  maxBytes: z.optional(s.uint(32)),
  fromBlock: z.optional(z.bigint('expected a block number as a bigint')),
  blockRange: z.optional(z.bigint('expected a number of blocks as a bigint')),
})

/**
 * The receipts of a settled task, each checked against the chain. For every
 * slot that submitted (k = 1) or revealed (k > 1) a result it joins the
 * on-chain settlement (who was paid, payment, fee, refund, transaction and
 * block, the result and receipt CIDs the provider submitted, the task's input
 * and the source's image digest) with the receipt document read from `store`
 * (at most `maxBytes`, every byte checked against the receipt CID), checks the
 * document's schema and signature (see `verifyReceipt`), and compares every
 * field with the chain: `chainId`, `market`, `taskId`, `slot`, `sourceId`,
 * `imageDigest`, `inputCID`, `outputCID` (the submitted result CID: for a
 * sealed output its envelope, since the chain has nothing else),
 * `provider` (the slot's claimant, who must also be the signer),
 * `runtimeSec` (the runtime the market counted) and, for a failed run that
 * exited, `exitCode` (the code in its failure digest). A failed run is a
 * result like an output (`settlement.failure` says how it failed; its
 * `outputCID` is the run's logs): its receipt verifies. For an audited
 * single-replica result, or the dispute of replicas whose results differed,
 * it also reports the audit's verdict (`settlement.audit`) and gives the
 * auditors' receipts (the slots after the replicas'); a result the audit
 * overturned (in a dispute, a replica's result the auditors did not
 * confirm) is a mismatch (`(audit)`), however well signed.
 *
 * `logsCID`, `exitCode` (but for an exited failure), the times and `hardware`
 * are not on chain: they are only as true as the provider's signature says.
 *
 * @example
 * import { getReceipt } from '@gridforge/sdk'
 * import { gatewayReader } from '@gridforge/sdk/storage'
 *
 * const store = gatewayReader({ url: 'https://trustless-gateway.link' })
 * const [result] = await getReceipt(client, { deployment, taskId: 42n, store })
 * if (result?.status === 'verified') console.log('paid', result.settlement.payment)
 * else for (const m of result?.mismatches ?? []) console.log(`${m.field}: chain ${m.expected}, receipt ${m.actual}`)
 */
export async function getReceipt(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: GetReceiptParameters,
): Promise<GetReceiptReturnType> {
  const { deployment, store } = parameters
  const action = 'getReceipt'
  const {
    taskId,
    slot,
    maxBytes = defaultReceiptMaxBytes,
    fromBlock: from,
    blockRange,
  } = validate(action, schema, {
    taskId: parameters.taskId,
    slot: parameters.slot,
    maxBytes: parameters.maxBytes,
    fromBlock: parameters.fromBlock,
    blockRange: parameters.blockRange,
  })
  const market = deployment.contracts.market
  // One block for every read, so the task cannot settle between them.
  const blockNumber = await getAction(client, getBlockNumber, 'getBlockNumber')({ cacheTime: 0 })
  const task = await read<{
    client: Address
    sourceId: number
    replicas: number
    status: number
    auditBps: number
  }>(client, {
    action,
    hints: taskMarketHints,
    address: market,
    abi: [getTask, ...taskMarketErrors],
    functionName: 'getTask',
    args: [taskId],
    blockNumber,
  })
  const status = taskStatuses[task.status] ?? 'None'
  if (status !== 'Completed' && status !== 'Failed' && status !== 'Cancelled' && status !== 'Expired') {
    throw new TaskNotSettledError({ taskId, status })
  }
  if (status === 'Cancelled' || status === 'Expired')
    throw new ReceiptNotSubmittedError({ taskId, slot, status })

  const fromBlock = from ?? BigInt(deployment.blockNumber)
  const logs = { address: market, args: { taskId }, fromBlock, toBlock: blockNumber, blockRange }
  // An audited single result has the provider's submission in slot 0 and the auditors' reveals after it; a
  // dispute of replicas has its auditors' reveals after the replicas'.
  const audited = task.auditBps > 0 || task.replicas > 1
  const [chainId, source, submitted, submittedResults, revealedResults, payments, finalized, audit] =
    await Promise.all([
      client.chain?.id ?? getAction(client, getChainId, 'getChainId')({}),
      read<{ imageDigest: Hex }>(client, {
        action,
        hints: sourceRegistryHints,
        address: deployment.contracts.sources,
        abi: [getSource, ...sourceRegistryErrors],
        functionName: 'getSource',
        args: [task.sourceId],
        blockNumber,
      }),
      getLogsPaginated(client, { ...logs, event: TaskSubmitted }),
      task.replicas === 1 ? getLogsPaginated(client, { ...logs, event: ResultSubmitted }) : [],
      task.replicas > 1 || audited ? getLogsPaginated(client, { ...logs, event: ResultRevealed }) : [],
      getLogsPaginated(client, { ...logs, event: ReplicaPaid }),
      getLogsPaginated(client, { ...logs, event: TaskFinalized }),
      audited
        ? read<{ verdict: number; round: number }>(client, {
            action,
            hints: taskMarketHints,
            address: market,
            abi: [getAudit, ...taskMarketErrors],
            functionName: 'getAudit',
            args: [taskId],
            blockNumber,
          })
        : undefined,
    ])
  const results = [...submittedResults, ...revealedResults]
  // Replicas that were not disputed have no verdict (their audit record is the race for their seats).
  const verdict =
    audit === undefined || (task.replicas > 1 && audit.round === 0)
      ? undefined
      : (auditVerdicts[audit.verdict] ?? 'none')
  const submission = submitted[0]
  if (submission === undefined) throw new TaskLogsNotFoundError({ taskId, event: 'TaskSubmitted', fromBlock })
  const settled = finalized[0]
  if (settled === undefined) throw new TaskLogsNotFoundError({ taskId, event: 'TaskFinalized', fromBlock })

  const chosen = results
    .filter((log) => slot === undefined || log.args.slot === slot)
    .sort((a, b) => a.args.slot - b.args.slot)
  if (chosen.length === 0) throw new ReceiptNotSubmittedError({ taskId, slot, status })

  return Promise.all(
    chosen.map(async (result) => {
      const payment = payments.find((log) => log.args.slot === result.args.slot)
      const settlement: ReceiptSettlement = {
        taskId,
        status,
        client: task.client,
        sourceId: task.sourceId,
        imageDigest: source.imageDigest,
        inputCID: submission.args.inputCID,
        slot: result.args.slot,
        provider: result.args.provider,
        resultCID: result.args.resultCID,
        receiptCID: result.args.receiptCID,
        failure: parseFailure(result.args.resultDigest),
        runtimeSec: result.args.runtimeSec,
        paid: payment !== undefined,
        payment: payment?.args.payment ?? 0n,
        fee: payment?.args.fee ?? 0n,
        totalPaid: settled.args.paid,
        refund: settled.args.refund,
        audit: verdict,
        hash: settled.transactionHash,
        blockNumber: settled.blockNumber,
        resultHash: result.transactionHash,
        resultBlockNumber: result.blockNumber,
      }
      // The audit found another result than this provider's: whatever the document says, it does not hold.
      const overturned: ReceiptMismatch[] =
        (verdict === 'overturned' || verdict === 'upheld') &&
        settlement.slot < task.replicas &&
        !settlement.paid
          ? [{ field: '(audit)', expected: 'a result the audit upheld', actual: 'overturned by its audit' }]
          : []
      const document = await fetchDocument(store, settlement, maxBytes)
      if ('mismatch' in document) {
        return {
          status: 'mismatch',
          receipt: undefined,
          settlement,
          mismatches: [...overturned, document.mismatch],
        } as const
      }
      const verified = await verifyReceipt({ document: document.bytes })
      const mismatches = [...overturned, ...verified.mismatches]
      if (verified.receipt !== undefined) {
        mismatches.push(...compare(verified.receipt, settlement, { chainId, market }))
      }
      return mismatches.length === 0 && verified.receipt !== undefined
        ? ({ status: 'verified', receipt: verified.receipt, settlement } as const)
        : ({ status: 'mismatch', receipt: verified.receipt, settlement, mismatches } as const)
    }),
  )
}

/** Reads a receipt document, at most `maxBytes`, verified against its CID by the store. */
async function fetchDocument(
  store: Pick<ContentStore, 'get'>,
  { taskId, slot, receiptCID: cid }: ReceiptSettlement,
  maxBytes: number,
): Promise<{ bytes: Uint8Array } | { mismatch: ReceiptMismatch }> {
  const chunks: Uint8Array[] = []
  let size = 0
  try {
    for await (const chunk of store.get(cid, { maxBytes })) {
      size += chunk.length
      // A store that ignores `maxBytes` is stopped here.
      if (size > maxBytes) throw new ContentTooLargeError({ cid, maxBytes })
      chunks.push(chunk)
    }
  } catch (error) {
    if (error instanceof ContentNotFoundError)
      throw new ReceiptNotFoundError({ taskId, slot, cid, cause: error })
    if (error instanceof ContentTooLargeError) {
      throw new ReceiptTooLargeError({ taskId, slot, cid, maxBytes, cause: error })
    }
    // The chain only checks that a CID is 1 to 128 bytes: a provider may have submitted anything.
    if (error instanceof InvalidCidError || error instanceof UnsupportedCidError) {
      return { mismatch: { field: 'receiptCID', expected: 'a CID of a receipt document', actual: show(cid) } }
    }
    throw error
  }
  const bytes = new Uint8Array(size)
  let offset = 0
  for (const chunk of chunks) {
    bytes.set(chunk, offset)
    offset += chunk.length
  }
  return { bytes }
}

/** Every field of the receipt that the chain also knows, compared with it (in document order). */
function compare(
  receipt: Receipt,
  settlement: ReceiptSettlement,
  { chainId, market }: { chainId: number; market: Address },
): ReceiptMismatch[] {
  const mismatches: ReceiptMismatch[] = []
  const check = (field: keyof Receipt, expected: string, actual: string, equal = expected === actual) => {
    if (!equal) mismatches.push({ field, expected, actual })
  }
  check('chainId', String(chainId), String(receipt.chainId))
  check('market', market, receipt.market, isAddressEqual(market, receipt.market))
  check('taskId', String(settlement.taskId), receipt.taskId)
  check('slot', String(settlement.slot), String(receipt.slot))
  check('sourceId', String(settlement.sourceId), String(receipt.sourceId))
  check(
    'imageDigest',
    settlement.imageDigest,
    receipt.imageDigest,
    settlement.imageDigest.toLowerCase() === receipt.imageDigest.toLowerCase(),
  )
  check('inputCID', settlement.inputCID, receipt.inputCID)
  check('outputCID', settlement.resultCID, receipt.outputCID)
  check(
    'provider',
    settlement.provider,
    receipt.provider,
    isAddressEqual(settlement.provider, receipt.provider),
  )
  check('runtimeSec', String(settlement.runtimeSec), String(receipt.runtimeSec))
  // The exit code of a run that exited with an error is on chain, in its failure digest.
  const { failure } = settlement
  if (failure?.kind === 'exited') check('exitCode', String(failure.exitCode), String(receipt.exitCode))
  return mismatches
}
