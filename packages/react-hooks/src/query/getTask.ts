import {
  type GetTaskErrorType,
  type GetTaskParameters,
  type GetTaskReturnType,
  getTask,
} from '@gridforge/sdk'
import type { Config } from '@wagmi/core'
import { readQueryOptions } from './readQuery.js'
import type { QueryOptions, QueryParameter } from './types.js'
import { type ChainParameters, queryKey, resolveChain } from './utils.js'

export type GetTaskData = GetTaskReturnType

export type GetTaskVariables = ChainParameters & Partial<Omit<GetTaskParameters, 'deployment'>>

export type GetTaskOptions<selectData = GetTaskData> = GetTaskVariables &
  QueryParameter<GetTaskData, GetTaskErrorType, selectData, GetTaskQueryKey>

/** `['gridforge', 'task', { chainId, market, taskId?, includeInput?, blockNumber? }]` */
export function getTaskQueryKey(config: Config, options: GetTaskVariables = {}) {
  const { taskId, includeInput, blockNumber } = options
  return queryKey('task', resolveChain(config, options), { taskId, includeInput, blockNumber })
}

export type GetTaskQueryKey = ReturnType<typeof getTaskQueryKey>

/**
 * Query options for a task and its slots (`getTask`). For live updates, pair it with `watchTask` (the `useTask` hook does). Disabled until `taskId` is set.
 *
 * @example
 * import { getTaskQueryOptions } from '@gridforge/react-hooks/query'
 *
 * const data = await queryClient.fetchQuery(getTaskQueryOptions(config, { taskId: 7n }))
 */
export function getTaskQueryOptions<selectData = GetTaskData>(
  config: Config,
  options: GetTaskOptions<selectData> = {},
): QueryOptions<GetTaskData, GetTaskErrorType, selectData, GetTaskQueryKey> {
  return readQueryOptions(config, options, {
    queryKey: getTaskQueryKey(config, options),
    required: ['taskId'],
    read: getTask,
  })
}
