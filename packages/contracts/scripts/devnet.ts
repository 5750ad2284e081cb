/**
 * A throwaway Gridforge chain: a Hardhat node (EDR) on 127.0.0.1 and a free
 * port, with the LocalGridforge Ignition module deployed by the same deploy
 * script users run. Used by the SDK and provider-kit test set-ups and by
 * `pnpm demo`; not part of the published package.
 *
 * @example
 * await using devnet = await startDevnet({ intervalMiningMs: 1_000 })
 * devnet.rpcUrl // 'http://127.0.0.1:41234'
 * devnet.deployment.contracts.market
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { bytesToHex, type Hex } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import type { GridforgeDeployment } from '../src/index.js'

const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const bin = (name: string) => path.join(packageRoot, 'node_modules', '.bin', name)

/** Hardhat's default accounts: this mnemonic, 20 accounts, 10,000 ETH each. */
export const devnetMnemonic = 'test test test test test test test test test test test junk'

export interface Devnet extends AsyncDisposable {
  /** `http://127.0.0.1:<port>` */
  rpcUrl: string
  chainId: 31337
  /** What the deploy script recorded for this chain. */
  deployment: GridforgeDeployment
  /** Private keys of the node's 20 funded accounts; account 0 deployed and owns everything. */
  privateKeys: readonly Hex[]
  stop(): Promise<void>
}

export interface StartDevnetOptions {
  /** Default: a free port. */
  port?: number
  /** Called with every line the node and the deploy script print. */
  onOutput?: (line: string) => void
  /**
   * Mine a block every this many milliseconds once the contracts are deployed, as a real chain
   * does (`evm_setIntervalMining`); transactions are still mined as they arrive. Default: off, the
   * node mines only on transactions. Agents need it: a held result can be released only two blocks
   * after its submission, which never comes on a quiet chain that mines only on transactions.
   */
  intervalMiningMs?: number
}

/** Starts a Hardhat node and deploys LocalGridforge on it. */
export async function startDevnet({
  port,
  onOutput,
  intervalMiningMs,
}: StartDevnetOptions = {}): Promise<Devnet> {
  if (intervalMiningMs !== undefined && (!Number.isSafeInteger(intervalMiningMs) || intervalMiningMs <= 0))
    throw new RangeError(
      `devnet: intervalMiningMs must be a whole number of ms above 0, got ${intervalMiningMs}`,
    )
  const chosenPort = port ?? (await freePort())
  const rpcUrl = `http://127.0.0.1:${chosenPort}`
  const node = spawn(bin('hardhat'), ['node', '--hostname', '127.0.0.1', '--port', String(chosenPort)], {
    cwd: packageRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const output: string[] = []
  const record = (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n')) {
      if (line.trim() === '') continue
      output.push(line)
      if (output.length > 200) output.shift()
      onOutput?.(line)
    }
  }
  node.stdout.on('data', record)
  node.stderr.on('data', record)

  const workDir = await mkdtemp(path.join(tmpdir(), 'gridforge-devnet-'))
  const deploymentId = `devnet-${chosenPort}`
  const stop = async () => {
    await stopProcess(node)
    await rm(workDir, { recursive: true, force: true })
    await rm(path.join(packageRoot, 'ignition', 'deployments', deploymentId), {
      recursive: true,
      force: true,
    })
  }
  try {
    await waitForRpc(rpcUrl, node, output)
    const out = path.join(workDir, 'deployment.json')
    await run(
      bin('tsx'),
      ['scripts/deploy.ts', '--network', 'devnet', '--deployment-id', deploymentId, '--reset', '--out', out],
      { GRIDFORGE_DEVNET_URL: rpcUrl, INIT_CWD: packageRoot },
      onOutput,
    )
    const deployment = JSON.parse(await readFile(out, 'utf8')) as GridforgeDeployment
    // After the deployment, so that Ignition's blocks are its own transactions only.
    if (intervalMiningMs !== undefined) await rpc(rpcUrl, 'evm_setIntervalMining', [intervalMiningMs])
    const privateKeys = Array.from({ length: 20 }, (_, addressIndex) => {
      const key = mnemonicToAccount(devnetMnemonic, { addressIndex }).getHdKey().privateKey
      if (key === null) throw new Error('devnet: could not derive a private key')
      return bytesToHex(key)
    })
    return { rpcUrl, chainId: 31337, deployment, privateKeys, stop, [Symbol.asyncDispose]: stop }
  } catch (error) {
    await stop()
    throw error
  }
}

/** A TCP port free on 127.0.0.1 now (for a server the caller starts next). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.unref()
    server.on('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() =>
        typeof address === 'object' && address !== null
          ? resolve(address.port)
          : reject(new Error('no port')),
      )
    })
  })
}

/** One JSON-RPC call; throws the node's error. */
async function rpc(rpcUrl: string, method: string, params: unknown[]): Promise<unknown> {
  const response = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  const body = (await response.json()) as { result?: unknown; error?: { message?: string } }
  if (body.error !== undefined)
    throw new Error(`devnet: ${method} failed: ${body.error.message ?? 'unknown error'}`)
  return body.result
}

async function waitForRpc(rpcUrl: string, node: ChildProcess, output: string[], timeoutMs = 60_000) {
  const started = Date.now()
  while (Date.now() - started < timeoutMs) {
    if (node.exitCode !== null) {
      throw new Error(`devnet: hardhat node exited with ${node.exitCode}:\n${output.join('\n')}`)
    }
    try {
      const response = await fetch(rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      })
      if (response.ok) return
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  throw new Error(`devnet: no JSON-RPC answer on ${rpcUrl} after ${timeoutMs} ms:\n${output.join('\n')}`)
}

function run(
  command: string,
  args: string[],
  env: Record<string, string>,
  onOutput?: (line: string) => void,
) {
  return new Promise<void>((resolve, reject) => {
    const child = spawn(command, args, { cwd: packageRoot, env: { ...process.env, ...env } })
    let output = ''
    const collect = (chunk: Buffer) => {
      output += chunk.toString()
      for (const line of chunk.toString().split('\n')) if (line.trim() !== '') onOutput?.(line)
    }
    child.stdout.on('data', collect)
    child.stderr.on('data', collect)
    child.on('error', reject)
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`devnet: ${args.join(' ')} exited with ${code}:\n${output}`)),
    )
  })
}

/** Stops `child`: SIGTERM, then SIGKILL if it has not exited after `graceMs`. */
export async function stopProcess(child: ChildProcess, graceMs = 5_000) {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  child.kill('SIGTERM')
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs)
  await exited
  clearTimeout(timer)
}

// `tsx scripts/devnet.ts`: start a devnet and keep it running until Ctrl-C (INTERVAL_MINING_MS=1000: a block a second).
if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const devnet = await startDevnet({
    port: Number(process.env.PORT ?? 8545),
    intervalMiningMs: process.env.INTERVAL_MINING_MS ? Number(process.env.INTERVAL_MINING_MS) : undefined,
  })
  console.log(JSON.stringify({ rpcUrl: devnet.rpcUrl, deployment: devnet.deployment }, null, 2))
  const shutdown = () => void devnet.stop().then(() => process.exit(0))
  process.once('SIGINT', shutdown)
  process.once('SIGTERM', shutdown)
}
