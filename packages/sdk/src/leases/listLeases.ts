import type { Account, Address, Chain, Client, Transport } from 'viem'
import * as z from 'zod/mini'
import { LeaseAccepted, LeaseRequested } from '../abis/leaseMarket.js'
import type { ContractRevertedErrorType } from '../errors/contract.js'
import type { InvalidParametersErrorType } from '../errors/validation.js'
import { blockWindow, getLogsPaginated } from '../internal/logs.js'
import * as s from '../internal/schemas.js'
import { validate } from '../internal/validate.js'
import type { DeploymentParameter } from '../types/deployment.js'
import { type Lease, type LeaseStatus, leaseStatuses } from '../types/lease.js'
import { getLease } from './getLease.js'

/** Leases read at once: each is one `eth_call` (batched by a client with `batch: { multicall: true }`). */
const leasesInFlight = 20

export type ListLeasesParameters = DeploymentParameter & {
  /** Only leases this account requested. */
  renter?: Address | undefined
  /** Only leases this provider accepted. */
  provider?: Address | undefined
  /** Only leases of this source. */
  sourceId?: number | bigint | undefined
  /** Only leases in this status (or one of these), as they are now. */
  status?: LeaseStatus | readonly LeaseStatus[] | undefined
  /** First block to search, inclusive; default the deployment's block. */
  fromBlock?: bigint | undefined
  /** Last block to search, inclusive; default the latest. */
  toBlock?: bigint | undefined
  /** Most blocks per `eth_getLogs` request (default: the whole range, halved while the RPC refuses it). */
  blockRange?: bigint | undefined
}

/** The leases found, by ascending id. */
export type ListLeasesReturnType = Lease[]

export type ListLeasesErrorType = InvalidParametersErrorType | ContractRevertedErrorType | Error

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
 * node), then reads each lease as it is now and keeps those that match.
 *
 * @example
 * import { listLeases } from '@gridforge/sdk'
 *
 * const mine = await listLeases(client, { deployment, renter: client.account.address, status: 'Active' })
 * for (const lease of mine) console.log(lease.leaseId, lease.provider, lease.servedSec)
 */
export async function listLeases(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: ListLeasesParameters,
): Promise<ListLeasesReturnType> {
  const { deployment } = parameters
  const action = 'listLeases'
  const params = validate(action, schema, parameters)
  const { fromBlock, toBlock } = await blockWindow(client, action, deployment, params)
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
        .map((leaseId) => getLease(client, { deployment, leaseId, blockNumber: toBlock })),
    )
    leases.push(...page.filter(keep))
  }
  return leases
}
