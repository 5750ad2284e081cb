import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { setPriceFloor } from '../../src/providers/setPriceFloor.js'
import { claimTask } from '../../src/tasks/claimTask.js'
import { deployment } from '../chain.js'
import { approvedClient, publishTestSource, submitTestTask, testProvider } from '../fixtures.js'
import { ensureBuilt, runCli, workspace } from './run.js'

describe('gridforge task quote', () => {
  let space: Awaited<ReturnType<typeof workspace>>

  beforeAll(async () => {
    ;[space] = await Promise.all([workspace(), ensureBuilt()])
  }, 180_000)
  afterAll(() => space.cleanup())

  it('prints the eligible count, the recent prices and time to claim, and what would win the others', async () => {
    // A source of its own (one-hour runs), served by a provider that takes anything and one that wants 0.1 GRID/GPU-s.
    const sourceId = await publishTestSource({ maxRuntimeSec: 3_600 })
    const [cheap, dear] = await Promise.all([testProvider([sourceId]), testProvider([sourceId])])
    await setPriceFloor(dear, { deployment: deployment(), minPricePerGpuSecond: '0.1' })

    const empty = await runCli([
      ...space.globals,
      'task',
      'quote',
      '--source',
      String(sourceId),
      '--max-payment',
      '36',
    ])
    expect(empty.code).toBe(0)
    expect(empty.stdout).toContain(
      `a task of source ${sourceId} pays 0.01 GRID/GPU-s and locks 18 GRID of collateral per claim`,
    )
    expect(empty.stdout).toMatch(/eligible now: 1 of \d+ registered providers/)
    expect(empty.stdout).toContain(`recent prices: none (no task of source ${sourceId} was submitted yet)`)
    expect(empty.stdout).toContain('expected time to claim: unknown')
    // 0.1 GRID per GPU-second over an hour: 360 GRID wins the provider whose only objection is the price.
    expect(empty.stdout).toMatch(
      /price floor\s+\d+\s+raise --max-payment to at least 360 GRID \(1 more would qualify\)/,
    )

    // A claimed task of the source gives a range and a time to claim.
    const client = await approvedClient({ grid: '100' })
    const { taskId } = await submitTestTask(client, sourceId, { maxPayment: '36' })
    await claimTask(cheap, { deployment: deployment(), taskId })
    const json = await runCli([
      ...space.globals,
      '--json',
      'task',
      'quote',
      '--source',
      String(sourceId),
      '--max-payment',
      '360',
    ])
    expect(json.code).toBe(0)
    const quote = JSON.parse(json.stdout)
    expect(quote.eligible.count).toBe(2)
    expect(quote.terms.pricePerGpuSecond).toBe('100000000000000000')
    expect(quote.history).toMatchObject({
      tasks: 1,
      pricePerGpuSecond: { min: '10000000000000000', median: '10000000000000000', max: '10000000000000000' },
    })
    expect(quote.history.timeToClaimSec).toBeGreaterThanOrEqual(0)
  })

  it('answers why an open task waits, and refuses mixed or missing flags', async () => {
    const sourceId = await publishTestSource({ maxRuntimeSec: 3_600 })
    const client = await approvedClient({ grid: '100' })
    const { taskId } = await submitTestTask(client, sourceId, { maxPayment: '36' })
    const open = await runCli([...space.globals, 'task', 'quote', '--task', String(taskId)])
    expect(open.code).toBe(0)
    expect(open.stdout).toContain(`task ${taskId} pays 0.01 GRID/GPU-s`)
    expect(open.stdout).toMatch(/eligible now: 0 of \d+ registered providers/)
    expect(open.stdout).toContain(`not in source ${sourceId}'s pool`)

    // A deadline too close for a claim to be due before it: the quote says so, and what to do.
    const hurried = await submitTestTask(client, sourceId, { maxPayment: '10', deadline: '30m' })
    const closed = await runCli([...space.globals, 'task', 'quote', '--task', String(hurried.taskId)])
    expect(closed.code).toBe(0)
    expect(closed.stdout).toContain('so nobody can claim it: cancel it (gridforge task cancel')
    expect(closed.stdout).toContain('submit it again with a later --deadline')

    // A task nobody can claim any more: exit 2, with what to do instead.
    const claimer = await testProvider([sourceId])
    await claimTask(claimer, { deployment: deployment(), taskId })
    const claimed = await runCli([...space.globals, 'task', 'quote', '--task', String(taskId)])
    expect(claimed.code).toBe(2)
    expect(claimed.stderr).toContain(`Task ${taskId} is Claimed, not Open: no provider can claim it now.`)
    expect(claimed.stderr).toContain(`gridforge task watch ${taskId}`)

    const mixed = await runCli([...space.globals, 'task', 'quote', '--task', String(taskId), '--source', '1'])
    expect(mixed.code).toBe(2)
    expect(mixed.stderr).toContain('pass either --task or the terms')
    const missing = await runCli([...space.globals, 'task', 'quote', '--source', '1'])
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain('task quote needs --source and --max-payment')
  })
})
