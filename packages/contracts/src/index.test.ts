import {
  type Address,
  type ContractFunctionArgs,
  type ContractFunctionReturnType,
  decodeEventLog,
  encodeAbiParameters,
  encodeEventTopics,
  encodeFunctionData,
  getAbiItem,
  getContract,
  type Hex,
  type PublicClient,
  zeroHash,
} from 'viem'
import { describe, expect, expectTypeOf, it } from 'vitest'
import * as contracts from './index.js'
import {
  type ContractName,
  DeploymentNotFoundError,
  deployments,
  type GridforgeDeployment,
  getDeployment,
  stakingAbi,
  taskMarketAbi,
} from './index.js'

const taskParams = {
  sourceId: 1,
  inputCID: 'bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi',
  maxPayment: 10n ** 19n,
  pricePerSecond: 0n,
  replicas: 1,
  deadline: 1_900_000_000,
  requirements: {
    minGpus: 0,
    minVramMiB: 0,
    minComputeCapability: 0,
    maxRuntimeSec: 0,
    deterministic: false,
  },
  minSuccessBps: 0,
  minCompleted: 0,
  auditBps: 0,
  resultKey: zeroHash,
}

describe('exports', () => {
  it('exports exactly these names', () => {
    expect(Object.keys(contracts).sort()).toMatchInlineSnapshot(`
      [
        "DeploymentNotFoundError",
        "deployments",
        "getDeployment",
        "gridTokenAbi",
        "leaseMarketAbi",
        "providerRegistryAbi",
        "sourceRegistryAbi",
        "stakingAbi",
        "taskMarketAbi",
        "timelockControllerAbi",
      ]
    `)
  })

  it('exports one ABI per contract, each an array of ABI items', () => {
    const abis = Object.entries(contracts).filter(([name]) => name.endsWith('Abi'))
    expect(abis.map(([name]) => name).sort()).toEqual([
      'gridTokenAbi',
      'leaseMarketAbi',
      'providerRegistryAbi',
      'sourceRegistryAbi',
      'stakingAbi',
      'taskMarketAbi',
      'timelockControllerAbi',
    ])
    for (const [, abi] of abis) {
      expect(Array.isArray(abi)).toBe(true)
      expect((abi as readonly { type: string }[]).length).toBeGreaterThan(0)
    }
  })
})

describe('ABIs with viem', () => {
  it('types submitTask arguments and return value', () => {
    type Args = ContractFunctionArgs<typeof taskMarketAbi, 'nonpayable', 'submitTask'>
    expectTypeOf<Args>().toEqualTypeOf<
      readonly [
        {
          sourceId: number
          inputCID: string
          maxPayment: bigint
          pricePerSecond: bigint
          replicas: number
          deadline: number
          requirements: {
            minGpus: number
            minVramMiB: number
            minComputeCapability: number
            maxRuntimeSec: number
            deterministic: boolean
          }
          minSuccessBps: number
          minCompleted: number
          auditBps: number
          resultKey: `0x${string}`
        },
      ]
    >()
    expectTypeOf<
      ContractFunctionReturnType<typeof taskMarketAbi, 'nonpayable', 'submitTask'>
    >().toEqualTypeOf<bigint>()

    const data = encodeFunctionData({ abi: taskMarketAbi, functionName: 'submitTask', args: [taskParams] })
    expect(data.slice(0, 10)).toMatch(/^0x[0-9a-f]{8}$/)
    // Type-level only: submitTask takes one TaskParams tuple.
    // @ts-expect-error
    const _rejected = () => encodeFunctionData({ abi: taskMarketAbi, functionName: 'submitTask', args: [1n] })
  })

  it('types contract instances from getContract', () => {
    const market = getContract({
      address: '0x0000000000000000000000000000000000000001',
      abi: taskMarketAbi,
      client: {} as PublicClient,
    })
    expectTypeOf(market.read.taskCount).returns.resolves.toEqualTypeOf<bigint>()
    expectTypeOf(market.read.balanceOf).parameter(0).toEqualTypeOf<readonly [Address]>()
    const staking = getContract({
      address: '0x0000000000000000000000000000000000000002',
      abi: stakingAbi,
      client: {} as PublicClient,
    })
    expectTypeOf(staking.read.availableOf).returns.resolves.toEqualTypeOf<bigint>()
  })

  it('types TaskSubmitted event arguments (the terms are not in the event: read them with getTask)', () => {
    const client = '0x00000000000000000000000000000000000000C1'
    const topics = encodeEventTopics({
      abi: taskMarketAbi,
      eventName: 'TaskSubmitted',
      args: { taskId: 7n, client, sourceId: 1 },
    }) as [Hex, ...Hex[]]
    const event = getAbiItem({ abi: taskMarketAbi, name: 'TaskSubmitted' })
    expect(event.inputs.map((input) => [input.name, input.type, input.indexed])).toEqual([
      ['taskId', 'uint256', true],
      ['client', 'address', true],
      ['sourceId', 'uint32', true],
      ['inputCID', 'string', false],
      ['resultKey', 'bytes32', false],
      ['escrow', 'uint256', false],
    ])
    const data = encodeAbiParameters(
      event.inputs.filter((input) => !input.indexed),
      [taskParams.inputCID, taskParams.resultKey, 2n * taskParams.maxPayment],
    )
    const log = decodeEventLog({ abi: taskMarketAbi, topics, data })
    expect(log.eventName).toBe('TaskSubmitted')
    if (log.eventName !== 'TaskSubmitted') throw new Error('unreachable')
    expectTypeOf(log.args.taskId).toEqualTypeOf<bigint>()
    expectTypeOf(log.args.client).toEqualTypeOf<Address>()
    expectTypeOf(log.args.sourceId).toEqualTypeOf<number>()
    expectTypeOf(log.args.inputCID).toEqualTypeOf<string>()
    expectTypeOf(log.args.resultKey).toEqualTypeOf<Hex>()
    expectTypeOf(log.args.escrow).toEqualTypeOf<bigint>()
    expect(log.args).toEqual({
      taskId: 7n,
      client,
      sourceId: 1,
      inputCID: taskParams.inputCID,
      resultKey: taskParams.resultKey,
      escrow: 2n * taskParams.maxPayment,
    })
  })

  it('types the creator fee views, claim and event', () => {
    type FeesArgs = ContractFunctionArgs<typeof taskMarketAbi, 'view', 'creatorFeesOf'>
    expectTypeOf<FeesArgs>().toEqualTypeOf<readonly [number]>()
    expectTypeOf<
      ContractFunctionReturnType<typeof taskMarketAbi, 'view', 'creatorFeesOf'>
    >().toEqualTypeOf<bigint>()
    expectTypeOf<
      ContractFunctionReturnType<typeof taskMarketAbi, 'nonpayable', 'claimCreatorFees'>
    >().toEqualTypeOf<bigint>()
    const data = encodeFunctionData({ abi: taskMarketAbi, functionName: 'claimCreatorFees', args: [3] })
    expect(data.slice(0, 10)).toMatch(/^0x[0-9a-f]{8}$/)
    const owner = '0x00000000000000000000000000000000000000A1'
    const topics = encodeEventTopics({
      abi: taskMarketAbi,
      eventName: 'CreatorFeesClaimed',
      args: { sourceId: 3, owner },
    }) as [Hex, ...Hex[]]
    const log = decodeEventLog({
      abi: taskMarketAbi,
      topics,
      data: encodeAbiParameters([{ type: 'uint256' }], [5n]),
    })
    expect(log).toEqual({ eventName: 'CreatorFeesClaimed', args: { sourceId: 3, owner, amount: 5n } })
    // the totals and the wiring setters are gone
    const names = taskMarketAbi.map((item) => ('name' in item ? item.name : undefined))
    for (const gone of ['totalBalances', 'totalEscrow']) expect(names).not.toContain(gone)
    for (const abi of [stakingAbi, contracts.providerRegistryAbi]) {
      expect(abi.map((item) => ('name' in item ? item.name : undefined))).not.toContain('setMarket')
    }
  })
})

describe('deployments', () => {
  it('holds the local deployment with every core contract', () => {
    const local = deployments[31337]
    expect(local.chainId).toBe(31337)
    expect(local.module).toBe('LocalGridforge')
    for (const name of ['token', 'sources', 'staking', 'providers', 'market'] as const) {
      expect(local.contracts[name]).toMatch(/^0x[0-9a-fA-F]{40}$/)
    }
    expectTypeOf(local).toExtend<GridforgeDeployment>()
  })

  it('returns a deployment by chain id, typed with its addresses', () => {
    const local = getDeployment(31337)
    expect(local).toBe(deployments[31337])
    expectTypeOf(local.contracts.market).toEqualTypeOf<(typeof deployments)[31337]['contracts']['market']>()
    const any = getDeployment(31337 as number)
    expectTypeOf(any).toEqualTypeOf<GridforgeDeployment>()
    expectTypeOf<ContractName>().toEqualTypeOf<
      'token' | 'sources' | 'staking' | 'providers' | 'market' | 'leases' | 'timelock'
    >()
  })

  it('throws DeploymentNotFoundError for an unknown chain', () => {
    expect(() => getDeployment(1)).toThrow(DeploymentNotFoundError)
    try {
      getDeployment(1)
    } catch (error) {
      expect(error).toBeInstanceOf(DeploymentNotFoundError)
      const notFound = error as DeploymentNotFoundError
      expect(notFound.name).toBe('DeploymentNotFoundError')
      expect(notFound.chainId).toBe(1)
      expect(notFound.knownChainIds).toContain(31337)
      expect(notFound.message).toContain('No Gridforge deployment on chain 1')
    }
  })
})
