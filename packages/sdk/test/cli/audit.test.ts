/**
 * The CLI on an auditable task: `task submit --audit <p>` (and its refusals),
 * `task status` showing the audit, and `task release` drawing it; and on
 * replicas: `task status` showing seats still raced for and a dispute.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { claimTask } from '../../src/tasks/claimTask.js'
import { submitResult } from '../../src/tasks/submitResult.js'
import { deployment, fundedClient, testClient } from '../chain.js'
import {
  anyCid,
  cids,
  claim,
  closeJoining,
  commit,
  endSeatRace,
  type FixtureClient,
  finalize,
  publishTestSource,
  reveal,
  submitFixtureTasks,
  testProvider,
} from '../fixtures.js'
import { ensureBuilt, newAccount, runCli, workspace } from './run.js'

describe('gridforge task: audits', () => {
  let space: Awaited<ReturnType<typeof workspace>>
  let env: Record<string, string>
  let sourceId: number
  const submit = (...flags: string[]) =>
    runCli(
      [
        ...space.globals,
        '--json',
        'task',
        'submit',
        '--source',
        String(sourceId),
        '--input',
        anyCid,
        '--max-payment',
        '2',
        ...flags,
      ],
      { env },
    )

  beforeAll(async () => {
    const [created, client] = await Promise.all([workspace(), newAccount({ grid: '100' }), ensureBuilt()])
    space = created
    env = { GRIDFORGE_PRIVATE_KEY: client.key }
    sourceId = await publishTestSource({ deterministic: true, maxRuntimeSec: 600 })
    const deposit = await runCli([...space.globals, 'wallet', 'deposit', '20'], { env })
    expect(deposit.code).toBe(0)
  }, 240_000)
  afterAll(() => space.cleanup())

  it('refuses an audit probability that is not above 0 and at most 1', async () => {
    for (const value of ['0', '1.5', '25%', '-0.1']) {
      const { code, stderr } = await submit('--audit', value)
      expect(code, value).toBe(2)
      expect(stderr, value).toContain('expected a probability above 0 and at most 1')
    }
    const { code, stderr } = await submit('--audit', '0.00001')
    expect(code).toBe(2)
    expect(stderr).toContain('steps of 0.0001')
  })

  it('submits with --audit, shows the audit in task status, and releases the held result', async () => {
    const submitted = await submit('--audit', '1')
    expect(submitted.stderr).not.toContain('error')
    expect(submitted.code).toBe(0)
    const [task] = JSON.parse(submitted.stdout)
    // An auditable task escrows twice its maximum payment.
    expect(task.escrow).toBe('4000000000000000000')
    const taskId = BigInt(task.taskId)

    const open = await runCli([...space.globals, 'task', 'status', String(taskId)], { env })
    expect(open.code).toBe(0)
    expect(open.stdout).toMatch(/audit: +100% chance; not drawn yet/)

    const provider = await testProvider([sourceId])
    await claimTask(provider, { deployment: deployment(), taskId })
    const result = await submitResult(provider, {
      deployment: deployment(),
      taskId,
      result: cids.output,
      receipt: anyCid,
      runtimeSec: 1,
    })
    expect(result.held).toBe(true)
    const held = await runCli([...space.globals, 'task', 'status', String(taskId)], { env })
    expect(held.stdout).toMatch(/status: +Held/)
    expect(held.stdout).toContain('100% chance; held for the draw (gridforge task release)')

    await testClient().mine({ blocks: 2 })
    const released = await runCli([...space.globals, 'task', 'release', String(taskId)], { env })
    expect(released.stderr).not.toContain('error')
    expect(released.code).toBe(0)
    expect(released.stdout).toContain(`task ${taskId} was drawn for an audit`)

    const auditing = await runCli([...space.globals, 'task', 'status', String(taskId)], { env })
    expect(auditing.stdout).toMatch(/status: +Auditing/)
    expect(auditing.stdout).toMatch(
      /audit: +100% chance; pending: round 1 \(1 auditor, auditors join until .+, commitments due .+\)/,
    )
    const json = JSON.parse(
      (await runCli([...space.globals, '--json', 'task', 'status', String(taskId)], { env })).stdout,
    )
    expect(json).toMatchObject({
      status: 'Auditing',
      auditBps: 10_000,
      audit: { verdict: 'pending', round: 1 },
    })

    const again = await runCli([...space.globals, 'task', 'release', String(taskId)], { env })
    expect(again.code).toBe(3)
    expect(again.stderr).toContain('is Auditing')
  })

  it('shows seats still raced for, then the dispute of replicas whose results differ and its verdict', async () => {
    const d = deployment()
    const [client, ...providers] = await Promise.all([
      fundedClient(),
      testProvider([sourceId]),
      testProvider([sourceId]),
    ])
    const [first, second] = providers as unknown as [FixtureClient, FixtureClient]
    const {
      taskIds: [taskId = 0n],
    } = await submitFixtureTasks(client, d, { sourceId, replicas: 2 })
    const status = async () => {
      const shown = await runCli([...space.globals, 'task', 'status', String(taskId)], { env })
      expect(shown.code).toBe(0)
      return shown.stdout
    }
    await claim(first, d, taskId)
    await claim(second, d, taskId)
    // Won in the race for the seats: final when the race ends.
    expect(await status()).toMatch(/ {2}0 +Claimed \(raced, final at \d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ\)/)

    await endSeatRace(first, d, taskId)
    for (const [provider, output] of [
      [first, 'bafkreione'],
      [second, 'bafkreitwo'],
    ] as const)
      await commit(provider, d, taskId, output)
    for (const [provider, output] of [
      [first, 'bafkreione'],
      [second, 'bafkreitwo'],
    ] as const)
      await reveal(provider, d, taskId, output)
    const disputed = await status()
    expect(disputed).toMatch(/status: +Auditing/)
    expect(disputed).toMatch(
      /dispute: +the replicas' results differ; pending: round 1 \(1 auditor, auditors join until .+, commitments due .+\)/,
    )
    expect(disputed).toMatch(/ {2}2 \(auditor\) +Free/)
    expect(disputed).not.toContain('raced')

    // Nobody audits it: it lapses, and without a majority the task fails.
    await closeJoining(first, d, taskId)
    await finalize(first, d, taskId)
    const lapsed = await status()
    expect(lapsed).toMatch(/status: +Failed/)
    expect(lapsed).toMatch(/dispute: +lapsed in round 1 \(nobody audited it in time/)
    const watched = await runCli([...space.globals, 'task', 'watch', String(taskId)], { env })
    expect(watched.code).toBe(4)
    expect(watched.stderr).toContain(`Task ${taskId} failed: the replicas' results found no majority.`)
  })
})
