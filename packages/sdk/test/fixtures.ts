/**
 * Test fixtures shared by the SDK tests and benches: publish sources, make
 * providers (stake, register, subscribe), submit tasks and drive them through
 * every status with the raw split ABIs (not the SDK's own actions, so that the
 * tests do not depend on them), plus balances, real CIDs and a request-counting
 * transport. Lives outside src/, so it is never published.
 *
 * The functions that take a `deployment` also work outside vitest (the bench);
 * the others read the test chain through test/chain.ts.
 *
 * Every test file shares one chain with others that move its clock (unbonding,
 * reveal windows, deadlines): fixtures use the longest runtimes and deadlines
 * unless a test needs a short one, so that nobody else's clock jump makes a
 * claim overdue.
 */
import { CID } from 'multiformats/cid'
import * as raw from 'multiformats/codecs/raw'
import { sha256 } from 'multiformats/hashes/sha2'
import {
  type Abi,
  type Account,
  type Address,
  type Chain,
  type Client,
  concat,
  encodeAbiParameters,
  erc20Abi,
  type Hex,
  type HttpTransport,
  http,
  isAddressEqual,
  keccak256,
  type PublicActions,
  pad,
  parseEventLogs,
  parseUnits,
  stringToHex,
  type TransactionReceipt,
  type Transport,
  toHex,
  type WalletActions,
  zeroHash,
} from 'viem'
import { getReputation, errors as providerErrors, register, subscribe } from '../src/abis/providerRegistry.js'
import { publish, errors as sourceErrors } from '../src/abis/sourceRegistry.js'
import { availableOf, stake, errors as stakingErrors } from '../src/abis/staking.js'
import {
  AuditorJoined,
  balanceOf,
  cancelTask,
  claimTask,
  commitResult,
  expireTask,
  finalizeTask,
  getAudit,
  getSlots,
  getTask,
  joinAudit,
  releaseResult,
  reopenSlot,
  revealResult,
  submitResult,
  submitTasks,
  TaskClaimed,
  TaskSubmitted,
  errors as taskMarketErrors,
} from '../src/abis/taskMarket.js'
import { resultCidProblem, resultDigest } from '../src/tasks/commitment.js'
import { sealResult } from '../src/tasks/seal.js'
import { type SubmitTaskParameters, type SubmitTaskReturnType, submitTask } from '../src/tasks/submitTask.js'
import type { Deployment } from '../src/types/deployment.js'
import { deployerClient, deployment, fundedClient, testClient } from './chain.js'

/** A wallet + public client with an account, as `fundedClient()` and `deployerClient()` return. */
export type FixtureClient = Client<Transport, Chain, Account> & PublicActions & WalletActions<Chain, Account>

/** A funded test account: wallet + public actions (+ the Gridforge decorator). */
export type TestAccountClient = Awaited<ReturnType<typeof fundedClient>>

/** A valid CID for inputs, results and receipts (the raw CID of zero bytes). */
export const anyCid = 'bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku'

/** CIDs to use as inputs, outputs, logs and metadata (raw leaves of different bytes). */
export const cids = {
  input: anyCid,
  output: 'bafkreidvbhs33ighmljlvr7zbv2ywwzcmp5adtf4kqvlly67cy56bdtmve',
  otherOutput: 'bafkreiabltrd5zm73pvi7plq25pef3hm7jxhbi3kv4hapegrkfpkqtkbme',
  logs: 'bafkreie7q3iidccmpvszul7kudcvvuavuo7u6gzlbobczuk5nqk3b4akba',
  metadata: 'bafkreifjjcie6lypi6ny7amxnfftagclbuxndqonfipmb64f2km2devei4',
} as const

/** Seven days: the longest runtime a source may declare. */
export const longRuntimeSec = 7 * 86_400

const errors: Abi = [...taskMarketErrors, ...providerErrors, ...sourceErrors, ...stakingErrors]

/** Sends a contract write (simulated first, so reverts come back decoded) and waits for its receipt. */
export async function send(
  client: FixtureClient,
  request: { address: Address; abi: Abi; functionName: string; args: readonly unknown[] },
): Promise<TransactionReceipt> {
  const { request: simulated } = await client.simulateContract({
    ...request,
    abi: [...request.abi, ...errors],
    account: client.account,
  } as never)
  const hash = await client.writeContract(simulated as never)
  const receipt = await client.waitForTransactionReceipt({ hash })
  if (receipt.status !== 'success') throw new Error(`${request.functionName} reverted: ${hash}`)
  return receipt
}

/** A random bytes32, e.g. an image digest. */
export function randomBytes32(): Hex {
  return toHex(crypto.getRandomValues(new Uint8Array(32)))
}

/** The raw-codec CIDv1 (sha2-256) of `text`: a real output CID whose digest is sha256(text). */
export async function outputCid(text: string): Promise<string> {
  return CID.create(1, raw.code, await sha256.digest(new TextEncoder().encode(text))).toString()
}

export interface PublishSourceOptions {
  deterministic?: boolean
  /** Default: 7 days, the most allowed, so that claims stay due whatever others do to the clock. */
  maxRuntimeSec?: number
  creatorFeeBps?: number
  imageDigest?: Hex
  metadata?: string
  /** What a failed fixed-price run is paid, in basis points of the price (default 0). */
  failureFeeBps?: number
  /** A deterministic source that checks this one's results (default 0: none). */
  validator?: number
}

/** Publishes a source with no hardware requirements from `owner` and returns its id. */
export async function publishSource(
  owner: FixtureClient,
  deployment: Deployment,
  {
    deterministic = false,
    maxRuntimeSec = longRuntimeSec,
    creatorFeeBps = 0,
    imageDigest = stringToHex('image', { size: 32 }),
    metadata = anyCid,
    failureFeeBps = 0,
    validator = 0,
  }: PublishSourceOptions = {},
): Promise<number> {
  const { result, request } = await owner.simulateContract({
    address: deployment.contracts.sources,
    abi: [publish, ...sourceErrors],
    functionName: 'publish',
    args: [
      imageDigest,
      metadata,
      { minGpus: 0, minVramMiB: 0, minComputeCapability: 0, maxRuntimeSec, deterministic },
      creatorFeeBps,
      0,
      failureFeeBps,
      validator,
    ],
    account: owner.account,
  })
  await owner.waitForTransactionReceipt({ hash: await owner.writeContract(request) })
  return result
}

/** {@link publishSource} on the test chain, from `owner` (default: the deployer). */
export function publishTestSource({
  owner = deployerClient(),
  ...options
}: PublishSourceOptions & {
  owner?: FixtureClient | TestAccountClient | ReturnType<typeof deployerClient>
} = {}) {
  return publishSource(owner as FixtureClient, deployment(), options)
}

/** Approves `spender` to pull `amount` (token units) of GRID from the client. */
export async function approve(
  client: FixtureClient,
  deployment: Deployment,
  spender: Address,
  amount: string,
): Promise<void> {
  await send(client, {
    address: deployment.contracts.token,
    abi: erc20Abi,
    functionName: 'approve',
    args: [spender, parseUnits(amount, 18)],
  })
}

/** A fresh client with `grid` GRID that approved the market for all of it. */
export async function approvedClient({ grid = '1000' }: { grid?: string } = {}): Promise<TestAccountClient> {
  const client = await fundedClient({ grid })
  await approve(client as unknown as FixtureClient, deployment(), deployment().contracts.market, grid)
  return client
}

/**
 * Stakes `stakeAmount` GRID (default 200), registers the client as a provider
 * with one 24 GiB sm_89 GPU and subscribes it to `sourceIds`.
 */
export async function registerFixtureProvider(
  client: FixtureClient,
  deployment: Deployment,
  sourceIds: readonly number[],
  { stakeAmount = '200' }: { stakeAmount?: string } = {},
): Promise<void> {
  const { contracts } = deployment
  await approve(client, deployment, contracts.staking, stakeAmount)
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
}

/** A fresh funded provider on the test chain ({@link registerFixtureProvider}). */
export async function testProvider(
  sourceIds: readonly number[],
  options: { stakeAmount?: string } = {},
): Promise<TestAccountClient> {
  const client = await fundedClient()
  await registerFixtureProvider(client as unknown as FixtureClient, deployment(), sourceIds, options)
  return client
}

/**
 * Submits a task on `sourceId` with the SDK's `submitTask` on the test chain:
 * input {@link anyCid}, deadline in 29 days unless `task` says otherwise.
 */
export function submitTestTask(
  client: TestAccountClient,
  sourceId: number,
  task: Omit<SubmitTaskParameters, 'deployment' | 'sourceId' | 'input'> & { input?: string },
): Promise<SubmitTaskReturnType> {
  return submitTask(client, { deployment: deployment(), sourceId, input: anyCid, deadline: '29d', ...task })
}

export interface FixtureTaskOptions {
  sourceId: number
  /** How many tasks (default 1). */
  count?: number
  replicas?: number
  /** Seconds from the latest block (default 29 days, so others' clock jumps do not expire it). */
  deadlineIn?: number
  /** Token units per replica (default '1'). */
  maxPayment?: string
  /** Audit probability of a single replica on a deterministic source, in basis points (default 0: the market's). */
  auditBps?: number
  /** The client's X25519 public key the output is sealed to (default: the zero hash, none). */
  resultKey?: Hex
}

/**
 * Submits `count` tasks in one `submitTasks` transaction (approving the
 * escrow first) and returns their ids and the block they are in.
 */
export async function submitFixtureTasks(
  client: FixtureClient,
  deployment: Deployment,
  {
    sourceId,
    count = 1,
    replicas = 1,
    deadlineIn = 29 * 86_400,
    maxPayment = '1',
    auditBps = 0,
    resultKey = zeroHash,
  }: FixtureTaskOptions,
): Promise<{ taskIds: bigint[]; blockNumber: bigint }> {
  const payment = parseUnits(maxPayment, 18)
  await send(client, {
    address: deployment.contracts.token,
    abi: erc20Abi,
    functionName: 'approve',
    // An auditable task (one replica, deterministic source) escrows 2 × maxPayment: approve enough for either.
    args: [deployment.contracts.market, payment * BigInt(Math.max(replicas, 2) * count)],
  })
  const { timestamp } = await client.getBlock({ blockTag: 'latest' })
  const task = {
    sourceId,
    inputCID: anyCid,
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
    auditBps,
    resultKey,
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

/** A distinct valid-looking input per index (the contract only checks the length); index 0 is {@link anyCid}. */
export function inputFor(index: number): string {
  return index === 0 ? anyCid : `${anyCid.slice(0, -6)}${String(index).padStart(6, '0')}`
}

/** Calls a TaskMarket function as `client`. */
function market(
  client: FixtureClient,
  deployment: Deployment,
  abi: Abi,
  functionName: string,
  args: unknown[],
) {
  return send(client, { address: deployment.contracts.market, abi, functionName, args })
}

/** A client that can read the chain (a fixture client, or a public client). */
type Reader = Pick<FixtureClient, 'readContract' | 'getBlock' | 'getBlockNumber' | 'request'>

/** Reads a TaskMarket view of `taskId`. */
function marketView<result>(
  reader: Reader,
  deployment: Deployment,
  abi: Abi,
  functionName: string,
  taskId: bigint,
) {
  return reader.readContract({
    address: deployment.contracts.market,
    abi,
    functionName,
    args: [taskId],
  } as never) as Promise<result>
}

/**
 * The race for the seats of a task with replicas > 1 (its round-0 `getAudit`
 * record): claims draw their tickets from the hash of block `seedBlock + 1`
 * and are taken from block `readyBlock` (= seedBlock + 2) on; the race runs
 * until the time `end` (the audit record's joinDeadline) or block seedBlock +
 * 256, and a seat won in it starts (its `claimedAt`) at `end + 1`.
 */
export async function seatRace(reader: Reader, deployment: Deployment, taskId: bigint) {
  const race = await auditRecord(reader, deployment, taskId)
  const seedBlock = BigInt(race.seedBlock)
  return { seedBlock, readyBlock: seedBlock + 2n, end: race.joinDeadline, seatStart: race.joinDeadline + 1 }
}

/** The `getAudit` record of `taskId`: the current audit round (or the race for the seats of replicas). */
function auditRecord(reader: Reader, deployment: Deployment, taskId: bigint) {
  return marketView<{ joinDeadline: number; seedBlock: number }>(
    reader,
    deployment,
    [getAudit],
    'getAudit',
    taskId,
  )
}

/** Mines `blocks` blocks (Hardhat). */
async function mine(reader: Reader, blocks: number) {
  await reader.request({ method: 'hardhat_mine', params: [toHex(blocks)] } as never)
}

/**
 * Moves the chain's clock so that the latest block's time is at least
 * `timestamp`: the next transaction comes after it. Only forward (other test
 * files move the clock too), and again until the node's block time has caught up.
 */
async function timeTo(reader: Reader, timestamp: number) {
  for (;;) {
    const latest = Number((await reader.getBlock({ blockTag: 'latest' })).timestamp)
    if (latest >= timestamp) return
    await reader.request({ method: 'evm_increaseTime', params: [timestamp - latest] } as never)
    await mine(reader, 1)
  }
}

/**
 * Replicas > 1: mines until a claim of `taskId` can draw its ticket in the
 * race for the seats, i.e. until the latest block is seedBlock + 2 or later
 * (a simulation against the latest block, as `send` makes first, then sees it
 * too). Nothing is mined when it already is (or for a single-replica task,
 * which has no race).
 */
export async function mineToSeed(reader: Reader, deployment: Deployment, taskId: bigint) {
  const { seedBlock, readyBlock } = await seatRace(reader, deployment, taskId)
  if (seedBlock === 0n) return
  const latest = await reader.getBlockNumber({ cacheTime: 0 })
  if (latest < readyBlock) await mine(reader, Number(readyBlock - latest))
}

/**
 * Replicas > 1: moves time past the end of the race for the seats of
 * `taskId`, to the start of the seats won in it, so that the latest block
 * (which `send` simulates against) and the next transaction come after it:
 * the seats are final and their time has started (commitments are taken).
 * Nothing moves when the race is already over.
 */
export async function endSeatRace(reader: Reader, deployment: Deployment, taskId: bigint) {
  const { seedBlock, seatStart } = await seatRace(reader, deployment, taskId)
  if (seedBlock !== 0n) await timeTo(reader, seatStart)
}

/**
 * Claims a slot of `taskId`; returns the slot and when it starts: the claim's
 * block time, or for a seat won in the race of a task with replicas > 1 the
 * race's end + 1 (its `claimedAt`). A task with replicas > 1 first waits for
 * the seed of its race ({@link mineToSeed}); end the race
 * ({@link endSeatRace}, {@link claimSeats}) before work that counts time.
 */
export async function claim(
  client: FixtureClient,
  deployment: Deployment,
  taskId: bigint,
): Promise<{ slot: number; claimedAt: number }> {
  await mineToSeed(client, deployment, taskId)
  const receipt = await market(client, deployment, [claimTask], 'claimTask', [taskId])
  const [log] = parseEventLogs({ abi: [TaskClaimed], logs: receipt.logs })
  if (log === undefined) throw new Error('claimTask emitted no TaskClaimed')
  const slots = await client.readContract({
    address: deployment.contracts.market,
    abi: [getSlots],
    functionName: 'getSlots',
    args: [taskId],
    blockNumber: receipt.blockNumber,
  })
  return { slot: log.args.slot, claimedAt: slots[log.args.slot]?.claimedAt ?? 0 }
}

/**
 * On the test chain: claims the seats of `taskId` (replicas > 1) with each of
 * `providers` in turn, once the race's seed is mined, then ends the race so
 * that the seats are final and commitments are taken. `claimWith` claims for
 * one provider (default: the fixture's {@link claim}; pass the SDK's
 * `claimTask` to test it). Returns what each claim returned.
 */
export async function claimSeats<claimed>(
  taskId: bigint,
  providers: readonly TestAccountClient[],
  claimWith: (provider: TestAccountClient) => Promise<claimed> = (provider) =>
    claim(provider as unknown as FixtureClient, deployment(), taskId) as Promise<claimed>,
): Promise<claimed[]> {
  const reader = deployerClient() as unknown as Reader
  await mineToSeed(reader, deployment(), taskId)
  const claims: claimed[] = []
  for (const provider of providers) claims.push(await claimWith(provider))
  await endSeatRace(reader, deployment(), taskId)
  return claims
}

/**
 * The order in which `providers` (equal stakes) would win the race for the
 * seats of `taskId`, best first. A ticket is −log2(u) / stake with
 * u = (the top 64 bits of keccak256(abi.encode(seed, provider))) + 1 and
 * seed = keccak256(abi.encode(hash of block seedBlock + 1, taskId)): with
 * equal stakes the highest u wins. Mines the seed block if it is not yet.
 */
export async function raceOrder<provider extends { account: { address: Address } }>(
  taskId: bigint,
  providers: readonly provider[],
): Promise<provider[]> {
  const reader = deployerClient() as unknown as Reader
  const { seedBlock } = await seatRace(reader, deployment(), taskId)
  await mineToSeed(reader, deployment(), taskId)
  const { hash } = await reader.getBlock({ blockNumber: seedBlock + 1n })
  const seed = keccak256(encodeAbiParameters([{ type: 'bytes32' }, { type: 'uint256' }], [hash, taskId]))
  const u = (provider: provider) => BigInt(keccak256(concat([seed, pad(provider.account.address)]))) >> 192n
  return [...providers].sort((a, b) => (u(a) > u(b) ? -1 : u(a) < u(b) ? 1 : 0))
}

/**
 * Submits a single-replica result with the seal of its digest (`sealResult`),
 * as providers do: this settles the task, or holds it when it is auditable (a
 * deterministic source; see {@link release}). The market only checks that the
 * seal is not zero: a `result` that is not a sha2-256 CID gets {@link digestOf}
 * instead, and `digest` (a failure's, its own seal) replaces either.
 */
export function submit(
  client: FixtureClient,
  deployment: Deployment,
  taskId: bigint,
  {
    result = anyCid,
    receipt = anyCid,
    runtimeSec = 42,
    digest,
  }: { result?: string; receipt?: string; runtimeSec?: number; digest?: Hex } = {},
): Promise<TransactionReceipt> {
  return market(client, deployment, [submitResult], 'submitResult', [
    taskId,
    sealResult({
      taskId,
      digest: digest ?? (resultCidProblem(result) === undefined ? resultDigest(result) : digestOf(result)),
    }),
    result,
    receipt,
    runtimeSec,
  ])
}

/** Releases a held result (anyone, from two blocks after its submission): settles it or opens its audit. */
export function release(client: FixtureClient, deployment: Deployment, taskId: bigint) {
  return market(client, deployment, [releaseResult], 'releaseResult', [taskId])
}

/**
 * A single-replica task of a deterministic source (runtime limit 60 s, so that
 * audit rounds end after minutes) audited with probability 1: claimed by
 * `provider`, its `result` submitted, and released, so its first audit round
 * is open. `auditors` more providers subscribed to the source are returned.
 * Maximum payment 2 GRID: the collateral is 3 × that, 6 GRID.
 */
export async function drawnTask({
  result = cids.output,
  auditors = 1,
}: {
  result?: string
  auditors?: number
} = {}) {
  const d = deployment()
  const sourceId = await publishTestSource({ deterministic: true, maxRuntimeSec: 60 })
  const [client, provider, ...others] = await Promise.all([
    fundedClient(),
    testProvider([sourceId]),
    ...Array.from({ length: auditors }, () => testProvider([sourceId])),
  ])
  const {
    taskIds: [taskId = 0n],
  } = await submitFixtureTasks(client as unknown as FixtureClient, d, {
    sourceId,
    maxPayment: '2',
    auditBps: 10_000,
  })
  await claim(provider as unknown as FixtureClient, d, taskId)
  const submitted = await submit(provider as unknown as FixtureClient, d, taskId, { result })
  // The draw reads the hash of the block after the submission.
  await testClient().mine({ blocks: 2 })
  const released = await release(client as unknown as FixtureClient, d, taskId)
  return {
    sourceId,
    client,
    provider,
    auditors: others,
    taskId,
    submittedBlock: submitted.blockNumber,
    releasedBlock: released.blockNumber,
  }
}

const fixtureSalt = keccak256(stringToHex('salt'))

/** The digest a fixture provider commits to for `result` (any string: the contract only compares digests). */
export function digestOf(result: string): Hex {
  return keccak256(stringToHex(result))
}

/**
 * What the chain keeps of a fixture result of `taskId`: the seal of
 * {@link digestOf}, which replicas hand in and the market makes of what
 * auditors reveal.
 */
export function sealOfResult(taskId: bigint, result: string): Hex {
  return sealResult({ taskId, digest: digestOf(result) })
}

/**
 * The digest `client` commits to and reveals for `result`: an auditor's (the
 * task is Auditing) is {@link digestOf} itself, which the market seals; a
 * replica's is its seal ({@link sealOfResult}).
 */
async function handedIn(client: FixtureClient, deployment: Deployment, taskId: bigint, result: string) {
  const { status } = await marketView<{ status: number }>(client, deployment, [getTask], 'getTask', taskId)
  return status === auditingStatus ? digestOf(result) : sealOfResult(taskId, result)
}

/** The contract's TaskStatus.Auditing. */
const auditingStatus = 9

/** Commits to `result` (replicas > 1, or an auditor); returns the salt to reveal with. */
export async function commit(
  client: FixtureClient,
  deployment: Deployment,
  taskId: bigint,
  result: string,
  { salt = fixtureSalt }: { salt?: Hex } = {},
): Promise<Hex> {
  const commitment = keccak256(
    encodeAbiParameters(
      [{ type: 'uint256' }, { type: 'address' }, { type: 'bytes32' }, { type: 'bytes32' }],
      [taskId, client.account.address, await handedIn(client, deployment, taskId, result), salt],
    ),
  )
  await untilSeatFinal(client, deployment, taskId)
  await market(client, deployment, [commitResult], 'commitResult', [taskId, commitment])
  return salt
}

/**
 * Replicas > 1: if `client` holds a seat of `taskId` not yet committed that
 * has not started (a seat won in the race starts when the race ends), moves
 * time to its start.
 */
async function untilSeatFinal(client: FixtureClient, deployment: Deployment, taskId: bigint) {
  const task = await marketView<{ replicas: number; status: number }>(
    client,
    deployment,
    [getTask],
    'getTask',
    taskId,
  )
  // Open or Claimed: the replicas' commitments (an audit's auditors commit after their own deadline).
  if (task.replicas === 1 || (task.status !== 1 && task.status !== 2)) return
  const slots = await marketView<readonly { provider: Address; claimedAt: number; status: number }[]>(
    client,
    deployment,
    [getSlots],
    'getSlots',
    taskId,
  )
  const seat = slots.find(
    (slot) => slot.status === 1 && isAddressEqual(slot.provider, client.account.address),
  )
  if (seat !== undefined) await timeTo(client, seat.claimedAt)
}

/** Reveals the `result` committed with {@link commit}. */
export async function reveal(
  client: FixtureClient,
  deployment: Deployment,
  taskId: bigint,
  result: string,
  {
    receipt = anyCid,
    runtimeSec = 7,
    salt = fixtureSalt,
  }: { receipt?: string; runtimeSec?: number; salt?: Hex } = {},
): Promise<TransactionReceipt> {
  return market(client, deployment, [revealResult], 'revealResult', [
    taskId,
    await handedIn(client, deployment, taskId, result),
    salt,
    result,
    receipt,
    runtimeSec,
  ])
}

/**
 * Joins the open audit round of `taskId` (a drawn result, or a dispute of
 * replicas) once its seed block is mined; returns the auditor's slot. Its
 * commitment (with {@link commit}) is taken once the round's joining closed.
 */
export async function join(client: FixtureClient, deployment: Deployment, taskId: bigint): Promise<number> {
  const seedBlock = BigInt((await auditRecord(client, deployment, taskId)).seedBlock)
  const latest = await client.getBlockNumber({ cacheTime: 0 })
  if (latest < seedBlock + 2n) await mine(client, Number(seedBlock + 2n - latest))
  const receipt = await market(client, deployment, [joinAudit], 'joinAudit', [taskId])
  const [log] = parseEventLogs({ abi: [AuditorJoined], logs: receipt.logs })
  if (log === undefined) throw new Error('joinAudit emitted no AuditorJoined')
  return log.args.slot
}

/**
 * Moves time past the joining deadline of the open audit round of `taskId`,
 * so that its auditors may commit (or the round be finalized).
 */
export async function closeJoining(reader: Reader, deployment: Deployment, taskId: bigint) {
  const { joinDeadline } = await auditRecord(reader, deployment, taskId)
  await timeTo(reader, joinDeadline + 1)
}

/** Cancels an unclaimed task (as its client). */
export function cancel(client: FixtureClient, deployment: Deployment, taskId: bigint) {
  return market(client, deployment, [cancelTask], 'cancelTask', [taskId])
}

/** Expires a task past its deadline (anyone). */
export function expire(client: FixtureClient, deployment: Deployment, taskId: bigint) {
  return market(client, deployment, [expireTask], 'expireTask', [taskId])
}

/** Finalises a task whose reveal window closed (anyone). */
export function finalize(client: FixtureClient, deployment: Deployment, taskId: bigint) {
  return market(client, deployment, [finalizeTask], 'finalizeTask', [taskId])
}

/** Reopens an overdue slot (anyone). */
export function reopen(client: FixtureClient, deployment: Deployment, taskId: bigint, slot: number) {
  return market(client, deployment, [reopenSlot], 'reopenSlot', [taskId, slot])
}

/** Reads a contract on the test chain as the deployer. */
function readTestChain<result>(address: Address, abi: Abi, functionName: string, args: unknown[]) {
  return deployerClient().readContract({ address, abi, functionName, args }) as Promise<result>
}

/** `account`'s market (internal) balance, in base units. */
export function marketBalance(account: Address): Promise<bigint> {
  return readTestChain(deployment().contracts.market, [balanceOf], 'balanceOf', [account])
}

/** `account`'s GRID in its wallet, in base units. */
export function tokenBalance(account: Address): Promise<bigint> {
  return readTestChain(deployment().contracts.token, erc20Abi, 'balanceOf', [account])
}

/** `account`'s stake not locked as collateral, in base units. */
export function availableStake(account: Address): Promise<bigint> {
  return readTestChain(deployment().contracts.staking, [availableOf], 'availableOf', [account])
}

/** `provider`'s reputation counters. */
export function reputation(provider: Address) {
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

/**
 * An HTTP transport that counts the JSON-RPC calls it sends, batch entries
 * included (as a node or an RPC provider would bill them).
 */
export function countingTransport(
  url: string,
  { maxResponseBodySize }: { maxResponseBodySize?: number | undefined } = {},
): {
  transport: HttpTransport
  count(): number
  /** The methods called, in order. */
  methods(): string[]
  reset(): void
} {
  const methods: string[] = []
  const transport = http(url, {
    ...(maxResponseBodySize === undefined ? {} : { maxResponseBodySize }),
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
