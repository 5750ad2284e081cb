import type { Account, Chain, Client, Transport } from 'viem'
import { parseEventLogs } from 'viem'
import * as z from 'zod/mini'
import {
  ProviderUnsubscribed,
  errors as providerRegistryErrors,
  unsubscribe,
} from '../abis/providerRegistry.js'
import type { ContractRevertedErrorType } from '../errors/contract.js'
import { providerRegistryHints } from '../errors/hints/registries.js'
import type { TransactionRevertedErrorType } from '../errors/transaction.js'
import type { InvalidParametersErrorType } from '../errors/validation.js'
import * as s from '../internal/schemas.js'
import { validate } from '../internal/validate.js'
import { type WriteOptions, type WriteResult, writeAndWait, writeOptions } from '../internal/write.js'
import type { DeploymentParameter } from '../types/deployment.js'

export type UnsubscribeSourcesParameters = DeploymentParameter &
  WriteOptions & {
    /** 1 to 100 source ids. */
    sourceIds: readonly (number | bigint)[]
  }

export type UnsubscribeSourcesReturnType = WriteResult & {
  /** The ids actually left (those not subscribed are left out). */
  unsubscribed: number[]
}

export type UnsubscribeSourcesErrorType =
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
 * Leaves the pools of sources: the provider stops being able to claim their tasks (claims already made are unaffected). Ids not subscribed are skipped; at most 100 per call.
 *
 * @example
 * import { unsubscribeSources } from '@gridforge/sdk'
 *
 * const { unsubscribed } = await unsubscribeSources(client, { deployment, sourceIds: [1, 2, 3] })
 */
export async function unsubscribeSources(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: UnsubscribeSourcesParameters,
): Promise<UnsubscribeSourcesReturnType> {
  const { deployment } = parameters
  const action = 'unsubscribeSources'
  const params = validate(action, schema, parameters)
  const providers = deployment.contracts.providers
  const receipt = await writeAndWait(client, {
    action,
    hints: providerRegistryHints,
    address: providers,
    abi: [unsubscribe, ...providerRegistryErrors],
    functionName: 'unsubscribe',
    args: [params.sourceIds],
    ...writeOptions(parameters),
  })
  const logs = parseEventLogs({
    abi: [ProviderUnsubscribed],
    logs: receipt.logs.filter((log) => log.address.toLowerCase() === providers.toLowerCase()),
  })
  return {
    unsubscribed: logs.map((log) => log.args.sourceId),
    hash: receipt.transactionHash,
    blockNumber: receipt.blockNumber,
  }
}
