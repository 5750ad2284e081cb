import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { IndexerSettingsError, readSettings } from './environment.js'

const deployment = {
  chainId: 31337,
  module: 'LocalGridforge',
  blockNumber: 1,
  contracts: {
    token: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
    sources: '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512',
    staking: '0xd8058efe0198ae9dD7D563e1b4938Dcbc86A1F81',
    providers: '0x6D544390Eb535d61e196c87d6B9c80dCD8628Acd',
    market: '0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9',
    leases: '0xDc64a140Aa3E981100a9becA4E685f962f0cF6C9',
  },
}

let dir: string
let local: string
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'gridforge-indexer-env-'))
  local = path.join(dir, '31337.json')
  await writeFile(local, JSON.stringify(deployment))
  await writeFile(path.join(dir, 'sepolia.json'), JSON.stringify({ ...deployment, chainId: 11155111 }))
  await writeFile(path.join(dir, 'broken.json'), '{')
  await writeFile(
    path.join(dir, 'no-market.json'),
    JSON.stringify({ ...deployment, contracts: { ...deployment.contracts, market: '0x1' } }),
  )
})

const read = (env: Record<string, string | undefined>) => readSettings(env, { defaultDeploymentPath: local })

/** The error readSettings throws, with its variable. */
function failure(env: Record<string, string | undefined>) {
  try {
    read(env)
  } catch (error) {
    expect(error).toBeInstanceOf(IndexerSettingsError)
    return { variable: (error as IndexerSettingsError).variable, message: (error as Error).message }
  }
  throw new Error('expected readSettings to throw')
}

describe('readSettings', () => {
  it('runs with no set-up: a local node, the local deployment, PGlite in .ponder/pglite', () => {
    expect(read({})).toEqual({
      rpcUrl: 'http://127.0.0.1:8545',
      deployment,
      deploymentSource: local,
      database: { kind: 'pglite', directory: path.join('.ponder', 'pglite') },
      pollingIntervalMs: 1_000,
      disableCache: true,
      requestsPerSecond: 500,
    })
  })

  it('takes PostgreSQL from DATABASE_URL, and caches RPC answers of a chain that is not local', () => {
    const settings = read({
      GRIDFORGE_RPC_URL: 'https://rpc.example.org/v1',
      GRIDFORGE_DEPLOYMENT: path.join(dir, 'sepolia.json'),
      DATABASE_URL: 'postgres://indexer@127.0.0.1:5432/gridforge',
      GRIDFORGE_POLLING_INTERVAL_MS: '2000',
    })
    expect(settings).toMatchObject({
      rpcUrl: 'https://rpc.example.org/v1',
      database: { kind: 'postgres', connectionString: 'postgres://indexer@127.0.0.1:5432/gridforge' },
      pollingIntervalMs: 2_000,
      disableCache: false,
      // Ponder's own adaptive start: a hosted node may limit its clients.
      requestsPerSecond: undefined,
    })
    expect(settings.deployment.chainId).toBe(11155111)
  })

  it('starts the rate limit where GRIDFORGE_RPC_REQUESTS_PER_SECOND says, on any chain', () => {
    const sepolia = path.join(dir, 'sepolia.json')
    expect(
      read({ GRIDFORGE_DEPLOYMENT: sepolia, GRIDFORGE_RPC_REQUESTS_PER_SECOND: '200' }).requestsPerSecond,
    ).toBe(200)
    expect(read({ GRIDFORGE_RPC_REQUESTS_PER_SECOND: '20' }).requestsPerSecond).toBe(20)
  })

  it('puts PGlite where GRIDFORGE_PGLITE_DIR says', () => {
    expect(read({ GRIDFORGE_PGLITE_DIR: '/var/lib/gridforge/pglite' }).database).toEqual({
      kind: 'pglite',
      directory: '/var/lib/gridforge/pglite',
    })
  })

  it('names the variable that cannot be used and says what it takes', () => {
    expect(failure({ GRIDFORGE_RPC_URL: 'ws://127.0.0.1:8546' })).toEqual({
      variable: 'GRIDFORGE_RPC_URL',
      message: 'GRIDFORGE_RPC_URL: expected an http(s) URL, got "ws://127.0.0.1:8546"',
    })
    expect(failure({ GRIDFORGE_DEPLOYMENT: path.join(dir, 'missing.json') })).toMatchObject({
      variable: 'GRIDFORGE_DEPLOYMENT',
      message: expect.stringMatching(
        /^GRIDFORGE_DEPLOYMENT: cannot read the deployment .*missing\.json: ENOENT/,
      ),
    })
    expect(failure({ GRIDFORGE_DEPLOYMENT: path.join(dir, 'broken.json') })).toMatchObject({
      variable: 'GRIDFORGE_DEPLOYMENT',
      message: expect.stringMatching(/broken\.json is not JSON/),
    })
    expect(failure({ GRIDFORGE_DEPLOYMENT: path.join(dir, 'no-market.json') })).toEqual({
      variable: 'GRIDFORGE_DEPLOYMENT',
      message: `GRIDFORGE_DEPLOYMENT: ${path.join(dir, 'no-market.json')} is not a Gridforge deployment (as packages/contracts/deployments/*.json): \`contracts.market\` must be an address`,
    })
    expect(failure({ GRIDFORGE_POLLING_INTERVAL_MS: '10' })).toEqual({
      variable: 'GRIDFORGE_POLLING_INTERVAL_MS',
      message:
        'GRIDFORGE_POLLING_INTERVAL_MS: expected a whole number of milliseconds from 50 to 600000, got "10"',
    })
    expect(failure({ GRIDFORGE_RPC_REQUESTS_PER_SECOND: 'fast' })).toEqual({
      variable: 'GRIDFORGE_RPC_REQUESTS_PER_SECOND',
      message:
        'GRIDFORGE_RPC_REQUESTS_PER_SECOND: expected a whole number of requests per second from 1 to 10000, got "fast"',
    })
  })
})
