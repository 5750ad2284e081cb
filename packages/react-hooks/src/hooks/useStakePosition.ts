'use client'
import type { GetStakeErrorType } from '@gridforge/sdk'
import { useChainId, useConfig, useConnection } from 'wagmi'
import {
  type GetStakeData,
  type GetStakeOptions,
  type GetStakeQueryKey,
  getStakeQueryOptions,
} from '../query/getStake.js'
import { type ConfigParameter, type UseQueryReturnType, useQuery } from './query.js'

export type UseStakePositionParameters<selectData = GetStakeData> = GetStakeOptions<selectData> &
  ConfigParameter

export type UseStakePositionReturnType<selectData = GetStakeData> = UseQueryReturnType<
  selectData,
  GetStakeErrorType,
  GetStakeQueryKey
>

/**
 * Reads an account's stake (`getStake`): staked, locked, available, unbonding; default: the connected account.
 *
 * @example
 * import { useStakePosition } from '@gridforge/react-hooks'
 *
 * const { data: position } = useStakePosition()
 */
export function useStakePosition<selectData = GetStakeData>(
  parameters: UseStakePositionParameters<selectData> = {},
): UseStakePositionReturnType<selectData> {
  const config = useConfig(parameters)
  const chainId = useChainId({ config })
  const { address } = useConnection({ config })
  const options = getStakeQueryOptions(config, {
    ...parameters,
    chainId: parameters.chainId ?? chainId,
    account: parameters.account ?? address,
  })
  return useQuery(options)
}
