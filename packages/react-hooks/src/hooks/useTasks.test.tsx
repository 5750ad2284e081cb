import type { Task } from '@gridforge/sdk'
import { waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { deployment, devnet } from '../../../sdk/test/chain.js'
import {
  claim,
  countingTransport,
  publishTestSource,
  submit,
  submitFixtureTasks,
  testProvider,
} from '../../../sdk/test/fixtures.js'
import { testConfig } from '../../test/config.js'
import { renderWithConfig } from '../../test/render.js'
import { filterInstalled } from '../../test/watching.js'
import { useTasks } from './useTasks.js'

const summary = (tasks: Task[] | undefined) => tasks?.map((task) => [task.taskId, task.status])

describe('useTasks', () => {
  it("keeps a client's list live: a task submitted after mounting appears, then goes to Completed", async () => {
    const rpc = countingTransport(devnet().rpcUrl)
    const { config, client, address } = await testConfig({ transport: rpc.transport })
    const sourceId = await publishTestSource({ owner: client })
    const provider = await testProvider([sourceId])
    const {
      taskIds: [first = 0n],
    } = await submitFixtureTasks(client, deployment(), { sourceId })

    const { result } = renderWithConfig(() => useTasks({ client: address }), { config })
    await waitFor(() => expect(summary(result.current.data)).toEqual([[first, 'Open']]))
    expect(result.current.queryKey).toEqual([
      'gridforge',
      'tasks',
      { chainId: 31337, market: deployment().contracts.market, client: address },
    ])
    await filterInstalled(rpc)

    // Only the chain moves from here.
    const {
      taskIds: [second = 0n],
    } = await submitFixtureTasks(client, deployment(), { sourceId })
    await waitFor(() =>
      expect(summary(result.current.data)).toEqual([
        [first, 'Open'],
        [second, 'Open'],
      ]),
    )
    await claim(provider, deployment(), second)
    await waitFor(() =>
      expect(summary(result.current.data)).toEqual([
        [first, 'Open'],
        [second, 'Claimed'],
      ]),
    )
    await submit(provider, deployment(), second)
    await waitFor(() =>
      expect(summary(result.current.data)).toEqual([
        [first, 'Open'],
        [second, 'Completed'],
      ]),
    )
    expect(result.current.data?.[1]).toMatchObject({
      client: address,
      sourceId,
      slots: [{ provider: provider.account.address }],
    })
  })

  it("ignores other clients' tasks, and filters by source and status", async () => {
    const rpc = countingTransport(devnet().rpcUrl)
    const { config, client, address } = await testConfig({ transport: rpc.transport })
    const other = await testConfig({ connected: false })
    const sourceId = await publishTestSource({ owner: client })
    const {
      taskIds: [mine = 0n],
    } = await submitFixtureTasks(client, deployment(), { sourceId })

    const { result } = renderWithConfig(
      () => ({
        mine: useTasks({ client: address }),
        openOfSource: useTasks({ sourceId, status: 'Open' }),
      }),
      { config },
    )
    await waitFor(() => {
      expect(summary(result.current.mine.data)).toEqual([[mine, 'Open']])
      expect(summary(result.current.openOfSource.data)).toEqual([[mine, 'Open']])
    })
    await filterInstalled(rpc)

    const {
      taskIds: [theirs = 0n],
    } = await submitFixtureTasks(other.client, deployment(), { sourceId })
    await waitFor(() =>
      expect(summary(result.current.openOfSource.data)).toEqual([
        [mine, 'Open'],
        [theirs, 'Open'],
      ]),
    )
    expect(summary(result.current.mine.data)).toEqual([[mine, 'Open']])
  })
})
