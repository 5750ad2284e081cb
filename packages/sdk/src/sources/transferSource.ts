import type { Account, Address, Chain, Client, Transport } from 'viem'
import * as z from 'zod/mini'
import { SourceTransferred, errors as sourceRegistryErrors, transfer } from '../abis/sourceRegistry.js'
import type { ContractRevertedErrorType } from '../errors/contract.js'
import { sourceRegistryHints } from '../errors/hints/registries.js'
import type { EventNotFoundErrorType, TransactionRevertedErrorType } from '../errors/transaction.js'
import { InvalidParametersError, type InvalidParametersErrorType } from '../errors/validation.js'
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

export type TransferSourceParameters = DeploymentParameter &
  WriteOptions & {
    sourceId: number | bigint
    /** The new owner: it receives the source's future creator fees and control of it. */
    to: Address
  }

export type TransferSourceReturnType = WriteResult & {
  sourceId: number
  from: Address
  to: Address
}

export type TransferSourceErrorType =
  | InvalidParametersErrorType
  | ContractRevertedErrorType
  | TransactionRevertedErrorType
  | EventNotFoundErrorType
  | Error

const schema = /* @__PURE__ */ z.object({ sourceId: s.uint(32), to: s.address })

/**
 * Transfers a source, and its future creator fees, to another owner. Only its
 * owner may. Creator fees already accrued stay claimable by whoever owns the
 * source when they are claimed.
 *
 * @example
 * import { transferSource } from '@gridforge/sdk'
 *
 * await transferSource(client, { deployment, sourceId: 1, to: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' })
 */
export async function transferSource(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: TransferSourceParameters,
): Promise<TransferSourceReturnType> {
  const { deployment } = parameters
  const action = 'transferSource'
  const params = validate(action, schema, parameters)
  if (BigInt(params.to) === 0n) {
    throw new InvalidParametersError({
      action,
      fields: [{ path: 'to', message: 'must not be the zero address: nobody could ever control the source' }],
    })
  }
  const sources = deployment.contracts.sources
  const receipt = await writeAndWait(client, {
    action,
    hints: sourceRegistryHints,
    address: sources,
    abi: [transfer, ...sourceRegistryErrors],
    functionName: 'transfer',
    args: [params.sourceId, params.to],
    ...writeOptions(parameters),
  })
  const { args } = findEvent(action, receipt, sources, SourceTransferred)
  return {
    sourceId: args.sourceId,
    from: args.from,
    to: args.to,
    hash: receipt.transactionHash,
    blockNumber: receipt.blockNumber,
  }
}
