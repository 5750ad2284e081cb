import type { Account, Chain, Client, Transport } from 'viem'
import { sourceCount } from '../abis/sourceRegistry.js'
import { sourceRegistryHints } from '../errors/hints/registries.js'
import { read } from '../internal/write.js'
import type { DeploymentParameter } from '../types/deployment.js'

export type GetSourceCountParameters = DeploymentParameter & {
  /** Read at this block instead of the latest. */
  blockNumber?: bigint | undefined
}

/** How many sources were ever published: ids run from 1 to this number. */
export type GetSourceCountReturnType = number

export type GetSourceCountErrorType = Error

/**
 * Reads how many sources were ever published (deactivated ones included), which
 * is also the highest source id.
 *
 * @example
 * import { getSourceCount } from '@gridforge/sdk'
 *
 * const count = await getSourceCount(client, { deployment })
 */
export async function getSourceCount(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: GetSourceCountParameters,
): Promise<GetSourceCountReturnType> {
  return read<number>(client, {
    action: 'getSourceCount',
    hints: sourceRegistryHints,
    address: parameters.deployment.contracts.sources,
    abi: [sourceCount],
    functionName: 'sourceCount',
    blockNumber: parameters.blockNumber,
  })
}
