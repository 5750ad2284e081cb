import {
  acceptLease,
  type Deployment,
  endForSilence,
  type GetLeaseEndReturnType,
  type GetLeaseParamsReturnType,
  type Lease,
  redeemUsage,
  settleLease,
} from '@gridforge/sdk'
import type { Account, Address, Chain, Client, Hash, Transport } from 'viem'
import type { LeaseGateway } from '../../lease/leaseGateway.js'
import type { Logger } from '../../logger.js'
import type { GpuPool } from '../../runtime/gpuPool.js'
import type { LeaseContainerSpec, LeaseRuntime } from '../../runtime/LeaseRuntime.js'
import { isTransient, messageOf } from '../errorKind.js'
import type { JournaledAck, LeaseEntry, LeaseStepName } from './leaseJournal.js'

/** What every lease step shares. */
export interface LeaseContext {
  client: Client<Transport, Chain, Account>
  /** Where the lease market is (`contracts.leases`). */
  deployment: Deployment
  address: Address
  leases: LeaseRuntime
  gateway: LeaseGateway
  logger: Logger
  /** One transaction at a time, shared with the tasks. */
  transact: <T>(send: () => Promise<T>) => Promise<T>
  /** The host's GPUs, shared with the tasks: a lease holds those of its entry. */
  gpus: GpuPool
  /** The container spec of a lease (the source's image, port, network), pinned to `gpus`. */
  containerSpec: (leaseId: bigint, sourceId: number, gpus: readonly string[]) => Promise<LeaseContainerSpec>
  /** Milliseconds between redemptions of the latest acknowledgement. */
  redeemEveryMs: number
  now: () => number
}

/** The lease as the chain says now: what every step decides from. */
export interface LeaseView {
  lease: Lease
  end: GetLeaseEndReturnType
  params: GetLeaseParamsReturnType
  /** The latest block's time, seconds. */
  nowSec: number
}

/** One step: from a lease's journal entry and the chain's view, its next entry (the same one: wait). */
export type LeaseStep = (context: LeaseContext, entry: LeaseEntry, view: LeaseView) => Promise<LeaseEntry>

const to = (entry: LeaseEntry, step: LeaseStepName, fields: Partial<LeaseEntry> = {}): LeaseEntry => ({
  ...entry,
  ...fields,
  step,
})

/** Gives the lease's GPUs back to the pool (its container is gone, or never started); the entry forgets them. */
function withoutGpus(context: LeaseContext, entry: LeaseEntry): LeaseEntry {
  if (entry.gpus === undefined) return entry
  context.gpus.release(entry.gpus)
  return { ...entry, gpus: undefined }
}

const ended = ({ lease, end, nowSec }: LeaseView) =>
  lease.status === 'Settled' || (lease.status === 'Active' && end.endsAt <= nowSec)

/** `accepting` → `starting` once the lease is ours; `done` when someone else took it or it expired. */
const accepting: LeaseStep = async (context, entry, view) => {
  const { lease, nowSec } = view
  const leaseId = BigInt(entry.leaseId)
  if (lease.status === 'Active' || lease.status === 'Settled')
    return lease.provider.toLowerCase() === context.address.toLowerCase()
      ? to(entry, 'starting')
      : to(withoutGpus(context, entry), 'done', { outcome: `accepted by ${lease.provider}` })
  if (lease.status !== 'Requested' || lease.acceptBy < nowSec)
    return to(withoutGpus(context, entry), 'done', { outcome: 'the request expired or was cancelled' })
  let txHash: Hash
  try {
    const pricePerSec = BigInt(entry.pricePerSec)
    const accepted = await context.transact(() =>
      acceptLease(context.client, { deployment: context.deployment, leaseId, pricePerSec }),
    )
    txHash = accepted.hash
  } catch (error) {
    // A revert (not eligible, not enough free stake, taken meanwhile) does not get better by retrying.
    if (isTransient(error)) throw error
    context.logger.warn('lease not accepted', { leaseId, error: messageOf(error) })
    return to(withoutGpus(context, entry), 'done', { outcome: `not accepted: ${messageOf(error)}` })
  }
  context.logger.info('lease accepted', { leaseId, pricePerSec: entry.pricePerSec, txHash })
  return to(entry, 'starting', { txHash })
}

/**
 * `starting` → `serving`: starts the lease's container (a running one is re-attached as it is, never
 * restarted) and serves it through the gateway. Also what a restarted agent does for a `serving` lease.
 */
const starting: LeaseStep = async (context, entry, view) => {
  if (ended(view)) return to(entry, 'ending')
  const leaseId = BigInt(entry.leaseId)
  const found = await context.leases.findLeaseContainer(leaseId)
  const container =
    found?.running === true
      ? found
      : await context.leases.startLeaseContainer(
          await context.containerSpec(leaseId, entry.sourceId, entry.gpus ?? []),
        )
  if (container.upstream === undefined) throw new Error(`lease ${leaseId}'s container has no address`)
  context.gateway.serveLease(leaseId, container.upstream, { lastAck: entry.lastAck })
  context.logger.info(container === found || container.reattached ? 'lease re-attached' : 'lease serving', {
    leaseId,
    container: container.containerId,
    url: context.gateway.leaseUrl(leaseId),
  })
  return to(entry, 'serving', { containerId: container.containerId })
}

/**
 * `serving`: redeems the latest acknowledgement on schedule, and at once when the renter reports the
 * provider offline; ends the lease for silence once the renter's latest acknowledgement is `ackGrace`
 * old; `ending` when the lease ends.
 */
const serving: LeaseStep = async (context, entry, view) => {
  if (ended(view)) return to(entry, 'ending')
  const { lease, params, nowSec } = view
  const leaseId = BigInt(entry.leaseId)
  const ack = latestAck(context, entry)
  const unredeemed = ack !== undefined && ack.at > lease.lastProofAt
  const reported = lease.reportedAt !== 0
  const due = context.now() - (entry.redeemedMs ?? 0) >= context.redeemEveryMs
  if (unredeemed && (reported || due)) {
    const { hash: txHash } = await context.transact(() => redeem(context, leaseId, ack))
    context.logger.info('usage redeemed', { leaseId, servedSec: ack.servedSec, at: ack.at, reported, txHash })
    return to(entry, 'serving', { lastAck: ack, redeemedAt: ack.at, redeemedMs: context.now(), txHash })
  }
  const lastSeen = Math.max(ack?.at ?? 0, lease.lastProofAt, lease.startedAt)
  if (nowSec - lastSeen >= params.ackGrace) {
    // The contract wants the acknowledgement ackGrace old; a newer one than the last proof, or none.
    const silent = ack !== undefined && ack.at > lease.lastProofAt ? ack : undefined
    const { hash: txHash } = await context.transact(() =>
      endForSilence(context.client, {
        deployment: context.deployment,
        leaseId,
        usage: silent && { servedSec: silent.servedSec, at: silent.at, signature: silent.signature },
      }),
    )
    context.logger.info('lease ended for renter silence', { leaseId, lastSeen, txHash })
    return to(entry, 'ending', { lastAck: ack, txHash })
  }
  return ack === entry.lastAck ? entry : to(entry, 'serving', { lastAck: ack })
}

/**
 * `ending` → `done`: stops serving and removes the container, then settles: redeems the latest
 * acknowledgement not redeemed yet (which settles an ended lease), or `settleLease`. An offline
 * report's answer window still open makes it wait (the next look tries again).
 */
const ending: LeaseStep = async (context, entry, view) => {
  const { lease, end } = view
  const leaseId = BigInt(entry.leaseId)
  context.gateway.stopServing(leaseId)
  await context.leases.stopLeaseContainer(leaseId)
  // The container is gone: its GPUs go back to the pool for tasks and other leases, journaled before
  // anything else is sent (a release that is not journaled would be given again after a restart).
  if (entry.gpus !== undefined) return withoutGpus(context, entry)
  if (lease.status === 'Settled') {
    context.logger.info('lease settled', { leaseId, reason: lease.reason })
    return to(entry, 'done', { outcome: `settled: ${lease.reason}` })
  }
  const ack = latestAck(context, entry)
  if (ack !== undefined && ack.at > lease.lastProofAt && ack.at <= end.endsAt) {
    const { hash: txHash } = await context.transact(() => redeem(context, leaseId, ack))
    context.logger.info('last usage redeemed', { leaseId, servedSec: ack.servedSec, at: ack.at, txHash })
    return to(entry, 'ending', { redeemedAt: ack.at, lastAck: ack, txHash })
  }
  try {
    const { hash: txHash } = await context.transact(() =>
      settleLease(context.client, { deployment: context.deployment, leaseId }),
    )
    context.logger.info('lease settled', { leaseId, txHash })
    return to(entry, 'ending', { txHash })
  } catch (error) {
    context.logger.debug('lease not settleable yet', { leaseId, error: messageOf(error) })
    return entry
  }
}

/** Redeems a journaled acknowledgement (which settles a lease whose end has passed). */
const redeem = (context: LeaseContext, leaseId: bigint, { servedSec, at, signature }: JournaledAck) =>
  redeemUsage(context.client, { deployment: context.deployment, leaseId, servedSec, at, signature })

/** The latest acknowledgement: the gateway's (it journals through the agent), else the journal's. */
function latestAck(context: LeaseContext, entry: LeaseEntry): JournaledAck | undefined {
  const fromGateway = context.gateway.latestAck(BigInt(entry.leaseId))
  if (fromGateway !== undefined && (entry.lastAck === undefined || fromGateway.at > entry.lastAck.at))
    return fromGateway
  return entry.lastAck
}

/** The step of each state; `done` has none. */
export const leaseSteps: Record<Exclude<LeaseStepName, 'done'>, LeaseStep> = {
  accepting,
  starting,
  serving,
  ending,
}
