/**
 * The example as its README runs it, on a throwaway chain: a Hardhat node of this project on a free
 * port of 127.0.0.1 is the `custom` network (GRIDFORGE_DEPLOY_RPC_URL, GRIDFORGE_DEPLOY_KEY); the two
 * commands of `pnpm start` deploy LocalGridforge with ignition/parameters.json and write the
 * deployment JSON; the SDK and the `gridforge` CLI then read the network through that file. Then
 * the timelock-governed module, around the token just deployed. The first deployment compiles the
 * contracts with solcjs (a minute or two).
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtemp, readFile, rm, rmdir, writeFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { GridforgeDeployment } from '@gridforge/contracts'
import { getOwnership, getProtocolParams, getProviderRegistryParams, getStakingParams } from '@gridforge/sdk'
import { createPublicClient, type Hex, http, zeroAddress } from 'viem'
import { hardhat } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const exampleRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const hardhatBin = path.join(exampleRoot, 'node_modules/.bin/hardhat')
const gridforgeBin = path.resolve(exampleRoot, '../../packages/sdk/dist/cli.js')
/** Hardhat's development account #0 (a well-known key): the deployer. */
const deployerKey = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'
const account1 = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const account3 = '0x90F79bf6EB2c4f870365E785982E1f101E93b906'

let node: ChildProcess | undefined
let rpcUrl: string
let work: string | undefined
const deploymentIds: string[] = []

beforeAll(async () => {
  const port = await freePort()
  rpcUrl = `http://127.0.0.1:${port}`
  node = spawn(hardhatBin, ['node', '--hostname', '127.0.0.1', '--port', String(port)], {
    cwd: exampleRoot,
    stdio: 'ignore',
  })
  await waitForRpc(rpcUrl)
  work = await mkdtemp(path.join(tmpdir(), 'gridforge-example-hardhat-deploy-'))
})

afterAll(async () => {
  if (node !== undefined && node.exitCode === null) {
    const exited = new Promise((resolve) => node?.once('exit', resolve))
    node.kill('SIGTERM')
    await exited
  }
  for (const id of deploymentIds) {
    await rm(path.join(exampleRoot, 'ignition/deployments', id), { recursive: true, force: true })
    await rm(path.join(exampleRoot, 'deployments', `${id}.json`), { force: true })
  }
  // The folders, when this test created them (left alone when they hold anything else).
  for (const folder of ['ignition/deployments', 'deployments'])
    await rmdir(path.join(exampleRoot, folder)).catch(() => {})
  if (work !== undefined) await rm(work, { recursive: true, force: true })
})

describe('examples/hardhat-deploy', () => {
  let local: GridforgeDeployment

  it('deploys LocalGridforge with ignition/parameters.json and writes the deployment JSON', async () => {
    local = await deploy('ignition/modules/LocalGridforge.ts', 'ignition/parameters.json', 'smoke-local')
    expect(local).toMatchObject({
      chainId: 31337,
      module: 'LocalGridforge',
      token: { symbol: 'GRID', decimals: 18 },
    })
    expect(Object.keys(local.contracts).sort()).toEqual([
      'leases',
      'market',
      'providers',
      'sources',
      'staking',
      'token',
    ])
    const client = publicClient()
    for (const address of Object.values(local.contracts))
      expect((await client.getCode({ address }))?.length ?? 0, address).toBeGreaterThan(2)
    expect(local.blockNumber).toBeLessThanOrEqual(Number(await client.getBlockNumber()))
  })

  it('the SDK reads the parameters the file set, through the deployment JSON', async () => {
    const { LocalGridforge: parameters } = JSON.parse(
      await readFile(path.join(exampleRoot, 'ignition/parameters.json'), 'utf8'),
    )
    const client = publicClient()
    const deployment = local
    const { minCollateral, ...market } = parameters.marketParams
    expect(await getProtocolParams(client, { deployment })).toMatchObject({
      ...market,
      minCollateral: BigInt(minCollateral.replace(/n$/, '')),
      treasury: parameters.treasury,
      taskCount: 0n,
    })
    expect((await getStakingParams(client, { deployment })).unbondingPeriodSec).toBe(
      parameters.unbondingPeriod,
    )
    expect((await getProviderRegistryParams(client, { deployment })).minProviderStake).toBe(
      BigInt(parameters.minProviderStake.replace(/n$/, '')),
    )
  })

  it('the gridforge CLI takes it as --deployment', async () => {
    const listed = await run(process.execPath, [
      ...[gridforgeBin, 'source', 'list', '--json'],
      ...['--rpc', rpcUrl, '--deployment', deploymentFile(deploymentIds[0] as string)],
    ])
    expect(listed.code, listed.stderr).toBe(0)
    expect(JSON.parse(listed.stdout)).toEqual([])
  })

  it('deploys the timelock-governed module around an existing ERC-20', async () => {
    const { Gridforge: example } = JSON.parse(
      await readFile(path.join(exampleRoot, 'ignition/parameters.governed.json'), 'utf8'),
    )
    const parameters = path.join(work as string, 'governed.json')
    const Gridforge = {
      ...example,
      asset: local.contracts.token,
      treasury: account3,
      timelockMinDelay: 3600,
      timelockProposers: [account1],
    }
    await writeFile(parameters, JSON.stringify({ Gridforge }))
    const governed = await deploy('ignition/modules/Gridforge.ts', parameters, 'smoke-governed')
    expect(governed).toMatchObject({ chainId: 31337, module: 'Gridforge' })
    expect(governed.contracts.token).toBe(local.contracts.token)
    const timelock = governed.contracts.timelock as Hex
    expect(timelock).toMatch(/^0x[0-9a-fA-F]{40}$/)
    for (const contract of ['market', 'staking', 'providers'] as const)
      expect(await getOwnership(publicClient(), { deployment: governed, contract })).toEqual({
        owner: timelock,
        pendingOwner: zeroAddress,
      })
    expect((await getProtocolParams(publicClient(), { deployment: governed })).treasury).toBe(account3)
  })
})

/** `pnpm start`'s two commands, with their own deployment id; returns the JSON written. */
async function deploy(module: string, parameters: string, name: string): Promise<GridforgeDeployment> {
  const id = `${name}-${new URL(rpcUrl).port}`
  deploymentIds.push(id)
  const deployed = await run(hardhatBin, [
    ...['ignition', 'deploy', module, '--network', 'custom'],
    ...['--parameters', parameters, '--deployment-id', id],
  ])
  expect(deployed.code, `${deployed.stdout}\n${deployed.stderr}`).toBe(0)
  const written = await run(
    hardhatBin,
    ['run', '--no-compile', 'scripts/write-deployment.ts', '--network', 'custom'],
    {
      GRIDFORGE_DEPLOYMENT_ID: id,
    },
  )
  expect(written.code, `${written.stdout}\n${written.stderr}`).toBe(0)
  return JSON.parse(await readFile(deploymentFile(id), 'utf8'))
}

const deploymentFile = (id: string) => path.join(exampleRoot, 'deployments', `${id}.json`)
const publicClient = () => createPublicClient({ chain: hardhat, transport: http(rpcUrl) })

/** Runs a command in the example's directory, the custom network pointed at the node. */
function run(command: string, args: string[], env: Record<string, string> = {}) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: exampleRoot,
      env: { ...process.env, GRIDFORGE_DEPLOY_RPC_URL: rpcUrl, GRIDFORGE_DEPLOY_KEY: deployerKey, ...env },
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString()
    })
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString()
    })
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
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

async function waitForRpc(url: string, timeoutMs = 60_000) {
  const started = Date.now()
  while (Date.now() - started < timeoutMs) {
    if (node?.exitCode !== null) throw new Error(`hardhat node exited with ${node?.exitCode}`)
    const answered = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
    }).then(
      (response) => response.ok,
      () => false,
    )
    if (answered) return
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  throw new Error(`no JSON-RPC answer on ${url} after ${timeoutMs} ms`)
}
