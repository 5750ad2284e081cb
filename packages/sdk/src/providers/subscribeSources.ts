import type { Account, Chain, Client, Transport } from 'viem'
import { parseEventLogs } from 'viem'
import * as z from 'zod/mini'
import { ProviderSubscribed, errors as providerRegistryErrors, subscribe } from '../abis/providerRegistry.js'
import type { ContractRevertedErrorType } from '../errors/contract.js'
import { providerRegistryHints } from '../errors/hints/registries.js'
import type { TransactionRevertedErrorType } from '../errors/transaction.js'
import type { InvalidParametersErrorType } from '../errors/validation.js'
import * as s from '../internal/schemas.js'
import { validate } from '../internal/validate.js'
import { type WriteOptions, type WriteResult, writeAndWait, writeOptions } from '../internal/write.js'
import type { DeploymentParameter } from '../types/deployment.js'

export type SubscribeSourcesParameters = DeploymentParameter &
  WriteOptions & {
    /** 1 to 100 source ids. */
    sourceIds: readonly (number | bigint)[]
  }

export type SubscribeSourcesReturnType = WriteResult & {
  /** The ids newly subscribed (those already subscribed are left out). */
  subscribed: number[]
}

export type SubscribeSourcesErrorType =
  | InvalidParametersErrorType
  | ContractRevertedErrorType
  | TransactionRevertedErrorType
  | Error

const schema = /* @__PURE__ */ z.object({
  sourceIds: z
    .array(s.uint(32), { error: 'expected a list of source ids' })
    .check(
      z.minLength(1, { error: 'list at least one source id' }),
      z.maxLength(100, { error: 'at most 100 ids per call: split the list' }),
    ),
})

/**
 * Joins the pools of sources: the provider can then claim their tasks. Ids already subscribed are skipped; at most 100 per call. The provider must be registered.
 *
 * @example
 * import { subscribeSources } from '@gridforge/sdk'
 *
 * const { subscribed } = await subscribeSources(client, { deployment, sourceIds: [1, 2, 3] })
 */
export async function subscribeSources(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: SubscribeSourcesParameters,
): Promise<SubscribeSourcesReturnType> {
  const { deployment } = parameters
  const action = 'subscribeSources'
  const params = validate(action, schema, parameters)
  const providers = deployment.contracts.providers
  const receipt = await writeAndWait(client, {
    action,
    hints: providerRegistryHints,
    address: providers,
    abi: [subscribe, ...providerRegistryErrors],
    functionName: 'subscribe',
    args: [params.sourceIds],
    ...writeOptions(parameters),
  })
  const logs = parseEventLogs({
    abi: [ProviderSubscribed],
    logs: receipt.logs.filter((log) => log.address.toLowerCase() === providers.toLowerCase()),
  })
  return {
    subscribed: logs.map((log) => log.args.sourceId),
    hash: receipt.transactionHash,
    blockNumber: receipt.blockNumber,
  }
}
