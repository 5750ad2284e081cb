'use client'
import type { GetWalletBalanceErrorType } from '@gridforge/sdk'
import { useChainId, useConfig, useConnection } from 'wagmi'
import {
  type GetWalletBalanceData,
  type GetWalletBalanceOptions,
  type GetWalletBalanceQueryKey,
  getWalletBalanceQueryOptions,
} from '../query/getWalletBalance.js'
import { type ConfigParameter, type UseQueryReturnType, useQuery } from './query.js'

export type UseWalletBalanceParameters<selectData = GetWalletBalanceData> =
  GetWalletBalanceOptions<selectData> & ConfigParameter

export type UseWalletBalanceReturnType<selectData = GetWalletBalanceData> = UseQueryReturnType<
  selectData,
  GetWalletBalanceErrorType,
  GetWalletBalanceQueryKey
>

/**
 * Reads an account's market balance, token balance and allowance (`getWalletBalance`); default: the connected account.
 *
 * @example
 * import { useWalletBalance } from '@gridforge/react-hooks'
 *
 * const { data } = useWalletBalance()
 * // data?.balance: the market balance tasks are paid from
 */
export function useWalletBalance<selectData = GetWalletBalanceData>(
  parameters: UseWalletBalanceParameters<selectData> = {},
): UseWalletBalanceReturnType<selectData> {
  const config = useConfig(parameters)
  const chainId = useChainId({ config })
  const { address } = useConnection({ config })
  const options = getWalletBalanceQueryOptions(config, {
    ...parameters,
    chainId: parameters.chainId ?? chainId,
    account: parameters.account ?? address,
  })
  return useQuery(options)
}
