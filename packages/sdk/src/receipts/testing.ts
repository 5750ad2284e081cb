/**
 * Test fixtures for the receipt tests: publish a source, make a provider
 * (stake, register, subscribe), submit and claim tasks and submit or reveal
 * results with the raw split ABIs, so that these tests do not depend on the
 * write actions. Not exported from the package.
 */
import {
  type Abi,
  type Account,
  type Address,
  type Chain,
  type Client,
  encodeAbiParameters,
  erc20Abi,
  type Hex,
  keccak256,
  type PublicActions,
  parseEventLogs,
  parseUnits,
  type TransactionReceipt,
  type Transport,
  toHex,
  type WalletActions,
} from 'viem'
import { errors as providerErrors, register, subscribe } from '../abis/providerRegistry.js'
import { publish, errors as sourceErrors } from '../abis/sourceRegistry.js'
import { stake, errors as stakingErrors } from '../abis/staking.js'
import {
  claimTask,
  commitResult,
  revealResult,
  submitResult,
  submitTask,
  TaskClaimed,
  TaskSubmitted,
  errors as taskMarketErrors,
} from '../abis/taskMarket.js'
import type { Deployment } from '../types/deployment.js'
import { parseCid } from '../utils/cid.js'

/** A wallet + public client with an account, as `fundedClient()` and `deployerClient()` return. */
export type FixtureClient = Client<Transport, Chain, Account> & PublicActions & WalletActions<Chain, Account>

/** CIDs to use as inputs, outputs, logs and metadata (raw leaves of different bytes). */
export const cids = {
  input: 'bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku',
  output: 'bafkreidvbhs33ighmljlvr7zbv2ywwzcmp5adtf4kqvlly67cy56bdtmve',
  otherOutput: 'bafkreiabltrd5zm73pvi7plq25pef3hm7jxhbi3kv4hapegrkfpkqtkbme',
  logs: 'bafkreie7q3iidccmpvszul7kudcvvuavuo7u6gzlbobczuk5nqk3b4akba',
  metadata: 'bafkreifjjcie6lypi6ny7amxnfftagclbuxndqonfipmb64f2km2devei4',
} as const

const abi: Abi = [...taskMarketErrors, ...providerErrors, ...sourceErrors, ...stakingErrors]

/** Sends a contract write (simulated first, so reverts come back decoded) and waits for its receipt. */
export async function send(
  client: FixtureClient,
  request: { address: Address; abi: Abi; functionName: string; args: readonly unknown[] },
): Promise<TransactionReceipt> {
  const { request: simulated } = await client.simulateContract({
    ...request,
    abi: [...request.abi, ...abi],
    account: client.account,
  } as never)
  const hash = await client.writeContract(simulated as never)
  const receipt = await client.waitForTransactionReceipt({ hash })
  if (receipt.status !== 'success') throw new Error(`${request.functionName} reverted in ${hash}`)
  return receipt
}

/** A random bytes32, e.g. an image digest. */
export function randomBytes32(): Hex {
  return toHex(crypto.getRandomValues(new Uint8Array(32)))
}

/** Publishes a source with no hardware requirements and a 10-minute runtime limit. */
export async function publishSource(
  owner: FixtureClient,
  deployment: Deployment,
  {
    deterministic = false,
    imageDigest = randomBytes32(),
  }: { deterministic?: boolean; imageDigest?: Hex } = {},
): Promise<{ sourceId: number; imageDigest: Hex }> {
  const { result, request } = await owner.simulateContract({
    address: deployment.contracts.sources,
    abi: [publish, ...sourceErrors],
    functionName: 'publish',
    args: [
      imageDigest,
      cids.metadata,
      { minGpus: 0, minVramMiB: 0, minComputeCapability: 0, maxRuntimeSec: 600, deterministic },
      0,
      0,
    ],
    account: owner.account,
  })
  const hash = await owner.writeContract(request)
  await owner.waitForTransactionReceipt({ hash })
  return { sourceId: result, imageDigest }
}

/** Stakes 200 GRID, registers a one-GPU host and subscribes to `sourceId`. */
export async function makeProvider(provider: FixtureClient, deployment: Deployment, sourceId: number) {
  const amount = parseUnits('200', 18)
  await send(provider, {
    address: deployment.contracts.token,
    abi: erc20Abi,
    functionName: 'approve',
    args: [deployment.contracts.staking, amount],
  })
  await send(provider, {
    address: deployment.contracts.staking,
    abi: [stake],
    functionName: 'stake',
    args: [amount],
  })
  await send(provider, {
    address: deployment.contracts.providers,
    abi: [register],
    functionName: 'register',
    args: [
      { gpuCount: 1, vramMiB: 24_576, computeCapability: 89, cpuCores: 8, memoryMiB: 32_768 },
      cids.metadata,
    ],
  })
  await send(provider, {
    address: deployment.contracts.providers,
    abi: [subscribe],
    functionName: 'subscribe',
    args: [[sourceId]],
  })
}

/** Submits a task at a fixed price of `maxPayment` GRID per replica, due in 2 hours. */
export async function submitFixtureTask(
  client: FixtureClient,
  deployment: Deployment,
  { sourceId, replicas = 1, maxPayment = '5' }: { sourceId: number; replicas?: number; maxPayment?: string },
): Promise<{ taskId: bigint; inputCID: string }> {
  const escrow = parseUnits(maxPayment, 18) * BigInt(replicas)
  await send(client, {
    address: deployment.contracts.token,
    abi: erc20Abi,
    functionName: 'approve',
    args: [deployment.contracts.market, escrow],
  })
  const block = await client.getBlock()
  const receipt = await send(client, {
    address: deployment.contracts.market,
    abi: [submitTask],
    functionName: 'submitTask',
    args: [
      {
        sourceId,
        inputCID: cids.input,
        maxPayment: parseUnits(maxPayment, 18),
        pricePerSecond: 0n,
        replicas,
        deadline: Number(block.timestamp) + 7_200,
        requirements: {
          minGpus: 0,
          minVramMiB: 0,
          minComputeCapability: 0,
          maxRuntimeSec: 0,
          deterministic: false,
        },
        minSuccessBps: 0,
        minCompleted: 0,
      },
    ],
  })
  const [event] = parseEventLogs({ abi: [TaskSubmitted], logs: receipt.logs })
  if (event === undefined) throw new Error('no TaskSubmitted event')
  return { taskId: event.args.taskId, inputCID: event.args.inputCID }
}

/** Claims a slot of `taskId`; returns the slot and the claim's block time. */
export async function claim(
  provider: FixtureClient,
  deployment: Deployment,
  taskId: bigint,
): Promise<{ slot: number; claimedAt: number }> {
  const receipt = await send(provider, {
    address: deployment.contracts.market,
    abi: [claimTask],
    functionName: 'claimTask',
    args: [taskId],
  })
  const [event] = parseEventLogs({ abi: [TaskClaimed], logs: receipt.logs })
  if (event === undefined) throw new Error('no TaskClaimed event')
  const block = await provider.getBlock({ blockNumber: receipt.blockNumber })
  return { slot: event.args.slot, claimedAt: Number(block.timestamp) }
}

/** k = 1: submits the result and the receipt CID, which settles the task. */
export function submit(
  provider: FixtureClient,
  deployment: Deployment,
  {
    taskId,
    resultCID,
    receiptCID,
    runtimeSec,
  }: { taskId: bigint; resultCID: string; receiptCID: string; runtimeSec: number },
): Promise<TransactionReceipt> {
  return send(provider, {
    address: deployment.contracts.market,
    abi: [submitResult],
    functionName: 'submitResult',
    args: [taskId, resultCID, receiptCID, runtimeSec],
  })
}

/** The commitment of `commitResult`: keccak256(abi.encode(taskId, provider, resultDigest, salt)). */
function commitmentOf(taskId: bigint, provider: Address, digest: Hex, salt: Hex): Hex {
  return keccak256(
    encodeAbiParameters(
      [{ type: 'uint256' }, { type: 'address' }, { type: 'bytes32' }, { type: 'bytes32' }],
      [taskId, provider, digest, salt],
    ),
  )
}

/** The digest of a result CID that a commitment binds (its multihash digest). */
export function digestOf(cid: string): Hex {
  const parsed = parseCid(cid)
  if (!('cid' in parsed)) throw new Error(parsed.error)
  return toHex(parsed.cid.digest)
}

/** k > 1: commits to `resultCID`; returns the salt for the reveal. */
export async function commit(
  provider: FixtureClient,
  deployment: Deployment,
  { taskId, resultCID }: { taskId: bigint; resultCID: string },
): Promise<Hex> {
  const salt = randomBytes32()
  await send(provider, {
    address: deployment.contracts.market,
    abi: [commitResult],
    functionName: 'commitResult',
    args: [taskId, commitmentOf(taskId, provider.account.address, digestOf(resultCID), salt)],
  })
  return salt
}

/** k > 1: reveals a committed result with its receipt CID. */
export function reveal(
  provider: FixtureClient,
  deployment: Deployment,
  {
    taskId,
    resultCID,
    receiptCID,
    runtimeSec,
    salt,
  }: { taskId: bigint; resultCID: string; receiptCID: string; runtimeSec: number; salt: Hex },
): Promise<TransactionReceipt> {
  return send(provider, {
    address: deployment.contracts.market,
    abi: [revealResult],
    functionName: 'revealResult',
    args: [taskId, digestOf(resultCID), salt, resultCID, receiptCID, runtimeSec],
  })
}
