import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtemp, readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { generatePrivateKey } from 'viem/accounts'
import { afterEach, expect, test } from 'vitest'
import { devnet } from '../../../sdk/test/chain.js'
import { containerLabels } from '../../src/runtime/ContainerRuntime.js'
import type { AgentProcessConfig } from '../agentProcess.js'
import { docker } from '../docker.js'
import {
  publishTestImageSource,
  resultSubmissions,
  submitTestTask,
  testDeployment,
  testProviderClient,
  testStore,
  until,
  waitForTaskState,
} from '../harness.js'

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '../..')
const children: ChildProcess[] = []
afterEach(() => {
  for (const child of children) child.kill('SIGKILL')
})

function startAgentProcess(config: AgentProcessConfig) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/agentProcess.ts'], {
    cwd: packageDir,
    env: {
      ...process.env,
      GRIDFORGE_TEST_AGENT: JSON.stringify(config, (_, v) => (typeof v === 'bigint' ? v.toString() : v)),
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  children.push(child)
  let output = ''
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString()
    if (process.env.GRIDFORGE_TEST_LOGS) process.stderr.write(chunk)
  })
  return { child, output: () => output }
}

async function journalStep(dataDir: string, taskId: bigint): Promise<string | undefined> {
  try {
    return JSON.parse(await readFile(join(dataDir, 'journal', `${taskId}.json`), 'utf8')).step
  } catch {
    return undefined
  }
}

test('an agent SIGKILLed mid-task and restarted re-attaches to its container and settles the task exactly once', async () => {
  const { store, root } = await testStore()
  const sourceId = await publishTestImageSource({
    store,
    command: ['sh', '-c', 'sleep 4; echo finished > "$GRIDFORGE_OUTPUT_DIR"/out'],
  })
  const privateKey = generatePrivateKey()
  const provider = await testProviderClient([sourceId], { privateKey })
  const config: AgentProcessConfig = {
    rpcUrl: devnet().rpcUrl,
    privateKey,
    deployment: testDeployment(),
    storeRoot: root,
    dataDir: await mkdtemp(join(tmpdir(), 'gridforge-agent-')),
    sources: [sourceId],
  }
  const first = startAgentProcess(config)
  const { taskId } = await submitTestTask({ sourceId, input: await store.put(new TextEncoder().encode('x')) })

  const running = () =>
    docker().listContainers({ filters: { label: [`${containerLabels.taskId}=${taskId}`] } })
  await until(async () => (await running()).length === 1, 60_000, 'the container to start')
  expect(await journalStep(config.dataDir, taskId)).toBe('running')
  first.child.kill('SIGKILL')
  await new Promise((resolve) => first.child.once('exit', resolve))
  // The container outlives the agent.
  expect(await running()).toHaveLength(1)

  const second = startAgentProcess(config)
  const task = await waitForTaskState(taskId, (t) => t.status === 'Completed', 90_000)
  expect(task.slots[0]?.provider).toBe(provider.account.address)
  expect(await resultSubmissions(taskId)).toEqual([provider.account.address])
  await until(
    async () => (await journalStep(config.dataDir, taskId)) === 'done',
    10_000,
    'the journal to say done',
  )
  expect(second.output()).toContain('re-attaching to its container')
  await until(
    async () =>
      (
        await docker().listContainers({
          all: true,
          filters: { label: [`${containerLabels.taskId}=${taskId}`] },
        })
      ).length === 0,
    // The agent removes it after the settlement; Docker takes longer on a loaded machine.
    30_000,
    'the container to be removed',
  )
  second.child.kill('SIGTERM')
})
