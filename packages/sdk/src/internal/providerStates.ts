import {
  type Abi,
  type Account,
  type Address,
  type Chain,
  type Client,
  decodeFunctionResult,
  encodeFunctionData,
  type Transport,
} from 'viem'
import { multicall } from 'viem/actions'
import { getAction } from 'viem/utils'
import {
  getProvider as getProviderFunction,
  isSubscribed as isSubscribedFunction,
  ProviderRegistered,
  priceFloorOf,
} from '../abis/providerRegistry.js'
import { availableOf } from '../abis/staking.js'
import { BaseError } from '../errors/base.js'
import type { ClaimantState } from '../tasks/claimRefusals.js'
import type { Deployment } from '../types/deployment.js'
import { aggregate } from './aggregator.js'
import { getLogsPaginated } from './logs.js'

/**
 * Providers per `eth_call`. A provider costs three registry reads (its
 * profile, its subscription, its floor: about 15,000 gas) and one Staking
 * read; 300 stay far inside a call's gas cap.
 */
const providersPerCall = 300

const registryReads = [getProviderFunction, isSubscribedFunction, priceFloorOf] as const

interface ProviderInfoStruct {
  paused: boolean
  capabilities: { gpuCount: number; vramMiB: number; computeCapability: number }
  reputation: { completed: number; failed: number; outvoted: number }
}

/**
 * Every provider that ever registered (from ProviderRegistered events; the
 * registry has no way out, so each is still registered) and, as of
 * `blockNumber`, what a claim of `sourceId`'s tasks checks of it. One
 * `eth_getLogs` (paged as `blockRange` says) and two `eth_call`s per 300
 * providers: through the chain's Multicall3, else through the read-only
 * aggregator placed by a state override (see `getTasks`).
 */
export async function readProviderStates(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  {
    deployment,
    sourceId,
    blockNumber,
    fromBlock,
    blockRange,
  }: {
    deployment: Deployment
    sourceId: number
    blockNumber: bigint
    fromBlock: bigint
    blockRange?: bigint | undefined
  },
): Promise<ClaimantState[]> {
  const { providers: registry, staking } = deployment.contracts
  const logs = await getLogsPaginated(client, {
    address: registry,
    event: ProviderRegistered,
    fromBlock,
    toBlock: blockNumber,
    blockRange,
  })
  const providers = [...new Set(logs.map((log) => log.args.provider))]
  const states: ClaimantState[] = []
  for (let start = 0; start < providers.length; start += providersPerCall) {
    const chunk = providers.slice(start, start + providersPerCall)
    const [registryResults, stakes] = await Promise.all([
      readAll(client, {
        target: registry,
        abi: registryReads,
        blockNumber,
        calls: chunk.flatMap((provider) => [
          { functionName: 'getProvider', args: [provider] },
          { functionName: 'isSubscribed', args: [provider, sourceId] },
          { functionName: 'priceFloorOf', args: [provider] },
        ]),
      }),
      readAll(client, {
        target: staking,
        abi: [availableOf],
        blockNumber,
        calls: chunk.map((provider) => ({ functionName: 'availableOf', args: [provider] })),
      }),
    ])
    chunk.forEach((provider, index) => {
      const info = registryResults[index * 3] as ProviderInfoStruct
      const { completed, failed, outvoted } = info.reputation
      const finished = completed + failed + outvoted
      states.push({
        provider,
        paused: info.paused,
        subscribed: registryResults[index * 3 + 1] as boolean,
        gpuCount: info.capabilities.gpuCount,
        vramMiB: info.capabilities.vramMiB,
        computeCapability: info.capabilities.computeCapability,
        completed,
        // As the registry computes it: no record is 0, not 100 %.
        successBps: finished === 0 ? 0 : Math.floor((completed * 10_000) / finished),
        priceFloor: registryResults[index * 3 + 2] as bigint,
        availableStake: stakes[index] as bigint,
      })
    })
  }
  return states
}

/** View calls to one contract in one `eth_call`, decoded; a failed call throws (these views revert only at a wrong address). */
async function readAll(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  {
    target,
    abi,
    calls,
    blockNumber,
  }: {
    target: Address
    abi: Abi
    calls: readonly { functionName: string; args: readonly unknown[] }[]
    blockNumber: bigint
  },
): Promise<unknown[]> {
  const multicall3 = client.chain?.contracts?.multicall3
  if (
    multicall3 !== undefined &&
    (multicall3.blockCreated === undefined || BigInt(multicall3.blockCreated) <= blockNumber)
  ) {
    return getAction(
      client,
      multicall,
      'multicall',
    )({
      contracts: calls.map((call) => ({ address: target, abi, ...call })),
      allowFailure: false,
      blockNumber,
    } as never) as Promise<unknown[]>
  }
  const results = await aggregate(client, {
    target,
    blockNumber,
    calls: calls.map((call) => encodeFunctionData({ abi, ...call } as never)),
  })
  return results.map(({ success, data }, index) => {
    const call = calls[index] as (typeof calls)[number]
    if (!success)
      throw new BaseError(`${call.functionName} reverted on ${target} at block ${blockNumber}.`, {
        details: data,
        metaMessages: ["Check that the deployment's addresses are this chain's Gridforge contracts."],
      })
    return decodeFunctionResult({ abi, functionName: call.functionName, data } as never)
  })
}
