/**
 * A lease participant's payoff over a run, in GRID: the change of its wallet, its balance in the lease market and
 * its stake (from the books), plus the value of the service it got (a renter), minus the running cost of the
 * service it gave (a provider) and its gas.
 */
import type { Address } from 'viem'
import type { SimParams } from '../params.js'
import { leaseWealth } from './books.js'
import type { LeaseSimParams } from './params.js'
import type { LeaseRunRecord } from './run.js'

export interface LeasePayoff {
  holdings: number
  value: number
  runningCost: number
  gas: number
  total: number
}

/** The payoff of `account` in `record`, from its wealth when the run's books opened (`record.opening`). */
export function leasePayoff(
  record: LeaseRunRecord,
  account: Address,
  params: LeaseSimParams,
  gas: Pick<SimParams, 'gasPriceGwei' | 'gridPerEth'>,
): LeasePayoff {
  const key = account.toLowerCase() as Address
  const books = record.books.account(account)
  const holdings = Number(leaseWealth(books) - (record.opening.get(key) ?? 0n)) / 1e18
  let value = 0
  let runningCost = 0
  for (const lease of record.leases) {
    const worth = lease.terms.pricePerSec * lease.timeline.servedSec
    if (lease.renter.toLowerCase() === key) value += params.valueMultiple * worth
    if (lease.provider.toLowerCase() === key) runningCost += params.costFraction * worth
  }
  const gasCost = Number(books.gasUsed) * gas.gasPriceGwei * 1e-9 * gas.gridPerEth
  return { holdings, value, runningCost, gas: gasCost, total: holdings + value - runningCost - gasCost }
}
