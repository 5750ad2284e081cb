import {
  type GetTaskErrorType,
  type GetTaskParameters,
  type GetTaskReturnType,
  getTask,
} from '@gridforge/sdk'
import type { Config } from '@wagmi/core'
import type { QueryOptions, QueryParameter } from './types.js'
import {
  type ChainParameters,
  queryKey,
  queryKeyHashFn,
  readClient,
  requireDeployment,
  resolveChain,
} from './utils.js'

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
  const chain = resolveChain(config, options)
  const { taskId, includeInput, blockNumber } = options
  return {
    ...options.query,
    enabled: taskId !== undefined && (options.query?.enabled ?? true),
    queryKey: getTaskQueryKey(config, options),
    queryKeyHashFn,
    queryFn: async () => {
      if (taskId === undefined) throw new Error('taskId is required')
      return getTask(readClient(config, chain.chainId), {
        deployment: requireDeployment(chain),
        taskId,
        includeInput,
        blockNumber,
      })
    },
  }
}
