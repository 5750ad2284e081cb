/**
 * Compares the simulator's books with the chain, to the wei: token balances (of every account and of the
 * market and staking contracts), internal balances, stake, collateral locks and unbonding stake.
 */
import { gridTokenAbi, stakingAbi, taskMarketAbi } from '@gridforge/contracts'
import type { Address, PublicClient } from 'viem'
import type { Chain } from './chain.js'
import type { Ledger } from './ledger.js'

export interface Mismatch {
  account: Address
  field: 'wallet' | 'internal' | 'staked' | 'locked' | 'unbonding'
  books: bigint
  chain: bigint
}

/** Every difference between `ledger` and the chain, for `accounts` and the two contracts holding GRID. */
export async function reconcile(
  client: PublicClient,
  contracts: Chain['contracts'],
  ledger: Ledger,
  accounts: readonly Address[],
): Promise<Mismatch[]> {
  const mismatches: Mismatch[] = []
  const check = (account: Address, field: Mismatch['field'], books: bigint, chain: bigint) => {
    if (books !== chain) mismatches.push({ account, field, books, chain })
  }
  const balanceOf = (account: Address) =>
    client.readContract({
      address: contracts.token,
      abi: gridTokenAbi,
      functionName: 'balanceOf',
      args: [account],
    })
  for (const holder of [contracts.market, contracts.staking]) {
    check(holder, 'wallet', ledger.account(holder).wallet, await balanceOf(holder))
  }
  for (const account of accounts) {
    const books = ledger.account(account)
    check(account, 'wallet', books.wallet, await balanceOf(account))
    const internal = await client.readContract({
      address: contracts.market,
      abi: taskMarketAbi,
      functionName: 'balanceOf',
      args: [account],
    })
    check(account, 'internal', books.internal, internal)
    const stake = await client.readContract({
      address: contracts.staking,
      abi: stakingAbi,
      functionName: 'stakeOf',
      args: [account],
    })
    check(account, 'staked', books.staked, stake.staked)
    check(account, 'locked', books.locked, stake.locked)
    check(account, 'unbonding', books.unbonding, stake.unbonding)
  }
  return mismatches
}
