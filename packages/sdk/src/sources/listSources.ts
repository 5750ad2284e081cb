import type { Account, Address, Chain, Client, Transport } from 'viem'
import { getBlockNumber, multicall } from 'viem/actions'
import { getAction } from 'viem/utils'
import * as z from 'zod/mini'
import { getSource, SourcePublished, SourceTransferred } from '../abis/sourceRegistry.js'
import type { InvalidParametersErrorType } from '../errors/validation.js'
import type { IndexerParameterErrorType } from '../indexer/errors.js'
import { indexedSources } from '../indexer/sources.js'
import { type IndexerParameter, withIndexer } from '../indexer/withIndexer.js'
import { getLogsPaginated } from '../internal/logs.js'
import * as s from '../internal/schemas.js'
import { validate } from '../internal/validate.js'
import type { Deployment, DeploymentParameter } from '../types/deployment.js'
import { type Source, type SourceStruct, toSource } from './getSource.js'

export type ListSourcesParameters = DeploymentParameter &
  IndexerParameter & {
    /** Only sources this address owns now (published by it or transferred to it). */
    owner?: Address | undefined
    /** Only active (`true`) or deactivated (`false`) sources. */
    active?: boolean | undefined
    /**
     * First block to search for publications (default: the deployment's block).
     * With `fromBlock` or `toBlock` the chain's logs are read, indexer or not.
     */
    fromBlock?: bigint | undefined
    /** Last block to search, and the block whose state is returned (default: the latest). */
    toBlock?: bigint | undefined
    /** Most blocks per `eth_getLogs` request (default 10,000; halved automatically if the RPC refuses). */
    blockRange?: bigint | undefined
  }

/** The matching sources by increasing id, in their state at `toBlock`. */
export type ListSourcesReturnType = Source[]

export type ListSourcesErrorType = InvalidParametersErrorType | IndexerParameterErrorType | Error

const schema = /* @__PURE__ */ z.object({
  owner: z.optional(s.address),
  active: z.optional(z.boolean({ error: 'expected true or false' })),
  fromBlock: z.optional(z.bigint({ error: 'expected a block number as a bigint' })),
  toBlock: z.optional(z.bigint({ error: 'expected a block number as a bigint' })),
  blockRange: z.optional(
    z.bigint({ error: 'expected a bigint' }).check(z.gte(1n, { error: 'must be at least 1n' })),
  ),
})

/**
 * Lists sources: finds them from `SourcePublished` logs (and, with `owner`,
 * `SourceTransferred` logs to it), `blockRange` blocks per request, then reads
 * the current state of all of them in one multicall and filters by owner and
 * status.
 *
 * With an `indexer`, the indexer lists them (100 per request) as it last
 * indexed them, and the chain is not read.
 *
 * @example
 * import { listSources } from '@gridforge/sdk'
 *
 * const mine = await listSources(client, { deployment, owner: client.account.address, active: true })
 * for (const source of mine) console.log(source.sourceId, source.metadata)
 */
export async function listSources(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: ListSourcesParameters,
): Promise<ListSourcesReturnType> {
  const params = validate('listSources', schema, parameters)
  return withIndexer(
    'listSources',
    parameters.indexer,
    params.fromBlock === undefined && params.toBlock === undefined,
    (indexer) => indexedSources(indexer, params),
    () => listSourcesFromLogs(client, parameters.deployment, params),
  )
}

/** The sources of the registry's logs in the block window, in their state at its end. */
async function listSourcesFromLogs(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  deployment: Deployment,
  params: z.output<typeof schema>,
): Promise<ListSourcesReturnType> {
  const address = deployment.contracts.sources
  const fromBlock = params.fromBlock ?? BigInt(deployment.blockNumber)
  const toBlock =
    params.toBlock ?? (await getAction(client, getBlockNumber, 'getBlockNumber')({ cacheTime: 0 }))
  const range = { address, fromBlock, toBlock, blockRange: params.blockRange ?? 10_000n }
  const [published, transferred] = await Promise.all([
    getLogsPaginated(client, {
      ...range,
      event: SourcePublished,
      ...(params.owner === undefined ? {} : { args: { owner: params.owner } }),
    }),
    params.owner === undefined
      ? []
      : getLogsPaginated(client, { ...range, event: SourceTransferred, args: { to: params.owner } }),
  ])
  const ids = [...new Set([...published, ...transferred].map((log) => log.args.sourceId))].sort(
    (a, b) => a - b,
  )
  if (ids.length === 0) return []
  // Without a Multicall3 on the chain, viem deploys one inside each eth_call; its init code and return
  // data are size-capped, so such calls carry viem's default ~13 reads each instead of all at once.
  const deployless = client.chain?.contracts?.multicall3 === undefined
  const structs = (await getAction(
    client,
    multicall,
    'multicall',
  )({
    contracts: ids.map((sourceId) => ({
      address,
      abi: [getSource],
      functionName: 'getSource',
      args: [sourceId],
    })),
    allowFailure: false,
    deployless,
    ...(deployless ? {} : { batchSize: 0 }),
    blockNumber: toBlock,
  })) as SourceStruct[]
  return ids
    .map((sourceId, index) => toSource(sourceId, structs[index] as SourceStruct))
    .filter(
      (source) =>
        (params.owner === undefined || source.owner.toLowerCase() === params.owner.toLowerCase()) &&
        (params.active === undefined || source.active === params.active),
    )
}
