/**
 * A participant's payoff over a run, in GRID: everything it ended with minus everything it started with,
 * plus the value of the correct results it received, minus what it spent off chain (gas, GPU time and the
 * cost of the capital it kept locked).
 */
import type { Address } from 'viem'
import type { Account, Ledger } from './ledger.js'
import type { SimParams } from './params.js'

const YEAR = 365 * 24 * 3600

export interface Payoff {
  /** Change of wallet + internal balance + stake + unbonding stake (rewards claimed are in the wallet). */
  holdings: number
  value: number
  gas: number
  compute: number
  capital: number
  total: number
}

const wealth = (a: Pick<Account, 'wallet' | 'internal' | 'staked' | 'unbonding'>) =>
  a.wallet + a.internal + a.staked + a.unbonding

/** The payoff of the accounts `identity` together, from the books of a run and its opening balances. */
export function payoff(
  ledger: Ledger,
  opening: ReadonlyMap<Address, bigint>,
  identity: readonly Address[],
  params: SimParams,
): Payoff {
  let holdings = 0n
  let value = 0
  let gasUsed = 0n
  let computeSec = 0
  let capital = 0
  for (const address of identity) {
    const account = ledger.account(address)
    holdings += wealth(account) - (opening.get(address.toLowerCase() as Address) ?? 0n)
    value += account.value
    gasUsed += account.gasUsed
    computeSec += account.computeSec
    capital += account.capitalGridSeconds
  }
  const result = {
    holdings: Number(holdings) / 1e18,
    value,
    gas: Number(gasUsed) * params.gasPriceGwei * 1e-9 * params.gridPerEth,
    compute: (computeSec * params.gpuCostPerHour) / 3600,
    capital: (capital * params.interestRatePerYear) / YEAR,
  }
  return { ...result, total: result.holdings + result.value - result.gas - result.compute - result.capital }
}

/** Each account's wealth as the books open: what payoffs are measured from. */
export function openingWealth(ledger: Ledger): Map<Address, bigint> {
  return new Map(ledger.addresses().map((address) => [address, wealth(ledger.account(address))]))
}
