/**
 * Test fixtures for the task read actions: publish a source, register a
 * provider and drive tasks through every status with the raw split ABIs, so
 * that the read tests do not depend on the write actions. Not exported from
 * the package; also used by `bench/listTasks.ts`.
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
  type HttpTransport,
  http,
  keccak256,
  type PublicActions,
  parseEventLogs,
  parseUnits,
  stringToHex,
  type TransactionReceipt,
  type Transport,
  type WalletActions,
} from 'viem'
import { errors as providerErrors, register, subscribe } from '../abis/providerRegistry.js'
import { publish, errors as sourceErrors } from '../abis/sourceRegistry.js'
import { stake, errors as stakingErrors } from '../abis/staking.js'
import {
  cancelTask,
  claimTask,
  commitResult,
  expireTask,
  finalizeTask,
  reopenSlot,
  revealResult,
  submitResult,
  submitTasks,
  TaskClaimed,
  TaskSubmitted,
  errors as taskMarketErrors,
} from '../abis/taskMarket.js'
import type { Deployment } from '../types/deployment.js'

/** A wallet + public client with an account, as `fundedClient()` and `deployerClient()` return. */
export type FixtureClient = Client<Transport, Chain, Account> & PublicActions & WalletActions<Chain, Account>

/** A valid CID to use as input, result or receipt. */
export const fixtureCid = 'bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku'

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
  if (receipt.status !== 'success') throw new Error(`${request.functionName} reverted: ${hash}`)
  return receipt
}

/** Publishes a source (runtime up to 7 days, the most allowed, so that claims stay due whatever others do to the clock). */
export async function publishSource(
  client: FixtureClient,
  deployment: Deployment,
  { deterministic = false, maxRuntimeSec = 7 * 86_400 } = {},
): Promise<number> {
  const { result, request } = await client.simulateContract({
    address: deployment.contracts.sources,
    abi: [publish, ...sourceErrors],
    functionName: 'publish',
    args: [
      stringToHex('image', { size: 32 }),
      fixtureCid,
      { minGpus: 0, minVramMiB: 0, minComputeCapability: 0, maxRuntimeSec, deterministic },
      0,
      0,
    ],
    account: client.account,
  })
  await client.waitForTransactionReceipt({ hash: await client.writeContract(request) })
  return result
}

/** Approves `spender` to pull `amount` (token units) of GRID from the client. */
export async function approve(
  client: FixtureClient,
  deployment: Deployment,
  spender: Address,
  amount: string,
) {
  await send(client, {
    address: deployment.contracts.token,
    abi: erc20Abi,
    functionName: 'approve',
    args: [spender, parseUnits(amount, 18)],
  })
}

export interface FixtureTaskOptions {
  sourceId: number
  /** How many tasks (default 1). */
  count?: number
  replicas?: number
  /** Seconds from the latest block (default 29 days, so others' clock jumps do not expire it). */
  deadlineIn?: number
  /** Token units (default '1'). */
  maxPayment?: string
}

/**
 * Submits `count` tasks in one `submitTasks` transaction (approving the
 * escrow first) and returns their ids and the block they are in.
 */
export async function submitFixtureTasks(
  client: FixtureClient,
  deployment: Deployment,
  { sourceId, count = 1, replicas = 1, deadlineIn = 29 * 86_400, maxPayment = '1' }: FixtureTaskOptions,
): Promise<{ taskIds: bigint[]; blockNumber: bigint }> {
  const payment = parseUnits(maxPayment, 18)
  await send(client, {
    address: deployment.contracts.token,
    abi: erc20Abi,
    functionName: 'approve',
    args: [deployment.contracts.market, payment * BigInt(replicas * count)],
  })
  const { timestamp } = await client.getBlock({ blockTag: 'latest' })
  const task = {
    sourceId,
    inputCID: fixtureCid,
    maxPayment: payment,
    pricePerSecond: 0n,
    replicas,
    deadline: Number(timestamp) + deadlineIn,
    requirements: {
      minGpus: 0,
      minVramMiB: 0,
      minComputeCapability: 0,
      maxRuntimeSec: 0,
      deterministic: false,
    },
    minSuccessBps: 0,
    minCompleted: 0,
  }
  const receipt = await send(client, {
    address: deployment.contracts.market,
    abi: [submitTasks],
    functionName: 'submitTasks',
    args: [Array.from({ length: count }, (_, index) => ({ ...task, inputCID: inputFor(index) }))],
  })
  const taskIds = parseEventLogs({ abi: [TaskSubmitted], logs: receipt.logs }).map((log) => log.args.taskId)
  return { taskIds, blockNumber: receipt.blockNumber }
}

/** A distinct valid-looking input per index (the contract only checks the length). */
export function inputFor(index: number): string {
  return index === 0 ? fixtureCid : `${fixtureCid.slice(0, -6)}${String(index).padStart(6, '0')}`
}

/** Stakes 200 GRID, registers the client as a provider and subscribes it to `sourceIds`. */
export async function registerFixtureProvider(
  client: FixtureClient,
  deployment: Deployment,
  sourceIds: readonly number[],
): Promise<void> {
  await approve(client, deployment, deployment.contracts.staking, '200')
  await send(client, {
    address: deployment.contracts.staking,
    abi: [stake],
    functionName: 'stake',
    args: [parseUnits('200', 18)],
  })
  await send(client, {
    address: deployment.contracts.providers,
    abi: [register],
    functionName: 'register',
    args: [
      { gpuCount: 1, vramMiB: 24_576, computeCapability: 89, cpuCores: 8, memoryMiB: 65_536 },
      fixtureCid,
    ],
  })
  await send(client, {
    address: deployment.contracts.providers,
    abi: [subscribe],
    functionName: 'subscribe',
    args: [sourceIds],
  })
}

const market = (deployment: Deployment) => deployment.contracts.market

/** Claims a slot of `taskId`; returns the slot. */
export async function claim(client: FixtureClient, deployment: Deployment, taskId: bigint): Promise<number> {
  const receipt = await send(client, {
    address: market(deployment),
    abi: [claimTask],
    functionName: 'claimTask',
    args: [taskId],
  })
  const [log] = parseEventLogs({ abi: [TaskClaimed], logs: receipt.logs })
  if (log === undefined) throw new Error('claimTask emitted no TaskClaimed')
  return log.args.slot
}

/** Submits a single-replica result. */
export function submit(
  client: FixtureClient,
  deployment: Deployment,
  taskId: bigint,
  { result = fixtureCid, receipt = fixtureCid, runtimeSec = 42 } = {},
) {
  return send(client, {
    address: market(deployment),
    abi: [submitResult],
    functionName: 'submitResult',
    args: [taskId, result, receipt, runtimeSec],
  })
}

const salt = keccak256(stringToHex('salt'))

/** The digest a fixture provider commits to for `result`. */
export function digestOf(result: string): Hex {
  return keccak256(stringToHex(result))
}

/** Commits to `result` (replicas > 1). */
export function commit(client: FixtureClient, deployment: Deployment, taskId: bigint, result: string) {
  const commitment = keccak256(
    encodeAbiParameters(
      [{ type: 'uint256' }, { type: 'address' }, { type: 'bytes32' }, { type: 'bytes32' }],
      [taskId, client.account.address, digestOf(result), salt],
    ),
  )
  return send(client, {
    address: market(deployment),
    abi: [commitResult],
    functionName: 'commitResult',
    args: [taskId, commitment],
  })
}

/** Reveals the `result` committed with {@link commit}. */
export function reveal(
  client: FixtureClient,
  deployment: Deployment,
  taskId: bigint,
  result: string,
  { receipt = fixtureCid, runtimeSec = 7 } = {},
) {
  return send(client, {
    address: market(deployment),
    abi: [revealResult],
    functionName: 'revealResult',
    args: [taskId, digestOf(result), salt, result, receipt, runtimeSec],
  })
}

/** Cancels an unclaimed task (as its client). */
export function cancel(client: FixtureClient, deployment: Deployment, taskId: bigint) {
  return send(client, {
    address: market(deployment),
    abi: [cancelTask],
    functionName: 'cancelTask',
    args: [taskId],
  })
}

/** Expires a task past its deadline (anyone). */
export function expire(client: FixtureClient, deployment: Deployment, taskId: bigint) {
  return send(client, {
    address: market(deployment),
    abi: [expireTask],
    functionName: 'expireTask',
    args: [taskId],
  })
}

/** Finalises a task whose reveal window closed (anyone). */
export function finalize(client: FixtureClient, deployment: Deployment, taskId: bigint) {
  return send(client, {
    address: market(deployment),
    abi: [finalizeTask],
    functionName: 'finalizeTask',
    args: [taskId],
  })
}

/** Reopens an overdue slot (anyone). */
export function reopen(client: FixtureClient, deployment: Deployment, taskId: bigint, slot: number) {
  return send(client, {
    address: market(deployment),
    abi: [reopenSlot],
    functionName: 'reopenSlot',
    args: [taskId, slot],
  })
}

/**
 * An HTTP transport that counts the JSON-RPC calls it sends, batch entries
 * included (as a node or an RPC provider would bill them).
 */
export function countingTransport(url: string): {
  transport: HttpTransport
  count(): number
  /** The methods called, in order. */
  methods(): string[]
  reset(): void
} {
  const methods: string[] = []
  const transport = http(url, {
    onFetchRequest: (_request, init) => {
      const body: unknown = typeof init.body === 'string' ? JSON.parse(init.body) : undefined
      for (const call of Array.isArray(body) ? body : [body]) {
        methods.push(
          typeof call === 'object' && call !== null && 'method' in call ? String(call.method) : '?',
        )
      }
    },
  })
  return {
    transport,
    count: () => methods.length,
    methods: () => [...methods],
    reset: () => {
      methods.length = 0
    },
  }
}
