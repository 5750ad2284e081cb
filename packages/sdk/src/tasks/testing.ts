/**
 * Test fixtures for the task and market write actions: sources, providers and
 * allowances set up with the raw split ABIs (not the SDK's own actions, so the
 * tests here do not depend on them), and real sha2-256 CIDs. Not exported from
 * the package.
 *
 * Every test file shares one chain with others that move its clock (unbonding,
 * reveal windows, deadlines): fixtures use the longest runtimes and deadlines
 * unless a test needs a short one, so that nobody else's clock jump makes a
 * claim overdue.
 */
import { CID } from 'multiformats/cid'
import * as raw from 'multiformats/codecs/raw'
import { sha256 } from 'multiformats/hashes/sha2'
import { type Abi, type Address, erc20Abi, parseUnits, stringToHex, type TransactionReceipt } from 'viem'
import { deployerClient, deployment, fundedClient } from '../../test/chain.js'
import { getReputation, errors as providerErrors, register, subscribe } from '../abis/providerRegistry.js'
import { publish, errors as sourceErrors } from '../abis/sourceRegistry.js'
import { availableOf, stake, errors as stakingErrors } from '../abis/staking.js'
import { balanceOf } from '../abis/taskMarket.js'

/** A funded test account: wallet + public actions (+ the Gridforge decorator). */
export type TestAccountClient = Awaited<ReturnType<typeof fundedClient>>
type AnyClient = TestAccountClient | ReturnType<typeof deployerClient>

/** A valid CID for inputs and receipts (the raw CID of zero bytes). */
export const anyCid = 'bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku'

/** Seven days: the longest runtime a source may declare. */
export const longRuntimeSec = 7 * 86_400

const errors: Abi = [...sourceErrors, ...stakingErrors, ...providerErrors]

/** Simulates (so reverts come back decoded), sends and waits for a contract write. */
async function send(
  client: AnyClient,
  request: { address: Address; abi: Abi; functionName: string; args: readonly unknown[] },
): Promise<TransactionReceipt> {
  const { request: simulated } = await client.simulateContract({
    ...request,
    abi: [...request.abi, ...errors],
    account: client.account,
  } as never)
  const receipt = await client.waitForTransactionReceipt({
    hash: await client.writeContract(simulated as never),
  })
  if (receipt.status !== 'success') throw new Error(`${request.functionName} reverted`)
  return receipt
}

/** The raw-codec CIDv1 (sha2-256) of `text`: a real output CID whose digest is sha256(text). */
export async function outputCid(text: string): Promise<string> {
  return CID.create(1, raw.code, await sha256.digest(new TextEncoder().encode(text))).toString()
}

/** Publishes a source from `owner` (default: the deployer) and returns its id. */
export async function publishTestSource({
  owner = deployerClient(),
  deterministic = false,
  maxRuntimeSec = longRuntimeSec,
  creatorFeeBps = 0,
}: {
  owner?: AnyClient
  deterministic?: boolean
  maxRuntimeSec?: number
  creatorFeeBps?: number
} = {}): Promise<number> {
  const { result, request } = await owner.simulateContract({
    address: deployment().contracts.sources,
    abi: [publish, ...sourceErrors],
    functionName: 'publish',
    args: [
      stringToHex('image', { size: 32 }),
      anyCid,
      { minGpus: 0, minVramMiB: 0, minComputeCapability: 0, maxRuntimeSec, deterministic },
      creatorFeeBps,
      0,
    ],
    account: owner.account,
  })
  await owner.waitForTransactionReceipt({ hash: await owner.writeContract(request) })
  return result
}

/** Approves `spender` (default: the market) to pull `amount` token units from the client. */
export async function approveTokens(client: AnyClient, amount: string, spender?: Address): Promise<void> {
  await send(client, {
    address: deployment().contracts.token,
    abi: erc20Abi,
    functionName: 'approve',
    args: [spender ?? deployment().contracts.market, parseUnits(amount, 18)],
  })
}

/** A fresh client with `grid` GRID that approved the market for all of it. */
export async function approvedClient({ grid = '1000' }: { grid?: string } = {}): Promise<TestAccountClient> {
  const client = await fundedClient({ grid })
  await approveTokens(client, grid)
  return client
}

/**
 * A fresh provider: stakes `stakeAmount` GRID (default 200), registers with
 * one 24 GiB sm_89 GPU and subscribes to `sourceIds`.
 */
export async function testProvider(
  sourceIds: readonly number[],
  { stakeAmount = '200' }: { stakeAmount?: string } = {},
): Promise<TestAccountClient> {
  const client = await fundedClient()
  const { contracts } = deployment()
  await approveTokens(client, stakeAmount, contracts.staking)
  await send(client, {
    address: contracts.staking,
    abi: [stake],
    functionName: 'stake',
    args: [parseUnits(stakeAmount, 18)],
  })
  await send(client, {
    address: contracts.providers,
    abi: [register],
    functionName: 'register',
    args: [{ gpuCount: 1, vramMiB: 24_576, computeCapability: 89, cpuCores: 8, memoryMiB: 65_536 }, anyCid],
  })
  await send(client, {
    address: contracts.providers,
    abi: [subscribe],
    functionName: 'subscribe',
    args: [sourceIds],
  })
  return client
}

/** `account`'s market (internal) balance, in base units. */
export async function marketBalance(account: Address): Promise<bigint> {
  return deployerClient().readContract({
    address: deployment().contracts.market,
    abi: [balanceOf],
    functionName: 'balanceOf',
    args: [account],
  })
}

/** `account`'s GRID in its wallet, in base units. */
export async function tokenBalance(account: Address): Promise<bigint> {
  return deployerClient().readContract({
    address: deployment().contracts.token,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [account],
  })
}

/** `account`'s stake not locked as collateral, in base units. */
export async function availableStake(account: Address): Promise<bigint> {
  return deployerClient().readContract({
    address: deployment().contracts.staking,
    abi: [availableOf],
    functionName: 'availableOf',
    args: [account],
  })
}

/** `provider`'s reputation counters. */
export async function reputation(provider: Address) {
  return deployerClient().readContract({
    address: deployment().contracts.providers,
    abi: [getReputation],
    functionName: 'getReputation',
    args: [provider],
  })
}

/** The error `promise` rejects with (fails the test when it resolves). */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise
  } catch (error) {
    return error
  }
  throw new Error('expected the promise to reject')
}
