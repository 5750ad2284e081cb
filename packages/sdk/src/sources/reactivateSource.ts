import type { Account, Chain, Client, Transport } from 'viem'
import * as z from 'zod/mini'
import {
  reactivate as reactivateFunction,
  SourceReactivated,
  errors as sourceRegistryErrors,
} from '../abis/sourceRegistry.js'
import type { ContractRevertedErrorType } from '../errors/contract.js'
import { sourceRegistryHints } from '../errors/hints/registries.js'
import type { EventNotFoundErrorType, TransactionRevertedErrorType } from '../errors/transaction.js'
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

export type ReactivateSourceParameters = DeploymentParameter &
  WriteOptions & {
    sourceId: number | bigint
  }

export type ReactivateSourceReturnType = WriteResult & {
  /** The source, now active. */
  sourceId: number
}

export type ReactivateSourceErrorType =
  | InvalidParametersErrorType
  | ContractRevertedErrorType
  | TransactionRevertedErrorType
  | EventNotFoundErrorType
  | Error

const schema = /* @__PURE__ */ z.object({ sourceId: s.uint(32) })

/**
 * Lets a deactivated source take new tasks again. Only its owner may.
 *
 * @example
 * import { reactivateSource } from '@gridforge/sdk'
 *
 * await reactivateSource(client, { deployment, sourceId: 1 })
 */
export async function reactivateSource(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: ReactivateSourceParameters,
): Promise<ReactivateSourceReturnType> {
  const { deployment } = parameters
  const action = 'reactivateSource'
  const params = validate(action, schema, parameters)
  const sources = deployment.contracts.sources
  const receipt = await writeAndWait(client, {
    action,
    hints: sourceRegistryHints,
    address: sources,
    abi: [reactivateFunction, ...sourceRegistryErrors],
    functionName: 'reactivate',
    args: [params.sourceId],
    ...writeOptions(parameters),
  })
  const { args } = findEvent(action, receipt, sources, SourceReactivated)
  return { sourceId: args.sourceId, hash: receipt.transactionHash, blockNumber: receipt.blockNumber }
}
