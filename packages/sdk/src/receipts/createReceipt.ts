import type { Account, Address, Chain, Client, Hex, Transport } from 'viem'
import { parseAccount } from 'viem/accounts'
import { getChainId } from 'viem/actions'
import { getAction } from 'viem/utils'
import { InvalidParametersError, type InvalidParametersErrorType } from '../errors/validation.js'
import type { ContentStore, ContentStoreWriteErrorType } from '../storage/ContentStore.js'
import type { DeploymentParameter } from '../types/deployment.js'
import type { InvalidReceiptErrorType, ReceiptSignerMismatchErrorType } from './errors.js'
import type { Receipt, ReceiptHardware } from './schema.js'
import { signReceipt } from './signReceipt.js'

export type CreateReceiptParameters = DeploymentParameter & {
  /** Where the signed document is uploaded (`putJson`): the store the client will read it from. */
  store: Pick<ContentStore, 'putJson'>
  /** The provider account; defaults to the client's. It becomes the receipt's `provider` and signs it. */
  account?: Account | Address | undefined
  taskId: bigint | number | string
  /** The slot the provider claimed (default 0). */
  slot?: number | undefined
  sourceId: number | bigint
  /** sha256 digest of the OCI image manifest that ran, as bytes32 hex. */
  imageDigest: Hex
  inputCID: string
  /**
   * The result CID handed in, as the chain has it: the output's, or its
   * sealed envelope's when the task has a `resultKey` (never the plain
   * output's then: receipts are public, and the plain CID would give away
   * the digest the seal hides), or a failed run's logs.
   */
  outputCID: string
  logsCID: string
  /** When the container started: a Date or Unix seconds. */
  startedAt: Date | number
  /** When the container stopped: a Date or Unix seconds. */
  finishedAt: Date | number
  /**
   * Runtime charged for (default `finishedAt − startedAt`). Submit the same figure on chain: the
   * market caps it at the time since the claim, and `getReceipt` reports a capped figure as a mismatch.
   */
  runtimeSec?: number | undefined
  exitCode: number
  hardware: ReceiptHardware
}

export type CreateReceiptReturnType = {
  /** The signed document as stored. */
  receipt: Receipt
  /** Its CID: submit it with the result (`submitResult` / `revealResult`). */
  cid: string
}

export type CreateReceiptErrorType =
  | InvalidReceiptErrorType
  | ReceiptSignerMismatchErrorType
  | InvalidParametersErrorType
  | ContentStoreWriteErrorType
  | Error

/**
 * Builds a provider's receipt for a finished task, signs it (EIP-712) and
 * uploads it with `store.putJson`. It fills `version`, `chainId` (the
 * client's chain), `market` (the deployment's) and `provider` (the signing
 * account); times may be Dates. Returns the document and its CID, which the
 * provider submits with the result.
 *
 * @example
 * import { createReceipt, submitResult } from '@gridforge/sdk'
 * import { fsStore } from '@gridforge/sdk/storage'
 *
 * const { cid } = await createReceipt(client, {
 *   deployment,
 *   store: fsStore({ root: '/var/lib/gridforge/store' }),
 *   taskId,
 *   sourceId: 1,
 *   imageDigest: '0x…',
 *   inputCID,
 *   outputCID,
 *   logsCID,
 *   startedAt,
 *   finishedAt: new Date(),
 *   exitCode: 0,
 *   hardware: { gpus: [{ name: 'NVIDIA L4', vramMiB: 23_034, computeCapability: 89 }], cpuCores: 8, memoryMiB: 32_768 },
 * })
 * await submitResult(client, { deployment, taskId, result: outputCID, receipt: cid, runtimeSec })
 */
export async function createReceipt(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: CreateReceiptParameters,
): Promise<CreateReceiptReturnType> {
  const { deployment, store, slot = 0, runtimeSec } = parameters
  const given = parameters.account ?? client.account
  if (given === undefined) {
    throw new InvalidParametersError({
      action: 'createReceipt',
      fields: [{ path: 'account', message: 'pass the provider account, or use a client that has one' }],
    })
  }
  const account = parseAccount(given)
  const startedAt = toUnixSeconds(parameters.startedAt)
  const finishedAt = toUnixSeconds(parameters.finishedAt)
  const chainId = client.chain?.id ?? (await getAction(client, getChainId, 'getChainId')({}))
  const receipt = await signReceipt(client, {
    account,
    receipt: {
      version: 1,
      chainId,
      market: deployment.contracts.market,
      taskId: String(parameters.taskId),
      slot,
      sourceId: Number(parameters.sourceId),
      imageDigest: parameters.imageDigest,
      inputCID: parameters.inputCID,
      outputCID: parameters.outputCID,
      logsCID: parameters.logsCID,
      provider: account.address,
      startedAt,
      finishedAt,
      runtimeSec: runtimeSec ?? Math.max(0, finishedAt - startedAt),
      exitCode: parameters.exitCode,
      hardware: parameters.hardware,
    },
  })
  const cid = await store.putJson(receipt)
  return { receipt, cid }
}

function toUnixSeconds(time: Date | number): number {
  return time instanceof Date ? Math.floor(time.getTime() / 1000) : time
}
