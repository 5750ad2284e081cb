/**
 * The example provider next to a local network's own, the way its README runs it: the account
 * funded with the `gridforge` CLI, then `gridforge-provider doctor`, `register` and `start` with
 * provider.toml (ports, URLs and the data directory substituted); a 2-replica word-count task runs
 * one replica on each provider and both receipts verify; `status` shows the task; SIGTERM stops
 * the agent with exit 0. Then the same with start.ts on a SHA-256 task.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { getDeployment } from '@gridforge/contracts'
import { getAudit, getReceipt, getTask, submitTask, waitForTask } from '@gridforge/sdk'
import { kuboStore } from '@gridforge/sdk/storage'
import { createPublicClient, createWalletClient, type Hex, http, parseEther, publicActions } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { hardhat } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type LocalNetwork, startLocalNetwork } from '../../../demo/localNetwork.js'

const exampleRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const repoRoot = path.resolve(exampleRoot, '../..')
const gridforgeBin = path.join(repoRoot, 'packages/sdk/dist/cli.js')
const providerBin = path.join(repoRoot, 'packages/provider-kit/dist/cli.js')

const networkLog: string[] = []
const providerKey = generatePrivateKey()
const providerAddress = privateKeyToAccount(providerKey).address
let network: LocalNetwork | undefined
let work: string | undefined

beforeAll(async () => {
  network = await startLocalNetwork({
    log: (line) => networkLog.push(line),
    pollingInterval: 100,
    // Its own provider account: a `pnpm network` (account #2) may be running on the same Docker engine.
    providerPrivateKey: generatePrivateKey(),
  })
  if (network.runtime !== 'docker')
    throw new Error(
      'No Docker engine answers: the example provider runs tasks in containers. Run: bash scripts/docker.sh',
    )
  work = await mkdtemp(path.join(tmpdir(), 'gridforge-example-provider-'))
})

afterAll(async () => {
  await network?.stop()
  if (work !== undefined) await rm(work, { recursive: true, force: true })
})

describe('examples/provider', () => {
  it('gets GRID and gas for the provider account (the gridforge CLI: deposit, withdraw --to)', async () => {
    const { rpcUrl, devPrivateKey } = live()
    // Gas: the README's Hardhat account #3 has ETH already; this test's fresh key does not.
    const dev = createWalletClient({
      account: privateKeyToAccount(devPrivateKey),
      chain: hardhat,
      transport: http(rpcUrl),
    }).extend(publicActions)
    await dev.waitForTransactionReceipt({
      hash: await dev.sendTransaction({ to: providerAddress, value: parseEther('10') }),
    })
    expect((await gridforge(['wallet', 'deposit', '100'])).code).toBe(0)
    expect((await gridforge(['wallet', 'withdraw', '100', '--to', providerAddress])).code).toBe(0)
  })

  it('gridforge-provider doctor and register with provider.toml', async () => {
    const { rpcUrl, storeUrl } = live()
    let config = await readFile(path.join(exampleRoot, 'provider.toml'), 'utf8')
    for (const [from, to] of [
      ['rpc = "http://127.0.0.1:8545"', `rpc = "${rpcUrl}"`],
      ['url = "http://127.0.0.1:5050"', `url = "${storeUrl}"`],
      ['dataDir = "./data"', `dataDir = "${dataDir()}"`],
      ['# pollingInterval = "1s"', 'pollingInterval = "200ms"'],
    ] as const) {
      expect(config).toContain(from)
      config = config.replace(from, to)
    }
    await writeFile(configFile(), config)

    const doctor = await provider(['doctor'])
    expect(doctor.code, doctor.stderr).toBe(0)
    expect(doctor.stdout).toContain('this host is ready to run tasks')
    const registered = await provider(['register', '--json'])
    expect(registered.code, registered.stderr).toBe(0)
    expect(JSON.parse(registered.stdout)).toMatchObject({
      action: 'registered',
      subscriptions: { added: [1, 2] },
    })
  })

  it('gridforge-provider start runs one replica of a 2-replica task, next to the network provider', async () => {
    const agent = startProcess(process.execPath, [providerBin, 'start'], providerEnv())
    try {
      await agent.waitForStderr(/"msg":"agent started"/)
      const input = path.join(work as string, 'hello.txt')
      await writeFile(input, 'hello gridforge\n')
      expect((await gridforge(['wallet', 'deposit', '20'])).code).toBe(0)
      const submitting = gridforge([
        ...['task', 'submit', '--source', '1', '--input', input, '--max-payment', '2'],
        ...['--replicas', '2', '--deadline', '1h', '--wait'],
      ])
      await endSeatRace(1n)
      const submitted = await submitting
      expect(submitted.code, submitted.stderr).toBe(0)
      await expectVerifiedReplicas(1n)
      expect((await gridforge(['receipt', 'verify', '1'])).code).toBe(0)

      const status = await provider(['status', '--json'])
      expect(status.code, status.stderr).toBe(0)
      const shown = JSON.parse(status.stdout)
      expect(shown).toMatchObject({ registered: true, subscriptions: [1, 2], journal: { inProgress: [] } })
      expect(shown.journal.recent).toEqual([expect.objectContaining({ taskId: '1', step: 'done' })])
    } finally {
      const stopped = await agent.stop()
      expect(stopped.code, stopped.stderr).toBe(0)
      expect(stopped.stderr).toContain('"msg":"stopped"')
    }
  })

  it('start.ts runs the agent from code: one replica of a 2-replica SHA-256 task; SIGTERM exits 0', async () => {
    const { rpcUrl, storeUrl, devPrivateKey } = live()
    // As `pnpm start` runs it: one process, so SIGTERM reaches the script itself.
    const agent = startProcess(process.execPath, ['--import', 'tsx', 'start.ts'], {
      GRIDFORGE_RPC_URL: rpcUrl,
      GRIDFORGE_STORE: storeUrl,
      GRIDFORGE_PRIVATE_KEY: providerKey,
      GRIDFORGE_PROVIDER_DATA_DIR: dataDir(),
    })
    try {
      await agent.waitForStderr(/"msg":"agent started"/)
      const client = createWalletClient({
        account: privateKeyToAccount(devPrivateKey),
        chain: hardhat,
        transport: http(rpcUrl),
        pollingInterval: 100,
      })
      const deployment = getDeployment(hardhat.id)
      const input = await kuboStore({ url: storeUrl }).put(new TextEncoder().encode('hello start.ts\n'))
      const { taskId } = await submitTask(client, {
        deployment,
        sourceId: 2,
        input,
        maxPayment: '2',
        replicas: 2,
        deadline: '1h',
      })
      await endSeatRace(taskId)
      await waitForTask(client, { deployment, taskId, timeout: 150_000 })
      await expectVerifiedReplicas(taskId)
    } finally {
      const stopped = await agent.stop()
      expect(stopped.code, stopped.stderr).toBe(0)
      expect(stopped.stderr).toContain('"msg":"stopped"')
    }
  })
})

/**
 * The seats of two replicas are raced for during the network's one-minute joining window. Once both
 * providers hold one, the chain's clock skips to the window's end (one block mined just past it) instead of
 * the test waiting it out: each agent then sees the race over, as it would a minute later.
 */
async function endSeatRace(taskId: bigint) {
  const { rpcUrl } = live()
  const reader = createPublicClient({ chain: hardhat, transport: http(rpcUrl), pollingInterval: 100 })
  const deployment = getDeployment(hardhat.id)
  const started = Date.now()
  for (;;) {
    const task = await getTask(reader, { deployment, taskId }).catch(() => undefined)
    if (task !== undefined && task.slots.filter((slot) => slot.status === 'Claimed').length === 2) break
    if (Date.now() - started > 60_000)
      throw new Error(`task ${taskId}: its two seats were not claimed in 60 s`)
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  const { joinDeadline } = await getAudit(reader, { deployment, taskId })
  const { timestamp } = await reader.getBlock({ blockTag: 'latest' })
  const wait = Math.ceil((joinDeadline?.getTime() ?? 0) / 1000) + 1 - Number(timestamp)
  if (wait > 0) {
    await reader.request({ method: 'evm_increaseTime', params: [wait] } as never)
    await reader.request({ method: 'evm_mine', params: [] } as never)
  }
}

/** Both replicas' receipts verify, one signed by each provider. */
async function expectVerifiedReplicas(taskId: bigint) {
  const { rpcUrl, storeUrl, providerAddress: networkProvider } = live()
  const client = createWalletClient({ chain: hardhat, transport: http(rpcUrl) })
  const receipts = await getReceipt(client, {
    deployment: getDeployment(hardhat.id),
    taskId,
    store: kuboStore({ url: storeUrl }),
  })
  expect(receipts.map((receipt) => receipt.status)).toEqual(['verified', 'verified'])
  expect(receipts.map((receipt) => receipt.settlement.provider).sort()).toEqual(
    [networkProvider, providerAddress].sort(),
  )
}

function live(): LocalNetwork {
  if (network === undefined) throw new Error('the local network did not start')
  return network
}

const configFile = () => path.join(work as string, 'provider.toml')
const dataDir = () => path.join(work as string, 'data')
const providerEnv = () => ({ GRIDFORGE_PRIVATE_KEY: providerKey, GRIDFORGE_PROVIDER_CONFIG: configFile() })

interface Result {
  code: number | null
  stdout: string
  stderr: string
}

/** The `gridforge` CLI as the development client, with the variables `pnpm network` prints. */
function gridforge(args: string[]): Promise<Result> {
  const { rpcUrl, storeUrl, devPrivateKey } = live()
  const env = { GRIDFORGE_RPC_URL: rpcUrl, GRIDFORGE_STORE: storeUrl, GRIDFORGE_PRIVATE_KEY: devPrivateKey }
  return startProcess(process.execPath, [gridforgeBin, ...args], env).done
}

function provider(args: string[]): Promise<Result> {
  return startProcess(process.execPath, [providerBin, ...args], providerEnv()).done
}

/** Runs a command from the example's directory; `done` resolves with its exit code and output. */
function startProcess(command: string, args: string[], env: Record<string, string | Hex>) {
  const child: ChildProcess = spawn(command, args, {
    cwd: exampleRoot,
    // Only the variables given here: none of the GRIDFORGE_ ones of the shell that runs the test.
    env: { ...withoutGridforgeVariables(process.env), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  const waiters = new Set<() => void>()
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString()
  })
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString()
    for (const waiter of waiters) waiter()
  })
  const done = new Promise<Result>((resolve, reject) => {
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
  const timer = setTimeout(() => child.kill('SIGKILL'), 150_000)
  void done.finally(() => clearTimeout(timer))
  return {
    done,
    waitForStderr: (pattern: RegExp, timeoutMs = 60_000) =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          if (!pattern.test(stderr)) return
          waiters.delete(check)
          clearTimeout(giveUp)
          resolve()
        }
        const giveUp = setTimeout(() => {
          waiters.delete(check)
          reject(new Error(`no ${pattern} on stderr after ${timeoutMs} ms:\n${stderr}\n${stdout}`))
        }, timeoutMs)
        waiters.add(check)
        void done.then(() => {
          if (waiters.delete(check)) {
            clearTimeout(giveUp)
            reject(new Error(`exited before ${pattern} appeared on stderr:\n${stderr}\n${stdout}`))
          }
        })
        check()
      }),
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
      return done
    },
  }
}

function withoutGridforgeVariables(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !name.startsWith('GRIDFORGE_')))
}
