/**
 * The capture table: how often a sybil holding a fraction f of the eligible stake holds a strict majority of the
 * seats of a k = 2 or k = 3 task — measured on the chain, and compared with the exact value of the stake-weighted
 * race.
 *
 * On a fresh deployment, `sybilAccounts` accounts share f of the stake evenly and `honestAccounts` share the
 * rest; for each cell (f, k), a client submits `tasks` tasks with k replicas, in batches, and every account claims
 * a seat of each during its race, in a seeded random order: free seats are taken, a better ticket replaces the
 * worst (ClaimReplaced), a worse one reverts (TaskMarketClaimTicketTooHigh). When the claims are in, the seats
 * are read from the chain (`getSlots`). Exact: a ticket is −log2(u) / stake, an exponential clock whose rate is the
 * stake, so the seats go to the first k of a Plackett–Luce draw — filled one by one, each by an account still out
 * with probability proportional to its stake. Splitting the sybil's stake over more accounts only brings its
 * chance towards the limit of a fine split, that of k seats each drawn with probability f (f² for k = 2,
 * 3f² − 2f³ for k = 3); the first seat is the sybil's with probability f however it splits.
 */
import { gridTokenAbi, stakingAbi, taskMarketAbi } from '@gridforge/contracts'
import { type Address, encodeFunctionData, type Hex, maxUint256, parseEventLogs, toHex } from 'viem'
import type { Session } from './experiment.js'
import { Ledger } from './ledger.js'
import { INPUT_CID } from './market/engine.js'
import { CLIENT_RESULT_KEY } from './market/results.js'
import { raceSeed, ticket } from './market/tickets.js'
import { publishSource, registerProvider } from './market/world.js'
import { resolveParams } from './params.js'
import { draw } from './random.js'
import { Transactor } from './transactor.js'
import { grid } from './units.js'

export interface CaptureOptions {
  /** The sybil's fractions of the eligible stake. */
  fractions: readonly number[]
  /** Seats per task (k > 1). */
  replicas: readonly number[]
  /** Tasks raced per cell (fraction × replicas). */
  tasks: number
  /** The sybil's accounts (its stake split evenly over them) and the honest ones (the rest, split evenly). */
  sybilAccounts: number
  honestAccounts: number
  /** Seeds the order of the claims. */
  seed: number
}

export const defaultCaptureOptions: CaptureOptions = {
  fractions: [0.1, 0.2, 0.3, 0.4, 0.5],
  replicas: [2, 3],
  tasks: 300,
  sybilAccounts: 5,
  honestAccounts: 5,
  seed: 1,
}

export interface CaptureCell {
  fraction: number
  replicas: number
  tasks: number
  /** Tasks whose seats the sybil's accounts held a strict majority of when the claims were in. */
  captured: number
  measured: number
  /** The exact probability for these stakes, and its standard error over `tasks` tasks. */
  exact: number
  sigma: number
  /** The limit of a sybil splitting its stake ever finer: k seats each drawn with probability f. */
  fineSplit: number
  /** Tasks whose first seat (the lowest ticket) went to the sybil: f exactly, however it splits. */
  firstSeat: number
  /** Claims sent, seats taken from a worse ticket (ClaimReplaced), claims that lost. */
  claims: number
  replaced: number
  lost: number
  /** Tasks whose seats are not the k lowest tickets computed off chain (0: the chain races as documented). */
  mismatches: number
}

export interface CaptureResult {
  options: CaptureOptions
  cells: CaptureCell[]
  transactions: number
  seconds: number
}

/** GRID staked by all the accounts together; the sybil's accounts hold f of it. */
const TOTAL_STAKE = 100_000
/** maxPayment of the raced tasks (their collateral, 5000 bps of it, is all a seat locks). */
const TASK_PRICE = 0.1
/**
 * Claims per race: the race also ends 256 blocks after the submission (one block per transaction here), so a
 * batch of tasks takes at most this many claims; its window is long enough for them.
 */
const CLAIMS_PER_RACE = 240
const RACE_WINDOW_SEC = 3600
/** Tasks per submitTasks (its gas). */
const MAX_BATCH = 12
/** Gas limit of a claim. */
const CLAIM_GAS = 400_000n

/** Measures the capture table on a fresh deployment of `session`'s chain (its worlds are set up again after). */
export async function measureCapture(
  session: Session,
  options: CaptureOptions = defaultCaptureOptions,
  log: (line: string) => void = () => {},
): Promise<CaptureResult> {
  const started = performance.now()
  const { sybilAccounts, honestAccounts } = options
  const chain = await session.deployment()
  const { contracts, accounts } = chain
  const count = sybilAccounts + honestAccounts
  if (accounts.length < count + 2) throw new RangeError(`sim capture: ${count + 2} accounts needed`)
  const owner = accounts[0] as Address
  const providers = accounts.slice(1, 1 + count)
  const sybil = new Set(providers.slice(0, sybilAccounts).map((a) => a.toLowerCase()))
  const client = accounts[1 + count] as Address
  const latest = await chain.provider.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })
  const tx = new Transactor(chain.provider, new Ledger(contracts, 0), Number(latest?.timestamp ?? 0))
  const params = resolveParams()
  const sourceId = await publishSource(tx, contracts, owner, params)
  await tx.send(owner, tx.now + 1, {
    address: contracts.market,
    abi: taskMarketAbi,
    functionName: 'setParams',
    args: [
      {
        protocolFeeBps: params.protocolFeeBps,
        stakerShareBps: params.stakerShareBps,
        collateralBps: params.collateralBps,
        slashToClientBps: params.slashToClientBps,
        revealWindow: params.revealWindow,
        claimGrace: params.claimGrace,
        minCollateral: 0n,
        auditBps: params.auditBps,
        auditJoinWindow: RACE_WINDOW_SEC,
      },
    ],
  })
  const token = { address: contracts.token, abi: gridTokenAbi } as const
  for (const account of [...providers, client]) {
    await tx.send(owner, tx.now + 1, {
      ...token,
      functionName: 'transfer',
      args: [account, grid(TOTAL_STAKE)],
    })
    for (const spender of [contracts.market, contracts.staking])
      await tx.send(account, tx.now + 1, { ...token, functionName: 'approve', args: [spender, maxUint256] })
  }
  await tx.send(client, tx.now + 1, {
    address: contracts.market,
    abi: taskMarketAbi,
    functionName: 'deposit',
    args: [grid(TOTAL_STAKE / 2)],
  })
  let funded = await chain.snapshot()

  const cells: CaptureCell[] = []
  for (const fraction of options.fractions) {
    await chain.revert(funded)
    funded = await chain.snapshot()
    const stakes = captureStakes(fraction, sybilAccounts, honestAccounts)
    for (const [i, provider] of providers.entries())
      await registerProvider(tx, contracts, provider, stakes[i] as bigint, sourceId)
    // The stake each claim's ticket reads.
    for (const [i, provider] of providers.entries()) {
      const { staked } = await tx.public.readContract({
        address: contracts.staking,
        abi: stakingAbi,
        functionName: 'stakeOf',
        args: [provider],
      })
      if (staked !== stakes[i]) throw new Error(`sim capture: ${provider} staked ${staked}, not ${stakes[i]}`)
    }
    const isSybil = providers.map((p) => sybil.has(p.toLowerCase()))
    for (const replicas of options.replicas) {
      const cell: CaptureCell = {
        fraction,
        replicas,
        tasks: 0,
        captured: 0,
        measured: 0,
        exact: exactCapture(stakes, isSybil, replicas),
        sigma: 0,
        fineSplit: fineSplitCapture(fraction, replicas),
        firstSeat: 0,
        claims: 0,
        replaced: 0,
        lost: 0,
        mismatches: 0,
      }
      const batch = Math.max(1, Math.min(MAX_BATCH, Math.floor(CLAIMS_PER_RACE / count)))
      while (cell.tasks < options.tasks) {
        const size = Math.min(batch, options.tasks - cell.tasks)
        await raceBatch(
          tx,
          contracts,
          { client, providers, stakes, isSybil, sourceId, replicas, size },
          cell,
          {
            seed: options.seed,
            fraction,
            first: cell.tasks,
          },
        )
      }
      cell.measured = cell.captured / cell.tasks
      cell.firstSeat /= cell.tasks
      cell.sigma = Math.sqrt((cell.exact * (1 - cell.exact)) / cell.tasks)
      log(
        `  f = ${fraction}, k = ${replicas}: ${cell.captured} of ${cell.tasks} captured (${cell.measured.toFixed(4)}, exact ${cell.exact.toFixed(4)})`,
      )
      cells.push(cell)
    }
  }
  // The worlds are set up again from the deployment.
  await session.deployment()
  return { options, cells, transactions: tx.transactions, seconds: (performance.now() - started) / 1000 }
}

/** Stakes of the sybil's accounts (first) and the honest ones: f and 1 − f of TOTAL_STAKE, evenly split. */
export function captureStakes(fraction: number, sybilAccounts: number, honestAccounts: number): bigint[] {
  const total = grid(TOTAL_STAKE)
  const bps = BigInt(Math.round(fraction * 10_000))
  const sybilEach = (total * bps) / 10_000n / BigInt(sybilAccounts)
  const honestEach = (total * (10_000n - bps)) / 10_000n / BigInt(honestAccounts)
  return [...Array(sybilAccounts).fill(sybilEach), ...Array(honestAccounts).fill(honestEach)]
}

interface Racers {
  client: Address
  providers: readonly Address[]
  stakes: readonly bigint[]
  isSybil: readonly boolean[]
  sourceId: number
  replicas: number
  size: number
}

/**
 * `account` claims a seat of `taskId` in a block of its own: true when its ticket took one, false when every
 * seat holds a better ticket (the claim reverts TaskMarketClaimTicketTooHigh, mined all the same). Sent straight
 * to the chain, not through `Transactor.send` (no receipt read, nothing booked): the capture has no books, and
 * it sends tens of thousands of claims.
 */
async function claim(tx: Transactor, market: Address, account: Address, taskId: bigint): Promise<boolean> {
  const provider = tx.provider
  await tx.mineNextAt(tx.now + 1)
  try {
    await provider.request({
      method: 'eth_sendTransaction',
      params: [
        {
          from: account,
          to: market,
          data: encodeFunctionData({ abi: taskMarketAbi, functionName: 'claimTask', args: [taskId] }),
          gas: toHex(CLAIM_GAS),
        },
      ],
    })
    return true
  } catch (error) {
    if (String((error as Error).message).includes('TaskMarketClaimTicketTooHigh')) return false
    throw error
  }
}

/** Submits `size` tasks in one block and lets every account claim a seat of each, in a seeded order. */
async function raceBatch(
  tx: Transactor,
  contracts: { market: Address },
  racers: Racers,
  cell: CaptureCell,
  key: { seed: number; fraction: number; first: number },
) {
  const { client, providers, stakes, isSybil, replicas, size } = racers
  const market = { address: contracts.market, abi: taskMarketAbi } as const
  const deadline = tx.now + 2 * 86_400
  const receipt = await tx.send(client, tx.now + 1, {
    ...market,
    functionName: 'submitTasks',
    args: [
      Array.from({ length: size }, () => ({
        sourceId: racers.sourceId,
        inputCID: INPUT_CID,
        maxPayment: grid(TASK_PRICE),
        pricePerSecond: 0n,
        replicas,
        deadline,
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
        resultKey: CLIENT_RESULT_KEY,
      })),
    ],
  })
  const ids = parseEventLogs({ abi: taskMarketAbi, logs: receipt.logs, eventName: 'TaskSubmitted' }).map(
    (e) => e.args.taskId,
  )
  // Claims revert until the seed block's successor is mined.
  await tx.mineAt(tx.now + 1)
  const seedBlock = await tx.public.getBlock({ blockNumber: receipt.blockNumber + 1n })
  // Every claim of the batch is sent to the mempool and mined in as few blocks as their gas allows (the race's
  // outcome does not depend on the order within a block: the k lowest tickets hold the seats whatever the order).
  // Every account claims a seat of each task of the batch, in a seeded order, a block per claim.
  const first = (await tx.blockNumber()) + 1n
  for (const [t, taskId] of ids.entries()) {
    const index = key.first + t
    const order = providers
      .map((account, i) => ({ account, at: draw(key.seed, 'capture', key.fraction, replicas, index, i) }))
      .sort((a, b) => a.at - b.at)
    for (const { account } of order) {
      if (await claim(tx, contracts.market, account, taskId)) cell.claims++
      else cell.lost++
    }
  }
  const range = { fromBlock: first, toBlock: await tx.blockNumber() }
  cell.replaced += (
    await tx.public.getContractEvents({ ...market, eventName: 'ClaimReplaced', ...range })
  ).length
  for (const taskId of ids) {
    const slots = await tx.public.readContract({ ...market, functionName: 'getSlots', args: [taskId] })
    const holders = slots.slice(0, replicas).map((s) => s.provider.toLowerCase())
    const held = providers.filter((p, i) => isSybil[i] && holders.includes(p.toLowerCase())).length
    if (held * 2 > replicas) cell.captured++
    // The chain's seats against the k lowest tickets computed off chain.
    const seed = raceSeed(seedBlock.hash as Hex, taskId)
    const ranked = providers
      .map((account, i) => ({ account, i, score: ticket(seed, account, stakes[i] as bigint) }))
      .sort((a, b) => (a.score < b.score ? -1 : a.score > b.score ? 1 : 0))
    if (isSybil[(ranked[0] as { i: number }).i]) cell.firstSeat++
    const best = ranked.slice(0, replicas).map((r) => r.account.toLowerCase())
    if (best.some((b) => !holders.includes(b)) || holders.length !== replicas) cell.mismatches++
    cell.tasks++
  }
}

/**
 * The exact probability that the accounts marked `sybil` hold a strict majority of `k` seats when every account
 * claims: the seats are the first k of a Plackett–Luce draw with weights `stakes` (the lowest exponential tickets).
 */
export function exactCapture(stakes: readonly bigint[], sybil: readonly boolean[], k: number): number {
  const weights = stakes.map((s) => Number(s) / 1e18)
  const go = (left: readonly number[], total: number, seats: number, held: number): number => {
    if (held * 2 > k) return 1
    if (seats === 0 || (held + seats) * 2 <= k) return 0
    let p = 0
    for (const i of left) {
      const w = weights[i] as number
      if (w === 0) continue
      const rest = left.filter((j) => j !== i)
      p += (w / total) * go(rest, total - w, seats - 1, held + (sybil[i] ? 1 : 0))
    }
    return p
  }
  const all = weights.map((_, i) => i)
  return go(
    all,
    weights.reduce((a, b) => a + b, 0),
    k,
    0,
  )
}

/** The limit of a fine split: each of k seats the sybil's with probability f, independently. */
export function fineSplitCapture(fraction: number, k: number): number {
  let p = 0
  for (let j = Math.floor(k / 2) + 1; j <= k; j++)
    p += binomial(k, j) * fraction ** j * (1 - fraction) ** (k - j)
  return p
}

function binomial(n: number, j: number): number {
  let c = 1
  for (let i = 1; i <= j; i++) c = (c * (n - j + i)) / i
  return c
}

/** Whether a cell's measurement is within `z` standard errors of the exact value (and the seats are the tickets'). */
export function withinSamplingError(cell: CaptureCell, z = 4): boolean {
  return cell.mismatches === 0 && Math.abs(cell.measured - cell.exact) <= z * cell.sigma + 1e-9
}

/** The table in a few lines for the terminal. */
export function captureLines(result: CaptureResult): string[] {
  const { options, cells } = result
  const header = options.replicas.map((k) => `k = ${k}: measured ± 2σ   exact   fine split`).join(' | ')
  const lines = [
    `Capture: P(a sybil holding f of the eligible stake holds a majority of a task's seats), measured on the chain: ${options.tasks} tasks per cell, every account claiming in every race; the sybil's stake over ${options.sybilAccounts} accounts, the rest over ${options.honestAccounts} honest ones`,
    `  f    | ${header}`,
  ]
  for (const fraction of options.fractions) {
    const row = options.replicas.map((k) => {
      const c = cells.find((x) => x.fraction === fraction && x.replicas === k) as CaptureCell
      return `${c.measured.toFixed(4)} ± ${(2 * c.sigma).toFixed(4)}   ${c.exact.toFixed(4)}   ${c.fineSplit.toFixed(4)}   `
    })
    lines.push(`  ${fraction.toFixed(1)}  | ${row.join(' | ')}`)
  }
  const sum = (f: (c: CaptureCell) => number) => cells.reduce((n, c) => n + f(c), 0)
  lines.push(
    `  ${sum((c) => c.claims + c.lost)} claims: ${sum((c) => c.claims)} took a seat (${sum((c) => c.replaced)} from a worse ticket), ${sum((c) => c.lost)} lost; seats other than the k lowest tickets computed off chain: ${sum((c) => c.mismatches)}; ${result.seconds.toFixed(1)} s`,
  )
  return lines
}

/** The table as written to `measures.capture` of the results file. */
export function captureMeasures(result: CaptureResult) {
  const { options, cells } = result
  return {
    sybil_accounts: options.sybilAccounts,
    honest_accounts: options.honestAccounts,
    tasks_per_cell: options.tasks,
    cells: cells.map((c) => ({
      f: c.fraction,
      k: c.replicas,
      measured: round(c.measured),
      exact: round(c.exact),
      sigma: round(c.sigma),
      fine_split: round(c.fineSplit),
      first_seat: round(c.firstSeat),
      within_4_sigma: withinSamplingError(c),
      claims: c.claims + c.lost,
      replaced: c.replaced,
      lost: c.lost,
      mismatches: c.mismatches,
    })),
    seconds: Math.round(result.seconds * 10) / 10,
  }
}

const round = (value: number) => Math.round(value * 10_000) / 10_000
