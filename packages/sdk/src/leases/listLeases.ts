import type { Account, Address, Chain, Client, Transport } from 'viem'
import * as z from 'zod/mini'
import { LeaseAccepted, LeaseRequested } from '../abis/leaseMarket.js'
import type { ContractRevertedErrorType } from '../errors/contract.js'
import type { InvalidParametersErrorType } from '../errors/validation.js'
import type { IndexerParameterErrorType } from '../indexer/errors.js'
import { indexedLeaseIds } from '../indexer/leases.js'
import { type IndexerParameter, withIndexer } from '../indexer/withIndexer.js'
import { blockWindow, getLogsPaginated } from '../internal/logs.js'
import * as s from '../internal/schemas.js'
import { validate } from '../internal/validate.js'
import type { Deployment, DeploymentParameter } from '../types/deployment.js'
import { type Lease, type LeaseStatus, leaseStatuses } from '../types/lease.js'
import { getLease } from './getLease.js'

/** Leases read at once: each is one `eth_call` (batched by a client with `batch: { multicall: true }`). */
const leasesInFlight = 20

export type ListLeasesParameters = DeploymentParameter &
  IndexerParameter & {
    /** Only leases this account requested. */
    renter?: Address | undefined
    /** Only leases this provider accepted. */
    provider?: Address | undefined
    /** Only leases of this source. */
    sourceId?: number | bigint | undefined
    /** Only leases in this status (or one of these), as they are now. */
    status?: LeaseStatus | readonly LeaseStatus[] | undefined
    /**
     * First block to search, inclusive; default the deployment's block. With
     * `fromBlock` or `toBlock` the chain's logs are read, indexer or not: the
     * indexer lists whole histories.
     */
    fromBlock?: bigint | undefined
    /** Last block to search, inclusive; default the latest. */
    toBlock?: bigint | undefined
    /**
     * Most blocks per `eth_getLogs` request (default: the whole range, halved
     * while the RPC refuses it). Read through an indexer, no logs are read.
     */
    blockRange?: bigint | undefined
  }

/** The leases found, by ascending id. */
export type ListLeasesReturnType = Lease[]

export type ListLeasesErrorType =
  | InvalidParametersErrorType
  | IndexerParameterErrorType
  | ContractRevertedErrorType
  | Error

const statusName = z.enum(
  leaseStatuses.filter((status) => status !== 'None') as [LeaseStatus, ...LeaseStatus[]],
)

const schema = z.object({
  renter: z.optional(s.address),
  provider: z.optional(s.address),
  sourceId: z.optional(s.uint(32)),
  status: z.optional(z.union([statusName, z.array(statusName)])),
  fromBlock: z.optional(z.bigint()),
  toBlock: z.optional(z.bigint()),
  blockRange: z.optional(z.bigint()),
})

/**
 * Lists leases from the lease market's events (LeaseRequested, or
 * LeaseAccepted with a `provider`; both filter on indexed topics, on the
 * node), then reads each lease as it is now (`getLease`, 20 in flight) and
 * keeps those that match.
 *
 * With an `indexer`, the indexer finds the leases (100 per request, newest
 * first) instead of the logs of the whole history; each is still read from the
 * chain as above and kept only if its state there matches the filters, so a
 * status the indexer has not caught up with does not leak into the result. The
 * result is the same, except for the leases the indexer has not indexed yet.
 *
 * @example
 * import { createPublicClient, http } from 'viem'
 * import { hardhat } from 'viem/chains'
 * import { getDeployment } from '@gridforge/contracts'
 * import { listLeases } from '@gridforge/sdk'
 *
 * const client = createPublicClient({ chain: hardhat, transport: http() })
 * const mine = await listLeases(client, {
 *   deployment: getDeployment(31337),
 *   renter: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
 *   status: 'Active',
 * })
 * for (const lease of mine) console.log(lease.leaseId, lease.provider, lease.servedSec)
 *
 * // Or through an indexer, the chain's logs when it is down.
 * const served = await listLeases(client, {
 *   deployment: getDeployment(31337),
 *   provider: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
 *   status: ['Requested', 'Active'],
 *   indexer: 'http://127.0.0.1:42069',
 * })
 */
export async function listLeases(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: ListLeasesParameters,
): Promise<ListLeasesReturnType> {
  const params = validate('listLeases', schema, parameters)
  return withIndexer(
    'listLeases',
    parameters.indexer,
    params.fromBlock === undefined && params.toBlock === undefined,
    async (indexer) => {
      const ids = await indexedLeaseIds(indexer, params)
      return readLeases(client, parameters.deployment, params, ids)
    },
    () => listLeasesFromLogs(client, parameters.deployment, params),
  )
}

type Params = z.output<typeof schema>

/** The leases of the lease market's logs (LeaseRequested, or LeaseAccepted with a `provider`) in the block window. */
async function listLeasesFromLogs(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  deployment: Deployment,
  params: Params,
): Promise<ListLeasesReturnType> {
  const { fromBlock, toBlock } = await blockWindow(client, 'listLeases', deployment, params)
  const range = { address: deployment.contracts.leases, fromBlock, toBlock, blockRange: params.blockRange }
  const requestedArgs = {
    ...(params.renter === undefined ? {} : { renter: params.renter }),
    ...(params.sourceId === undefined ? {} : { sourceId: params.sourceId }),
  }
  const logs =
    params.provider === undefined
      ? await getLogsPaginated(client, { ...range, event: LeaseRequested, args: requestedArgs })
      : await getLogsPaginated(client, {
          ...range,
          event: LeaseAccepted,
          args: { provider: params.provider },
        })
  const ids = [...new Set(logs.map((log) => log.args.leaseId))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  return readLeases(client, deployment, params, ids, toBlock)
}

/**
 * The leases `ids` (ascending) that match the filters on their state read
 * from the chain, as of `blockNumber` (default: the latest block). The
 * filters are checked here whichever way the ids were found: LeaseAccepted
 * logs carry neither renter nor source, and the indexer's status may be late.
 */
async function readLeases(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  deployment: Deployment,
  params: Params,
  ids: readonly bigint[],
  blockNumber?: bigint | undefined,
): Promise<ListLeasesReturnType> {
  const statuses =
    params.status === undefined
      ? undefined
      : new Set<LeaseStatus>(Array.isArray(params.status) ? params.status : [params.status as LeaseStatus])
  const same = (a: Address, b: Address | undefined) => b === undefined || a.toLowerCase() === b.toLowerCase()
  const keep = (lease: Lease) =>
    (statuses === undefined || statuses.has(lease.status)) &&
    same(lease.renter, params.renter) &&
    same(lease.provider, params.provider) &&
    (params.sourceId === undefined || lease.sourceId === params.sourceId)

  const leases: Lease[] = []
  for (let i = 0; i < ids.length; i += leasesInFlight) {
    const page = await Promise.all(
      ids
        .slice(i, i + leasesInFlight)
        .map((leaseId) => getLease(client, { deployment, leaseId, blockNumber })),
    )
    leases.push(...page.filter(keep))
  }
  return leases
}
