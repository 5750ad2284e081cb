/**
 * The lease world's books, built from the events of the transactions the simulation sent (never from reading
 * balances): every account's GRID in its wallet, its balance in the lease market, its stake and collateral locks,
 * its gas; and each lease's payments, fees, refunds, penalty and end. A test reconciles them with the chain.
 */
import { gridTokenAbi, leaseMarketAbi, stakingAbi } from '@gridforge/contracts'
import { type Address, type Log, parseEventLogs } from 'viem'

/** EndReason in ILeaseMarket.sol, by its value. */
export const endReasons = [
  'None',
  'Cancelled',
  'NotAccepted',
  'ClosedByRenter',
  'OutOfDeposit',
  'ProviderNotice',
  'ProviderOffline',
  'Expired',
  'RenterSilent',
] as const

export interface LeaseAccount {
  wallet: bigint
  /** `LeaseMarket.balanceOf`: payments, refunds and penalties not withdrawn. */
  leaseBalance: bigint
  staked: bigint
  locked: bigint
  gasUsed: bigint
}

export interface LeaseEntry {
  renter: Address
  provider: Address | undefined
  /** Paid to the provider over the lease (before fees), the fees, the refund and the penalty at settlement. */
  paid: bigint
  fees: bigint
  refunded: bigint
  penalty: bigint
  servedSec: number
  reason: (typeof endReasons)[number] | undefined
  reports: number
  reportsAnswered: number
}

/** What an account holds in GRID, wherever: its wallet, its balance in the lease market and its stake. */
export const leaseWealth = (a: LeaseAccount) => a.wallet + a.leaseBalance + a.staked

const emptyAccount = (): LeaseAccount => ({
  wallet: 0n,
  leaseBalance: 0n,
  staked: 0n,
  locked: 0n,
  gasUsed: 0n,
})

export class LeaseBooks {
  readonly #accounts = new Map<Address, LeaseAccount>()
  readonly #leases = new Map<bigint, LeaseEntry>()
  readonly #contracts: { token: Address; staking: Address; leases: Address }

  constructor(contracts: { token: Address; staking: Address; leases: Address }) {
    this.#contracts = contracts
  }

  account(address: Address): LeaseAccount {
    const key = address.toLowerCase() as Address
    let account = this.#accounts.get(key)
    if (account === undefined) {
      account = emptyAccount()
      this.#accounts.set(key, account)
    }
    return account
  }

  /** Opening balances, read once from the chain when a run starts. */
  open(address: Address, opening: Omit<LeaseAccount, 'gasUsed'>) {
    Object.assign(this.account(address), opening)
  }

  lease(leaseId: bigint): LeaseEntry {
    const entry = this.#leases.get(leaseId)
    if (entry === undefined) throw new Error(`sim: lease ${leaseId} is not in the books`)
    return entry
  }

  leases(): [bigint, LeaseEntry][] {
    return [...this.#leases]
  }

  /** Books one mined transaction: its gas to `from`, and what its events say. */
  book(from: Address, gasUsed: bigint, logs: readonly Log[]) {
    this.account(from).gasUsed += gasUsed
    const from_ = (address: Address) =>
      logs.filter((log) => log.address.toLowerCase() === address.toLowerCase())
    const { token, staking, leases } = this.#contracts
    for (const event of parseEventLogs({ abi: gridTokenAbi, logs: from_(token), eventName: 'Transfer' })) {
      this.account(event.args.from).wallet -= event.args.value
      this.account(event.args.to).wallet += event.args.value
    }
    for (const event of parseEventLogs({ abi: stakingAbi, logs: from_(staking) })) {
      if (event.eventName === 'CollateralLocked') this.account(event.args.account).locked += event.args.amount
      if (event.eventName === 'CollateralUnlocked')
        this.account(event.args.account).locked -= event.args.amount
      if (event.eventName === 'Slashed') {
        const account = this.account(event.args.account)
        account.staked -= event.args.amount
        account.locked -= event.args.amount
      }
    }
    for (const event of parseEventLogs({ abi: leaseMarketAbi, logs: from_(leases) })) {
      switch (event.eventName) {
        case 'LeaseRequested':
          this.#leases.set(event.args.leaseId, {
            renter: event.args.renter,
            provider: undefined,
            paid: 0n,
            fees: 0n,
            refunded: 0n,
            penalty: 0n,
            servedSec: 0,
            reason: undefined,
            reports: 0,
            reportsAnswered: 0,
          })
          break
        case 'LeaseAccepted':
          this.lease(event.args.leaseId).provider = event.args.provider
          break
        case 'UsageRedeemed': {
          const entry = this.lease(event.args.leaseId)
          entry.paid += event.args.payment
          entry.fees += event.args.fee
          if (entry.provider === undefined) throw new Error('sim: usage redeemed on a lease nobody accepted')
          this.account(entry.provider).leaseBalance += event.args.payment - event.args.fee
          break
        }
        case 'OfflineReported':
          this.lease(event.args.leaseId).reports++
          break
        case 'OfflineReportAnswered':
          this.lease(event.args.leaseId).reportsAnswered++
          break
        case 'LeaseSettled': {
          const entry = this.lease(event.args.leaseId)
          entry.reason = endReasons[event.args.reason]
          entry.servedSec = Number(event.args.servedSec)
          entry.refunded += event.args.refunded
          entry.penalty += event.args.penalty
          // A cancelled request is refunded to the caller's wallet (a Transfer); every other settlement credits
          // the renter's balance in the market.
          if (entry.reason !== 'Cancelled') {
            this.account(entry.renter).leaseBalance += event.args.refunded + event.args.penalty
          }
          break
        }
        case 'Withdrawn':
          this.account(event.args.account).leaseBalance -= event.args.amount
          break
      }
    }
  }
}
