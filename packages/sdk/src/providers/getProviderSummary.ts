import { type Account, type Address, type Chain, type Client, isAddressEqual, type Transport } from 'viem'
import * as z from 'zod/mini'
import { LeaseAccepted, LeaseSettled, UsageRedeemed } from '../abis/leaseMarket.js'
import { ReplicaPaid } from '../abis/taskMarket.js'
import type { ContractRevertedErrorType } from '../errors/contract.js'
import type { InvalidParametersErrorType } from '../errors/validation.js'
import type { IndexerClient } from '../indexer/createIndexerClient.js'
import type { IndexerParameterErrorType } from '../indexer/errors.js'
import { type IndexedLeases, type IndexedProvider, indexedProvider } from '../indexer/providers.js'
import { type IndexerParameter, withIndexer } from '../indexer/withIndexer.js'
import { getLogsPaginated } from '../internal/logs.js'
import * as s from '../internal/schemas.js'
import { validate } from '../internal/validate.js'
import type { GetStakeReturnType } from '../staking/getStake.js'
import { getStake } from '../staking/getStake.js'
import { listTasks } from '../tasks/listTasks.js'
import type { Deployment, DeploymentParameter } from '../types/deployment.js'
import type { SlotStatus, Task, TaskStatus } from '../types/task.js'
import { accountAddress } from '../wallet/account.js'
import { getPriceFloor } from './getPriceFloor.js'
import { getProvider } from './getProvider.js'
import type { Capabilities } from './registerProvider.js'

/** A provider's track record. Counts are of slots (a task with replicas has several). */
export interface ProviderRecord {
  /** Replica slots claimed. */
  claimed: number
  /** Audit slots joined; `undefined` over RPC (the registry does not count them). */
  audits: number | undefined
  /**
   * Replica slots paid whose result was an output, as the registry counts
   * them for reputation gates: work paid under its `minRecordPayment`
   * (`getProviderRegistryParams`) is left out. (The indexer counts an audited
   * result once it is released, the registry as soon as it comes in.)
   */
  completed: number
  /** Slots paid whose result was a failure report (never slashed, not against the success rate). */
  failedRuns: number
  /** Slots not delivered in time (no-shows, missed commitments or reveals): slashed. */
  failed: number
  /** Slots whose result lost a vote or an audit: slashed. */
  outvoted: number
  /** completed / (completed + failed + outvoted) in basis points; 0 without history. */
  successBps: number
  /** Collateral slashed, in base units. */
  slashedAmount: bigint
  /** Runtime paid for, in seconds. */
  runtimeSec: number
}

/** What the market paid a provider, in base units of the token. */
export interface ProviderEarnings {
  /** Payments for its slots, the protocol fee included. */
  paid: bigint
  /** The protocol fee taken from them. */
  fees: bigint
  /** `paid − fees`: what it received. */
  earned: bigint
}

/** What a provider's leases brought it, in base units of the token. */
export interface ProviderLeaseEarnings {
  /** Leases it accepted. */
  accepted: number
  /** Redeemed usage acknowledgements, the protocol fee included. */
  paid: bigint
  /** The protocol fee taken from them. */
  fees: bigint
  /** `paid − fees`: what it received. */
  earned: bigint
  /** Paid to renters out of its collateral (offline, or under a lease's uptime threshold). */
  penalties: bigint
}

/** One provider at a glance: profile, record, earnings, stake and the tasks it is working on. */
export interface ProviderSummary {
  provider: Address
  /** Whether it registered; an unknown address has `registered: false` and every figure zero. */
  registered: boolean
  /** Whether it stopped claiming new tasks. */
  paused: boolean
  /** When it registered; `undefined` when it did not. */
  registeredAt: Date | undefined
  /** Its host: GPU count, VRAM of the smallest GPU, lowest compute capability × 10, CPU cores, memory. */
  capabilities: Capabilities
  /** The least it takes per GPU-second, in base units (0n: any price). */
  priceFloor: bigint
  record: ProviderRecord
  /** What tasks paid it. */
  earnings: ProviderEarnings
  /** What leases paid it, and what its collateral paid renters. */
  leases: ProviderLeaseEarnings
  /** Its position in Staking: its collateral for claims. */
  stake: GetStakeReturnType
  /** The sources whose pool it is in, ascending; `undefined` over RPC (the registry keeps no list). */
  sources: number[] | undefined
  /**
   * The tasks it is working on, by ascending id: not settled yet, with a slot
   * it holds (claimed, committed, or its result in and awaiting payment).
   */
  currentTasks: Task[]
  /** Where the profile, record, earnings and stake were read: the indexer, or the chain over RPC. */
  readFrom: 'indexer' | 'chain'
}

export type GetProviderSummaryParameters = DeploymentParameter &
  IndexerParameter & {
    /** The provider (default: the client's account). */
    provider?: Address | undefined
  }

export type GetProviderSummaryReturnType = ProviderSummary

export type GetProviderSummaryErrorType =
  | InvalidParametersErrorType
  | IndexerParameterErrorType
  | ContractRevertedErrorType
  | Error

const schema = /* @__PURE__ */ z.object({ provider: z.optional(s.address) })

/** Statuses of a task that is not settled: a provider may hold one of its slots. */
const unsettled = [
  'Open',
  'Claimed',
  'Revealing',
  'Held',
  'Auditing',
] as const satisfies readonly TaskStatus[]

/** Slot statuses of a slot still held: not free, not forfeited. */
const held: readonly SlotStatus[] = ['Claimed', 'Committed', 'Submitted']

/**
 * Reads one provider at a glance: whether it is registered and paused, its
 * capabilities (GPUs, VRAM, compute capability), its price floor, its record
 * and success rate, what the market paid it, its stake, and the tasks it is
 * working on now.
 *
 * With an `indexer`, one request (`GET /providers/{address}`) gives the
 * profile, record, earnings, stake and subscribed sources, and the indexer
 * finds the current tasks (`listTasks` with `provider`), whose state is read
 * from the chain. Without one, or when it cannot answer, the chain is read over
 * RPC: the registry's profile and record, the price floor, the stake, the
 * provider's `ReplicaPaid` events over the deployment's history (earnings),
 * its leases' `UsageRedeemed` and `LeaseSettled` events (lease earnings and
 * penalties) and its `TaskClaimed` events (current tasks). Over RPC, `record.audits` and
 * `sources` are `undefined`: the contracts keep neither count nor list.
 *
 * The indexer's figures are as of the last block it indexed: right after a
 * payment they may lag the chain by a block or two.
 *
 * @example
 * import { getProviderSummary, formatAmount } from '@gridforge/sdk'
 *
 * const summary = await getProviderSummary(client, {
 *   deployment,
 *   provider: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
 *   indexer: 'http://127.0.0.1:42069',
 * })
 * console.log(`${summary.record.completed} completed, earned ${formatAmount(summary.earnings.earned)}`)
 * for (const task of summary.currentTasks) console.log(task.taskId, task.status)
 */
export async function getProviderSummary(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: GetProviderSummaryParameters,
): Promise<GetProviderSummaryReturnType> {
  const action = 'getProviderSummary'
  const params = validate(action, schema, parameters)
  const provider = accountAddress(client, action, params.provider, 'provider')
  const { deployment } = parameters
  return withIndexer(
    action,
    parameters.indexer,
    true,
    async (indexer) => {
      const [indexed, currentTasks] = await Promise.all([
        indexedProvider(indexer, provider),
        readCurrentTasks(client, deployment, provider, indexer),
      ])
      // Unknown to the indexer: never registered, or registered after its last block. The chain tells.
      if (indexed === undefined)
        return { ...(await readFromChain(client, deployment, provider)), currentTasks }
      // An indexer from before leases were indexed: their earnings come from the chain.
      const leases =
        indexed.leases === undefined
          ? await readLeaseEarnings(client, deployment, provider)
          : leaseEarningsOf(indexed.leases)
      return { ...fromIndexed(provider, indexed, leases), currentTasks }
    },
    async () => {
      const [summary, currentTasks] = await Promise.all([
        readFromChain(client, deployment, provider),
        readCurrentTasks(client, deployment, provider, undefined),
      ])
      return { ...summary, currentTasks }
    },
  )
}

type Profile = Omit<ProviderSummary, 'currentTasks'>

/** The indexer's lease counts, amounts as bigints. */
function leaseEarningsOf({ accepted, paid, fees, penalties }: IndexedLeases): ProviderLeaseEarnings {
  return {
    accepted,
    paid: BigInt(paid),
    fees: BigInt(fees),
    earned: BigInt(paid) - BigInt(fees),
    penalties: BigInt(penalties),
  }
}

function fromIndexed(provider: Address, indexed: IndexedProvider, leases: ProviderLeaseEarnings): Profile {
  const { record, reputation, earnings, stake } = indexed
  const paid = BigInt(earnings.paid)
  const fees = BigInt(earnings.fees)
  const staked = BigInt(stake.staked)
  const locked = BigInt(stake.locked)
  const unbonding = BigInt(stake.unbonding)
  return {
    provider,
    registered: true,
    paused: indexed.paused,
    registeredAt: new Date(indexed.registeredAt.unix * 1000),
    capabilities: indexed.capabilities,
    priceFloor: BigInt(indexed.priceFloor),
    record: {
      claimed: record.claims,
      audits: record.audits,
      completed: reputation.completed,
      failedRuns: record.failedRuns,
      failed: record.failed,
      outvoted: record.outvoted,
      successBps: reputation.successBps,
      slashedAmount: BigInt(record.slashedAmount),
      runtimeSec: earnings.runtimeSec,
    },
    earnings: { paid, fees, earned: paid - fees },
    leases,
    stake: {
      staked,
      locked,
      available: staked - locked,
      unbonding,
      unbondingReadyAt:
        unbonding === 0n || stake.unbondingReadyAt === null
          ? undefined
          : new Date(stake.unbondingReadyAt.unix * 1000),
    },
    sources: indexed.sources,
    readFrom: 'indexer',
  }
}

/** The registry's profile and record, the price floor, the stake, and the earnings summed from ReplicaPaid events. */
async function readFromChain(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  deployment: Deployment,
  provider: Address,
): Promise<Profile> {
  const [profile, priceFloor, stake, payments, leases] = await Promise.all([
    getProvider(client, { deployment, provider }),
    getPriceFloor(client, { deployment, provider }),
    getStake(client, { deployment, account: provider }),
    getLogsPaginated(client, {
      address: deployment.contracts.market,
      event: ReplicaPaid,
      args: { provider },
      fromBlock: BigInt(deployment.blockNumber),
    }),
    readLeaseEarnings(client, deployment, provider),
  ])
  let paid = 0n
  let fees = 0n
  for (const { args } of payments) {
    paid += args.payment
    fees += args.fee
  }
  const { reputation } = profile
  return {
    provider,
    registered: profile.registered,
    paused: profile.paused,
    registeredAt: profile.registeredAt,
    capabilities: profile.capabilities,
    priceFloor,
    record: {
      claimed: reputation.claimed,
      audits: undefined,
      completed: reputation.completed,
      failedRuns: reputation.failedRuns,
      failed: reputation.failed,
      outvoted: reputation.outvoted,
      successBps: reputation.successBps,
      slashedAmount: reputation.slashedAmount,
      runtimeSec: reputation.totalRuntimeSec,
    },
    earnings: { paid, fees, earned: paid - fees },
    leases,
    stake,
    sources: undefined,
    readFrom: 'chain',
  }
}

/** Lease ids per `eth_getLogs` topic filter: nodes cap how many values one topic may list. */
const leaseIdsPerRequest = 100

/** The provider's leases (its `LeaseAccepted`), what their redemptions paid and their settlements' penalties. */
async function readLeaseEarnings(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  deployment: Deployment,
  provider: Address,
): Promise<ProviderLeaseEarnings> {
  const range = { address: deployment.contracts.leases, fromBlock: BigInt(deployment.blockNumber) }
  const accepted = await getLogsPaginated(client, { ...range, event: LeaseAccepted, args: { provider } })
  const ids = accepted.map((log) => log.args.leaseId)
  let paid = 0n
  let fees = 0n
  let penalties = 0n
  for (let start = 0; start < ids.length; start += leaseIdsPerRequest) {
    const leaseId = ids.slice(start, start + leaseIdsPerRequest)
    const [redeemed, settled] = await Promise.all([
      getLogsPaginated(client, { ...range, event: UsageRedeemed, args: { leaseId } }),
      getLogsPaginated(client, { ...range, event: LeaseSettled, args: { leaseId } }),
    ])
    for (const { args } of redeemed) {
      paid += args.payment
      fees += args.fee
    }
    for (const { args } of settled) penalties += args.penalty
  }
  return { accepted: ids.length, paid, fees, earned: paid - fees, penalties }
}

/** The unsettled tasks in which `provider` holds a slot (found through the indexer when given, else the logs). */
async function readCurrentTasks(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  deployment: Deployment,
  provider: Address,
  indexer: IndexerClient | undefined,
): Promise<Task[]> {
  const tasks = await listTasks(client, { deployment, provider, status: unsettled, indexer })
  // Listed by any claim it made: a slot it lost (reopened, taken in the race for seats) is not work.
  return tasks.filter((task) =>
    task.slots.some(
      (slot) =>
        slot.provider !== undefined && isAddressEqual(slot.provider, provider) && held.includes(slot.status),
    ),
  )
}
