import type { Account, Chain, Client, Transport } from 'viem'
import * as z from 'zod/mini'
import {
  deactivate as deactivateFunction,
  SourceDeactivated,
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

export type DeactivateSourceParameters = DeploymentParameter &
  WriteOptions & {
    sourceId: number | bigint
  }

export type DeactivateSourceReturnType = WriteResult & {
  /** The source, now inactive. */
  sourceId: number
}

export type DeactivateSourceErrorType =
  | InvalidParametersErrorType
  | ContractRevertedErrorType
  | TransactionRevertedErrorType
  | EventNotFoundErrorType
  | Error

const schema = /* @__PURE__ */ z.object({ sourceId: s.uint(32) })

/**
 * Stops a source from taking new tasks (tasks already submitted are unaffected). Only its owner may; `reactivateSource` undoes it.
 *
 * @example
 * import { deactivateSource } from '@gridforge/sdk'
 *
 * await deactivateSource(client, { deployment, sourceId: 1 })
 */
export async function deactivateSource(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: DeactivateSourceParameters,
): Promise<DeactivateSourceReturnType> {
  const { deployment } = parameters
  const action = 'deactivateSource'
  const params = validate(action, schema, parameters)
  const sources = deployment.contracts.sources
  const receipt = await writeAndWait(client, {
    action,
    hints: sourceRegistryHints,
    address: sources,
    abi: [deactivateFunction, ...sourceRegistryErrors],
    functionName: 'deactivate',
    args: [params.sourceId],
    ...writeOptions(parameters),
  })
  const { args } = findEvent(action, receipt, sources, SourceDeactivated)
  return { sourceId: args.sourceId, hash: receipt.transactionHash, blockNumber: receipt.blockNumber }
}
