/**
 * Runs one lease world on the chain: from the task world's snapshot (providers staked, registered and subscribed
 * to the source; renters funded), every lease is requested, accepted, acknowledged, redeemed, reported, ended and
 * settled by real transactions to `LeaseMarket`, each in a block at the time the lease's timeline says (no real
 * waiting). The acknowledgements are EIP-712 `Usage` messages signed with each renter's session key.
 */
import { gridTokenAbi, leaseMarketAbi, stakingAbi } from '@gridforge/contracts'
import { type Address, type Hex, keccak256, maxUint256, parseEventLogs, toHex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { Ledger } from '../ledger.js'
import type { World } from '../market/world.js'
import { Transactor } from '../transactor.js'
import { LeaseBooks, leaseWealth } from './books.js'
import type { LeaseRules, LeaseSimParams } from './params.js'
import { drawLeases, type LeaseTerms, priceWei } from './terms.js'
import { type Ack, type LeaseAction, type LeasePlays, type LeaseTimeline, playLease } from './timeline.js'

/** Who plays what: everybody honest unless named here. */
export interface LeaseDeviation {
  /** Index of the deviating provider or renter, and its play. */
  provider?: { index: number; play: LeasePlays['provider'] }
  renter?: { index: number; play: LeasePlays['renter'] }
}

export interface LeaseOutcome {
  terms: LeaseTerms
  plays: LeasePlays
  timeline: LeaseTimeline
  leaseId: bigint
  renter: Address
  provider: Address
  startedAt: number
}

export interface LeaseRunRecord {
  books: LeaseBooks
  /** Each renter's and provider's wealth (`leaseWealth`) when the books opened, by lower-case address. */
  opening: Map<Address, bigint>
  leases: LeaseOutcome[]
  renters: Address[]
  providers: Address[]
  rules: LeaseRules
  transactions: number
}

/** The lease rules new leases take, read from the chain (LocalGridforge's defaults). */
export async function readLeaseRules(tx: Transactor, leases: Address): Promise<LeaseRules> {
  const rules = await tx.public.readContract({ address: leases, abi: leaseMarketAbi, functionName: 'params' })
  return {
    protocolFeeBps: Number(rules.protocolFeeBps),
    ackGrace: Number(rules.ackGrace),
    offlineAfter: Number(rules.offlineAfter),
    responseWindow: Number(rules.responseWindow),
    claimWindow: Number(rules.claimWindow),
  }
}

/** The session key a renter's software acknowledges service with: holds no funds. */
export function sessionKey(renter: Address) {
  return privateKeyToAccount(keccak256(toHex(`gridforge sim lease session key ${renter.toLowerCase()}`)))
}

interface Scheduled {
  at: number
  order: number
  act: () => Promise<void>
}

/** Plays the lease world of `seed` with `deviation` from the world's snapshot and returns the books. */
export async function runLeases(
  world: World,
  params: LeaseSimParams,
  seed: number,
  deviation: LeaseDeviation = {},
): Promise<LeaseRunRecord> {
  const { chain } = world
  if (world.cast.providers.length < params.providers || world.cast.clients.length < params.renters) {
    throw new RangeError(
      `sim: the lease world needs ${params.providers} providers and ${params.renters} renters of the task world`,
    )
  }
  await chain.revert(world.snapshot)
  world.snapshot = await chain.snapshot()
  const contracts = chain.contracts
  const block = await chain.provider.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })
  const startTime = Number(block?.timestamp ?? 0)
  const tx = new Transactor(chain.provider, new Ledger(contracts, startTime), startTime)
  const books = new LeaseBooks(contracts)
  const renters = world.cast.clients.slice(0, params.renters)
  const providers = world.cast.providers.slice(0, params.providers)
  await openBooks(tx, books, contracts, [...renters, ...providers])
  const opening = new Map(
    [...renters, ...providers].map((a) => [a.toLowerCase() as Address, leaseWealth(books.account(a))]),
  )
  const rules = await readLeaseRules(tx, contracts.leases)
  const chainId = await tx.public.getChainId()
  const leases = { address: contracts.leases, abi: leaseMarketAbi } as const

  const send = async (from: Address, at: number, call: Parameters<Transactor['send']>[2]) => {
    const receipt = await tx.send(from, at, call)
    books.book(from, receipt.gasUsed, receipt.logs)
    return receipt
  }
  for (const renter of renters) {
    await send(renter, tx.now + 1, {
      address: contracts.token,
      abi: gridTokenAbi,
      functionName: 'approve',
      args: [contracts.leases, maxUint256],
    })
  }

  const queue: Scheduled[] = []
  let order = 0
  const schedule = (at: number, act: () => Promise<void>) => queue.push({ at, order: order++, act })
  const outcomes: LeaseOutcome[] = []
  const origin = tx.now

  for (const terms of drawLeases(params, seed)) {
    const plays: LeasePlays = {
      provider: deviation.provider?.index === terms.provider ? deviation.provider.play : 'honest',
      renter: deviation.renter?.index === terms.renter ? deviation.renter.play : 'honest',
    }
    const renter = renters[terms.renter] as Address
    const provider = providers[terms.provider] as Address
    const timeline = playLease(terms, plays, params, rules)
    const price = priceWei(terms.pricePerSec)
    const key = sessionKey(renter)
    schedule(origin + terms.arrival, async () => {
      const requested = await send(renter, origin + terms.arrival, {
        ...leases,
        functionName: 'requestLease',
        args: [
          {
            sourceId: world.sourceId,
            maxPricePerSec: price,
            duration: terms.durationSec,
            deposit: price * BigInt(terms.durationSec + params.depositMarginSec),
            penaltySec: params.penaltySec,
            minUptimeBps: params.minUptimeBps,
            ackSigner: key.address,
            acceptBy: Math.max(tx.now, origin + terms.arrival) + 3600,
          },
        ],
      })
      const [event] = parseEventLogs({
        abi: leaseMarketAbi,
        logs: requested.logs,
        eventName: 'LeaseRequested',
      })
      if (event === undefined) throw new Error('sim: requestLease emitted no LeaseRequested')
      const leaseId = event.args.leaseId
      await send(provider, tx.now + 1, { ...leases, functionName: 'acceptLease', args: [leaseId, price] })
      const startedAt = tx.now
      outcomes.push({ terms, plays, timeline, leaseId, renter, provider, startedAt })
      const sign = (ack: Ack) =>
        key.signTypedData({
          domain: {
            name: 'Gridforge LeaseMarket',
            version: '1',
            chainId,
            verifyingContract: contracts.leases,
          },
          types: {
            Usage: [
              { name: 'leaseId', type: 'uint256' },
              { name: 'servedSec', type: 'uint40' },
              { name: 'at', type: 'uint40' },
            ],
          },
          primaryType: 'Usage',
          message: { leaseId, servedSec: ack.servedSec, at: startedAt + ack.at },
        })
      for (const action of timeline.actions) {
        schedule(startedAt + action.at, () => perform(action, leaseId, startedAt, renter, provider, sign))
      }
    })
  }

  const perform = async (
    action: LeaseAction,
    leaseId: bigint,
    startedAt: number,
    renter: Address,
    provider: Address,
    sign: (ack: Ack) => Promise<Hex>,
  ) => {
    const at = startedAt + action.at
    const from = action.by === 'renter' ? renter : provider
    switch (action.kind) {
      case 'redeem':
        await send(from, at, {
          ...leases,
          functionName: 'redeemUsage',
          args: [leaseId, action.ack.servedSec, startedAt + action.ack.at, await sign(action.ack)],
        })
        return
      case 'endForSilence':
        await send(from, at, {
          ...leases,
          functionName: 'endForSilence',
          args:
            action.ack === undefined
              ? [leaseId, 0, 0, '0x']
              : [leaseId, action.ack.servedSec, startedAt + action.ack.at, await sign(action.ack)],
        })
        return
      case 'report':
        await send(from, at, { ...leases, functionName: 'reportOffline', args: [leaseId] })
        return
      case 'settle':
        await send(from, at, { ...leases, functionName: 'settleLease', args: [leaseId] })
        return
    }
  }

  while (queue.length > 0) {
    queue.sort((a, b) => a.at - b.at || a.order - b.order)
    const next = queue.shift() as Scheduled
    await next.act()
  }
  return { books, opening, leases: outcomes, renters, providers, rules, transactions: tx.transactions }
}

async function openBooks(
  tx: Transactor,
  books: LeaseBooks,
  contracts: World['chain']['contracts'],
  accounts: readonly Address[],
) {
  for (const account of [...accounts, contracts.leases]) {
    const [wallet, leaseBalance, stake] = await Promise.all([
      tx.public.readContract({
        address: contracts.token,
        abi: gridTokenAbi,
        functionName: 'balanceOf',
        args: [account],
      }),
      tx.public.readContract({
        address: contracts.leases,
        abi: leaseMarketAbi,
        functionName: 'balanceOf',
        args: [account],
      }),
      tx.public.readContract({
        address: contracts.staking,
        abi: stakingAbi,
        functionName: 'stakeOf',
        args: [account],
      }),
    ])
    books.open(account, { wallet, leaseBalance, staked: stake.staked, locked: stake.locked })
  }
}
