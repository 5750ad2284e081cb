import path from 'node:path'
import { getReceipt, getTaskResult } from '@gridforge/sdk'
import { fsStore, getBytes } from '@gridforge/sdk/storage'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { deployerClient } from '../../../sdk/test/chain.js'
import { publishTestImageSource, submitTestTask, testDeployment, waitForTaskState } from '../harness.js'
import { bareKey, type CliResult, ensureBuilt, newAccount, runCli, startCli, workspace } from './run.js'

// A provider's first day, with the bin only: init, doctor, register, start; a
// client's task runs in a container; status shows it; SIGTERM stops the agent.
describe('gridforge-provider: init → doctor → register → start → status', () => {
  let space: Awaited<ReturnType<typeof workspace>>
  const outputs: CliResult[] = []
  beforeAll(async () => {
    await ensureBuilt()
    space = await workspace()
  })
  afterAll(() => space.cleanup())

  it('takes a task from submission to a verified receipt', async () => {
    const store = fsStore({ root: space.store })
    const sourceId = await publishTestImageSource({
      store,
      command: ['sh', '-c', 'tr a-z A-Z < "$GRIDFORGE_INPUT_DIR"/input > "$GRIDFORGE_OUTPUT_DIR"/upper'],
    })
    const provider = await newAccount({ grid: '1000' })
    const env = { GRIDFORGE_PRIVATE_KEY: provider.key, GRIDFORGE_PROVIDER_CONFIG: space.config }
    const run = async (args: string[]) => {
      const result = await runCli(args, { env, timeout: 120_000 })
      outputs.push(result)
      return result
    }

    const init = await run([
      'init',
      '--rpc',
      inject('devnet').rpcUrl,
      '--chain-id',
      '31337',
      '--deployment',
      space.deploymentFile,
      '--store',
      space.store,
      '--data-dir',
      space.dataDir,
      '--sources',
      String(sourceId),
    ])
    expect(init.code).toBe(0)
    expect((await run(['doctor'])).code).toBe(0)
    const registered = await run(['register', '--json'])
    expect(registered.code).toBe(0)
    expect(JSON.parse(registered.stdout)).toMatchObject({
      action: 'registered',
      subscriptions: { added: [sourceId] },
    })

    const agent = startCli(['start'], { env, timeout: 120_000 })
    try {
      await agent.waitForStderr(/"msg":"agent started"/)
      const input = await store.put(new TextEncoder().encode('hello provider'))
      const { taskId } = await submitTestTask({ sourceId, input })
      const task = await waitForTaskState(taskId, (t) => t.status === 'Completed', 90_000)
      expect(task.slots[0]?.provider).toBe(provider.address)

      const result = await getTaskResult(deployerClient(), { deployment: testDeployment(), taskId })
      expect(
        new TextDecoder().decode(await getBytes(store, result.resultCID as string, { path: 'upper' })),
      ).toBe('HELLO PROVIDER')
      const [receipt] = await getReceipt(deployerClient(), { deployment: testDeployment(), taskId, store })
      expect(receipt?.status).toBe('verified')

      const status = await run(['status', '--json'])
      expect(status.code).toBe(0)
      const shown = JSON.parse(status.stdout)
      expect(shown).toMatchObject({
        registered: true,
        subscriptions: [sourceId],
        journal: { inProgress: [] },
      })
      expect(shown.journal.dir).toBe(path.join(space.dataDir, 'journal'))
      expect(shown.journal.recent).toEqual([
        expect.objectContaining({ taskId: taskId.toString(), step: 'done' }),
      ])
    } finally {
      agent.child.kill('SIGTERM')
      const stopped = await agent.done
      outputs.push(stopped)
      expect(stopped.code).toBe(0)
      expect(stopped.stderr).toContain('"msg":"stopped"')
    }
    for (const { stdout, stderr } of outputs)
      expect(`${stdout}${stderr}`.toLowerCase()).not.toContain(bareKey(provider.key))
  })
})
