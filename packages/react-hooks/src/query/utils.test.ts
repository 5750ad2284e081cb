import { DeploymentNotFoundError, getDeployment } from '@gridforge/contracts'
import { createConfig, http } from '@wagmi/core'
import { zeroAddress } from 'viem'
import { hardhat, localhost } from 'viem/chains'
import { describe, expect, it } from 'vitest'
import { queryKey, queryKeyHashFn, requireDeployment, resolveChain } from './utils.js'

const config = createConfig({
  chains: [hardhat, localhost],
  transports: { [hardhat.id]: http('http://127.0.0.1:1'), [localhost.id]: http('http://127.0.0.1:1') },
  storage: null,
  multiInjectedProviderDiscovery: false,
})
const market = getDeployment(31337).contracts.market
const own = { blockNumber: 0, contracts: { ...getDeployment(31337).contracts, market: zeroAddress } }

describe('resolveChain', () => {
  it("defaults to the config's current chain and its known deployment", () => {
    expect(resolveChain(config, {})).toEqual({ chainId: 31337, deployment: getDeployment(31337) })
  })

  it('takes the chain and the deployment given', () => {
    expect(resolveChain(config, { chainId: 1337, deployment: own })).toEqual({
      chainId: 1337,
      deployment: own,
    })
  })

  it('does not throw for a chain without a known deployment: the query function does', () => {
    const chain = resolveChain(config, { chainId: 1337 })
    expect(chain).toEqual({ chainId: 1337, deployment: undefined })
    expect(() => requireDeployment(chain)).toThrow(DeploymentNotFoundError)
  })
})

describe('requireDeployment', () => {
  it('returns the deployment given, else the known one', () => {
    expect(requireDeployment({ chainId: 1337, deployment: own })).toBe(own)
    expect(requireDeployment({ chainId: 31337, deployment: undefined })).toBe(getDeployment(31337))
  })

  it('names the chain, the known chains and the `deployment` parameter', () => {
    let error: unknown
    try {
      requireDeployment({ chainId: 1337, deployment: undefined })
    } catch (thrown) {
      error = thrown
    }
    expect(error).toBeInstanceOf(DeploymentNotFoundError)
    expect(error).toMatchObject({ chainId: 1337, knownChainIds: [31337] })
    expect((error as Error).message).toBe(
      'No Gridforge deployment on chain 1337. Known chains: 31337. Deploy with `pnpm --filter @gridforge/contracts run deploy --network <name>`, or pass your own addresses. Pass them as `deployment` (`{ contracts, blockNumber }`) to the hook, or to the query or mutation options.',
    )
    expect((error as Error).stack).toContain('Pass them as `deployment`')
  })
})

describe('queryKey', () => {
  it('is the prefix, the name, then the chain, the market and the defined parameters', () => {
    const key = queryKey('task', resolveChain(config, {}), { taskId: 7n, includeInput: undefined, slot: 0 })
    expect(key).toEqual(['gridforge', 'task', { chainId: 31337, market, taskId: 7n, slot: 0 }])
    expect(Object.keys(key[2])).toEqual(['chainId', 'market', 'taskId', 'slot'])
  })

  it('drops undefined parameters, so `{ a: undefined }` and `{}` share an entry', () => {
    const chain = resolveChain(config, {})
    expect(queryKey('sources', chain, { owner: undefined, active: undefined })).toEqual(
      queryKey('sources', chain, {}),
    )
    expect(queryKeyHashFn(queryKey('sources', chain, { owner: undefined }))).toBe(
      queryKeyHashFn(queryKey('sources', chain, {})),
    )
  })

  it('keys task ids as bigints: 7, 7n and "7" are one entry', () => {
    const chain = resolveChain(config, {})
    const keys = [7, 7n, '7'].map((taskId) => queryKey('task', chain, { taskId }))
    for (const key of keys) expect(key).toEqual(['gridforge', 'task', { chainId: 31337, market, taskId: 7n }])
    expect(new Set(keys.map((key) => queryKeyHashFn(key))).size).toBe(1)
    // Not an id: left for the action's validation to report.
    expect(queryKey('task', chain, { taskId: 'abc' })[2].taskId).toBe('abc')
    expect(queryKey('task', chain, { taskId: 1.5 })[2].taskId).toBe(1.5)
  })

  it('names the market of a custom deployment, and none on a chain without a known one', () => {
    expect(queryKey('task', resolveChain(config, { deployment: own }), {})[2].market).toBe(zeroAddress)
    expect(queryKey('task', resolveChain(config, { chainId: 1337 }), {})).toEqual([
      'gridforge',
      'task',
      { chainId: 1337, market: undefined },
    ])
  })

  it('hashes bigints (wagmi `hashFn`)', () => {
    expect(queryKeyHashFn(['gridforge', 'task', { taskId: 7n, chainId: 1 }])).toBe(
      '["gridforge","task",{"chainId":1,"taskId":"7"}]',
    )
  })
})
