import { waitFor } from '@testing-library/react'
import { parseUnits } from 'viem'
import { describe, expect, it } from 'vitest'
import { cids, publishTestSource } from '../../../sdk/test/fixtures.js'
import { testConfig } from '../../test/config.js'
import { renderWithConfig } from '../../test/render.js'
import { useCancelTask } from './useCancelTask.js'
import { useSubmitTask } from './useSubmitTask.js'
import { useTask } from './useTask.js'
import { useTasks } from './useTasks.js'
import { useWalletBalance } from './useWalletBalance.js'

const grid = (amount: string) => parseUnits(amount, 18)

describe('useCancelTask', () => {
  it('cancels an unclaimed task: the mounted task, list and balance show it cancelled and refunded', async () => {
    const { config, client, address } = await testConfig({ grid: '100' })
    const sourceId = await publishTestSource({ owner: client })
    await client.deposit({ amount: '10', approve: true })
    const { result, rerender, queryClient } = renderWithConfig(
      ({ taskId }: { taskId: bigint | undefined }) => ({
        // Not watched: what changes is the mutation's own doing.
        task: useTask({ taskId, watch: false }),
        tasks: useTasks({ client: address, watch: false }),
        wallet: useWalletBalance(),
        submit: useSubmitTask(),
        cancel: useCancelTask(),
      }),
      { config, initialProps: { taskId: undefined as bigint | undefined } },
    )
    const { taskId } = await result.current.submit.mutateAsync({
      sourceId,
      input: cids.input,
      maxPayment: '3',
      deadline: '1h',
    })
    rerender({ taskId })
    await waitFor(() => {
      expect(result.current.task.data?.status).toBe('Open')
      expect(result.current.wallet.data?.balance).toBe(grid('7'))
    })

    const cancelled = await result.current.cancel.mutateAsync({ taskId })
    expect(cancelled).toMatchObject({
      taskId,
      client: address,
      status: 'Cancelled',
      refund: grid('3'),
      paid: 0n,
    })
    const cached = queryClient.getQueryCache().find({ queryKey: result.current.task.queryKey, exact: true })
    expect(cached?.state.data).toMatchObject({ taskId, status: 'Cancelled' })
    await waitFor(() => {
      expect(result.current.task.data?.status).toBe('Cancelled')
      expect(result.current.tasks.data?.map((task) => [task.taskId, task.status])).toEqual([
        [taskId, 'Cancelled'],
      ])
      expect(result.current.wallet.data).toEqual({ balance: grid('10'), token: grid('90'), allowance: 0n })
    })
  })
})
