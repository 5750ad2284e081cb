/**
 * The CLI on failed runs, validated and lease sources: `source publish --failure-fee-bps
 * --validator` and `source show` with them, and `task status` / `task watch`
 * on a task whose provider handed in a failure.
 */
import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { claimTask } from '../../src/tasks/claimTask.js'
import { submitResult } from '../../src/tasks/submitResult.js'
import { deployment } from '../chain.js'
import { anyCid, cids, publishTestSource, testProvider } from '../fixtures.js'
import { ensureBuilt, newAccount, runCli, workspace } from './run.js'

describe('gridforge: failure fees, validators and failed runs', () => {
  let space: Awaited<ReturnType<typeof workspace>>
  let env: Record<string, string>
  let metadata: string
  const publish = (...flags: string[]) =>
    runCli([...space.globals, '--json', 'source', 'publish', '--metadata', metadata, ...flags], { env })

  beforeAll(async () => {
    const [created, client] = await Promise.all([workspace(), newAccount({ grid: '100' }), ensureBuilt()])
    space = created
    env = { GRIDFORGE_PRIVATE_KEY: client.key }
    metadata = path.join(space.root, 'source.json')
    await writeFile(
      metadata,
      JSON.stringify({
        name: 'Render',
        image: `ghcr.io/gridforge/render:1@sha256:${'cd'.repeat(32)}`,
        command: ['render'],
        resources: { maxRuntimeSec: 600 },
      }),
    )
    const deposit = await runCli([...space.globals, 'wallet', 'deposit', '20'], { env })
    expect(deposit.code).toBe(0)
  }, 240_000)
  afterAll(() => space.cleanup())

  it('publishes with a failure fee and a validator, and shows them', async () => {
    const validator = await publishTestSource({ deterministic: true, maxRuntimeSec: 60 })
    const published = await publish('--failure-fee-bps', '2000', '--validator', String(validator))
    expect(published.stderr).not.toContain('error')
    expect(published.code).toBe(0)
    const { sourceId } = JSON.parse(published.stdout)

    const shown = await runCli([...space.globals, 'source', 'show', String(sourceId)], { env })
    expect(shown.code).toBe(0)
    expect(shown.stdout).toContain(
      'failure fee:        2000 bps of a fixed price (metered: the runtime used)',
    )
    expect(shown.stdout).toContain(`validator:          ${validator}`)
    const json = JSON.parse(
      (await runCli([...space.globals, '--json', 'source', 'show', String(sourceId)], { env })).stdout,
    )
    expect(json).toMatchObject({ failureFeeBps: 2000, validator })

    // Without them: no failure fee, no validator.
    const plain = JSON.parse((await publish()).stdout)
    const plainShown = await runCli([...space.globals, 'source', 'show', String(plain.sourceId)], { env })
    expect(plainShown.stdout).toContain('failure fee:        0 bps')
    expect(plainShown.stdout).toMatch(/validator: +-\n/)
  })

  it('publishes a lease source (kind: lease), says how to rent it, and refuses a bad one naming the field', async () => {
    const lease = path.join(space.root, 'lease.json')
    await writeFile(
      lease,
      JSON.stringify({
        kind: 'lease',
        name: 'Notebook',
        image: `ghcr.io/gridforge/notebook:1@sha256:${'ef'.repeat(32)}`,
        command: ['jupyter', 'lab', '--ip=0.0.0.0', '--port=8888'],
        env: { JUPYTER_ENABLE_LAB: 'yes' },
        port: 8888,
        resources: { gpus: 1, vramMiB: 8192, cpus: 2, memoryMiB: 4096 },
      }),
    )
    const published = await runCli([...space.globals, 'source', 'publish', '--metadata', lease], { env })
    expect(published.code).toBe(0)
    expect(published.stdout).toMatch(/rent it with: gridforge lease open --source \d+/)
    const sourceId = /published source (\d+)/.exec(published.stdout)?.[1]
    const shown = JSON.parse(
      (await runCli([...space.globals, '--json', 'source', 'show', String(sourceId)], { env })).stdout,
    )
    expect(shown).toMatchObject({
      requirements: { minGpus: 1, minVramMiB: 8192 },
      metadataDocument: { kind: 'lease', port: 8888, workdir: '/workspace' },
    })

    await writeFile(
      lease,
      JSON.stringify({ kind: 'lease', name: 'Notebook', image: 'notebook:latest', port: 0 }),
    )
    const refused = await runCli([...space.globals, 'source', 'publish', '--metadata', lease], { env })
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain('parseLeaseSourceMetadata')
    expect(refused.stderr).toContain('port: expected at least 1')
  })

  it('refuses a failure fee over the whole price before sending, and a validator that cannot be one', async () => {
    const tooHigh = await publish('--failure-fee-bps', '10001')
    expect(tooHigh.code).toBe(2)
    expect(tooHigh.stderr).toContain('failureFeeBps')
    expect(tooHigh.stderr).toContain('expected a whole number from 0 to 10000')

    // A source that is not deterministic cannot validate others.
    const opaque = await publishTestSource()
    const invalid = await publish('--validator', String(opaque))
    expect(invalid.code).toBe(3)
    expect(invalid.stderr).toContain('SourceRegistryInvalidValidator')
    expect(invalid.stderr).toContain(`source ${opaque} cannot validate this source`)
  })

  it('shows a failed run in task status and task watch', async () => {
    const sourceId = await publishTestSource({ failureFeeBps: 5_000, maxRuntimeSec: 600 })
    const submitted = await runCli(
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
      ],
      { env },
    )
    expect(submitted.code).toBe(0)
    const taskId = BigInt(JSON.parse(submitted.stdout)[0].taskId)
    const provider = await testProvider([sourceId])
    await claimTask(provider, { deployment: deployment(), taskId })
    await submitResult(provider, {
      deployment: deployment(),
      taskId,
      result: cids.logs,
      failure: { kind: 'exited', exitCode: 2 },
      receipt: anyCid,
      runtimeSec: 1,
    })

    const status = await runCli([...space.globals, 'task', 'status', String(taskId)], { env })
    expect(status.code).toBe(0)
    expect(status.stdout).toMatch(/status: +Completed/)
    expect(status.stdout).toMatch(/failed run: +exited with code 2 \(its result is the run's logs\)/)
    const json = JSON.parse(
      (await runCli([...space.globals, '--json', 'task', 'status', String(taskId)], { env })).stdout,
    )
    expect(json).toMatchObject({ failed: true, failure: { kind: 'exited', exitCode: 2 } })

    const watched = await runCli([...space.globals, 'task', 'watch', String(taskId)], { env })
    expect(watched.code).toBe(0)
    expect(watched.stdout).toContain(
      `task ${taskId}: Completed, failed run (exited with code 2), logs ${cids.logs}`,
    )
  })
})
