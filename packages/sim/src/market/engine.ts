/**
 * One simulated run: a workload of tasks meets the providers and clients of a world, each following its
 * behaviour, over simulated time. Every rule that decides money — claims, collateral, settlement,
 * consensus, audits, slashing, metering, reputation gates, fees, rebates, staking rewards — is the contracts':
 * the engine only sends the transactions its participants would send, at the times they would send them,
 * and books their receipts.
 */
import { providerRegistryAbi, stakingAbi, taskMarketAbi } from '@gridforge/contracts'
import {
  type Address,
  encodeAbiParameters,
  type Hex,
  keccak256,
  parseEventLogs,
  type TransactionReceipt,
  toHex,
  zeroAddress,
  zeroHash,
} from 'viem'
import { Ledger } from '../ledger.js'
import type { SimParams } from '../params.js'
import { draw } from '../random.js'
import type { AuditorBehaviour, ClientBehaviour, ProviderBehaviour } from '../strategies/types.js'
import { Transactor } from '../transactor.js'
import { CLIENT_RESULT_KEY, isFailure, resultCidOf, sealOf } from './results.js'
import type { TaskDraft } from './workload.js'
import type { World } from './world.js'

export const INPUT_CID = 'bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi'
export const RECEIPT_CID = 'bafkreiebc4vu2vbf6qjwjx3s4e3eooypl3mj6vxpfldxd3xlzj4sdcvhwa'

/** Seconds between the submission of a single-replica task and the first offer of its slot (the next blocks). */
const CLAIM_DELAY = 30
/** Seconds an unfilled task waits before its free slots are offered again. */
const REOFFER_EVERY = 600
/** Seconds an honest provider needs after its run to upload and submit. */
export const UPLOAD_SEC = 60
const UINT32_MAX = 2 ** 32 - 1
/**
 * Seconds between two blocks of a real chain. The simulation mines a block per transaction; a participant that
 * waits for blocks nobody's transaction made (an audit draw, an audit's ticket seed) sees the chain's own
 * blocks come, mined empty.
 */
export const BLOCK_SEC = 12
/** Seconds after its submission at which a provider releases a held result: the draw is ready 2 blocks on. */
const RELEASE_AFTER_SEC = 2 * BLOCK_SEC
/** Seconds after which the client releases a held result nobody released (to get its refund or its audit). */
const CLIENT_RELEASE_AFTER_SEC = 600
/**
 * Seconds after a round opens (or a k > 1 task is submitted) at which auditors join (providers claim seats): the
 * seed block's successor is mined; and the spread of the others over the window (watchers come first).
 */
const JOIN_AFTER_SEC = 2 * BLOCK_SEC
const JOIN_SPREAD_SEC = 60

/** Chain task statuses (ITaskMarket's TaskStatus). */
const Status = {
  None: 0,
  Open: 1,
  Claimed: 2,
  Revealing: 3,
  Completed: 4,
  Failed: 5,
  Cancelled: 6,
  Expired: 7,
  Held: 8,
  Auditing: 9,
}
/** Chain slot statuses (ITaskMarket's SlotStatus). */
const SlotState = { Free: 0, Claimed: 1, Committed: 2, Submitted: 3, Forfeited: 4 }

/** ITaskMarket's AuditVerdict, by value. */
export const verdicts = [
  'None',
  'NotDrawn',
  'Pending',
  'Upheld',
  'Overturned',
  'Unresolved',
  'Lapsed',
] as const
export type Verdict = (typeof verdicts)[number]

/** A task of the run, as the engine follows it. */
export interface SimTask extends TaskDraft {
  id: bigint
  deadline: number
  /** What each provider handed in: submitted (k = 1) or committed (k > 1). */
  delivered: Map<Address, Hex>
  /** Providers that ever held a slot of this task for good: a seat at its race's end, or a claim first come. */
  everHeld: Set<Address>
  settled: boolean
  /** How it ended, once settled. */
  outcome?: TaskOutcome
  /** Audit probability fixed at submission (`getTask().auditBps`); 0: a single result settles at once. */
  auditBps: number
  /**
   * The audit: of the held single-replica result, once the result of an auditable task is in; or of a dispute,
   * once the replicas of a k > 1 task revealed different results.
   */
  audit?: AuditTrack
  /** The race for the seats of a k > 1 task (`getAudit`'s round 0 from its submission). */
  race?: SeatRace
}

/**
 * The race for the seats of a k > 1 task, as the engine follows it: from two blocks after the submission to
 * `joinDeadline`, every claim draws a stake-weighted ticket and the k best hold the seats (a better ticket
 * replaces the worst: ClaimReplaced; a worse one reverts TaskMarketClaimTicketTooHigh). The seats are final,
 * and their time starts, at joinDeadline + 1; free seats are first come after that.
 */
export interface SeatRace {
  /** The submission's block: its successor's hash seeds the tickets. */
  seedBlock: bigint
  joinDeadline: number
  /** Providers that sent their claim (each claims once), and each claim's block (its ticket reads the stake before it). */
  tried: Set<Address>
  attempts: { account: Address; block: bigint }[]
  /** Holders of a seat now, with their GPU time before they reserved it for the seat (given back if replaced). */
  reserved: Map<Address, number>
  /** Claims that took a seat, seats taken from a worse ticket (ClaimReplaced), claims that lost. */
  claims: number
  replaced: number
  lost: number
  /** The seats were final (joinDeadline passed) and their holders started; how many were held then, by whom. */
  final: boolean
  seated: number
  holders: Address[]
}

export interface TaskOutcome {
  status: 'Completed' | 'Failed' | 'Expired'
  /**
   * The winning digest (k > 1), or the digest submitted (k = 1), or the result the auditors' majority found
   * when they overturned it (the client has it from their reveals); undefined without a result.
   */
  result: Hex | undefined
  /**
   * The result is a failure report (a failure digest: the run exited non-zero, timed out, ...): a completed
   * task's provider was paid the source's failure terms (the chain's `getTask().failed`).
   */
  failed: boolean
  /** The audit's verdict, for a held single-replica result or a dispute. */
  verdict?: Verdict
}

/**
 * An audit as the engine follows it: of a held single-replica result (drawn with probability auditBps), or of a
 * dispute (the replicas of a k > 1 task revealed different results: always audited, auditors from slot k on).
 */
export interface AuditTrack {
  kind: 'held' | 'dispute'
  /** The provider of the held result; in a dispute, zeroAddress (the replicas' results are audited). */
  provider: Address
  /** The accounts whose results are audited, who may not audit them: the provider, or the replicas' claimants. */
  audited: readonly Address[]
  /** The results audited, public: the held result's seal, or each seal a disputing replica revealed. */
  results: readonly Hex[]
  /**
   * The held result's resultDigest and resultCID, from its ResultSubmitted event: the seal of its digest, and the
   * CID of the output encrypted to the client (a failure report's: itself, and its run's logs). Undefined in a
   * dispute.
   */
  resultDigest?: Hex
  resultCID?: string
  /** The block and time the held result was submitted in, or the dispute opened in. */
  submittedBlock: bigint
  submittedAt: number
  releasedBlock?: bigint
  releasedAt?: number
  drawn?: boolean
  /** The round under way (the last AuditRoundOpened). */
  round?: AuditRound
  /** AuditRoundOpened events so far (a round whose seed went stale opens again). */
  openings: number
  /** Every auditor that held a seat when its round's joining closed, by lower-case address. */
  seats: Map<Address, AuditSeat>
  /** joinAudit transactions that lost the ticket race (reverted TaskMarketAuditTicketTooHigh). */
  lostRaces: number
  verdict?: Verdict
  resolvedAt?: number
  /**
   * The audit upheld a metered result billed for more runtime than it measured (RuntimeOverstated): what it
   * measured and what the provider forfeited (a fine within the tolerance, the whole bond beyond it).
   */
  overstated?: { billedSec: number; measuredSec: number; forfeit: bigint; bond: boolean }
}

export interface AuditRound {
  number: number
  firstSlot: number
  auditors: number
  joinDeadline: number
  commitDeadline: number
  /** The block the round opened in: its successor's hash seeds the tickets. */
  seedBlock: bigint
  opening: number
  /** Joiners' GPU time before they reserved it for this audit (given back if their seat is taken). */
  reserved: Map<Address, number>
  revealDeadline?: number
}

export interface AuditSeat {
  account: Address
  round: number
  slot: number
  /** What it committed to, with the runtime it reports. */
  digest?: Hex
  runtimeSec?: number
  revealed: boolean
}

/** A run's result: the books and what happened. */
export interface RunRecord {
  ledger: Ledger
  /** Each account's wealth when the books opened. */
  opening: Map<Address, bigint>
  tasks: SimTask[]
  transactions: number
  /** Mean `maxPayment` of the workload's tasks, in GRID: the unit of the table. */
  meanPrice: number
  /** Slots each provider filled and tasks each client submitted. */
  participation: Map<Address, number>
}

interface Scheduled {
  at: number
  order: number
  run: () => Promise<void>
}

export class Engine {
  readonly world: World
  readonly params: SimParams
  readonly seed: number
  readonly tx: Transactor
  readonly ledger: Ledger
  readonly providers = new Map<Address, ProviderBehaviour>()
  readonly clients = new Map<Address, ClientBehaviour>()
  readonly tasks: SimTask[] = []
  readonly participation = new Map<Address, number>()
  readonly #queue: Scheduled[] = []
  #order = 0
  readonly #busyUntil = new Map<Address, number>()
  /** Results published for each input (cached answers a copycat can take). */
  readonly #published = new Map<string, Hex>()
  readonly #offers = new Map<bigint, number>()
  /** How providers whose behaviour says nothing of audits audit (the honest provider's auditor). */
  defaultAuditor: AuditorBehaviour | undefined
  constructor(world: World, params: SimParams, seed: number, startTime: number) {
    this.world = world
    this.params = params
    this.seed = seed
    this.ledger = new Ledger(world.chain.contracts, startTime)
    this.tx = new Transactor(world.chain.provider, this.ledger, startTime)
  }

  get contracts() {
    return this.world.chain.contracts
  }

  /** Simulated time: the time of the event being handled, or of the last block if that is later. */
  get now() {
    return Math.max(this.#clock, this.tx.now)
  }

  #clock = 0

  /** Runs `run` at chain time `at` (events at the same time run in the order they were scheduled). */
  schedule(at: number, run: () => Promise<void>) {
    const entry = { at, order: this.#order++, run }
    let i = this.#queue.length
    while (i > 0 && this.#compare(this.#queue[i - 1] as Scheduled, entry) > 0) i--
    this.#queue.splice(i, 0, entry)
  }

  #compare(a: Scheduled, b: Scheduled) {
    return a.at - b.at || a.order - b.order
  }

  /** Runs every scheduled event up to `until`. */
  async drain(until: number) {
    while (this.#queue.length > 0 && (this.#queue[0] as Scheduled).at <= until) {
      const next = this.#queue.shift() as Scheduled
      this.#clock = next.at
      await next.run()
    }
  }

  send: Transactor['send'] = (from, at, call) => this.tx.send(from, at, call)

  // ─── Submission ───

  /** Schedules the workload's submissions: one per task, or one batch per batching client. */
  scheduleWorkload(drafts: readonly TaskDraft[]) {
    const byClient = new Map<Address, TaskDraft[]>()
    for (const draft of drafts) byClient.set(draft.client, [...(byClient.get(draft.client) ?? []), draft])
    for (const [client, own] of byClient) {
      const behaviour = this.clients.get(client)
      const shaped = own.map((draft) => this.#shape(draft, behaviour))
      if (behaviour?.batches === true) {
        const first = shaped[0] as SimTask
        this.schedule(first.arrival, () => this.submit(client, shaped))
      } else {
        for (const task of shaped) this.schedule(task.arrival, () => this.submit(client, [task]))
      }
    }
  }

  #shape(draft: TaskDraft, behaviour: ClientBehaviour | undefined): SimTask {
    const task = simTask(draft)
    return behaviour?.shape?.(task) ?? task
  }

  /** Submits `tasks` for `client` now (one `submitTask`, or `submitTasks` for several). */
  async submit(client: Address, tasks: SimTask[]) {
    const behaviour = this.clients.get(client)
    await behaviour?.beforeSubmit?.(this, tasks)
    const at = this.now + 1
    const params = tasks.map((task) => ({
      sourceId: this.world.sourceId,
      inputCID: INPUT_CID,
      maxPayment: task.maxPayment,
      pricePerSecond: task.pricePerSecond,
      replicas: task.replicas,
      deadline: at + task.deadlineAfter,
      requirements: {
        minGpus: 0,
        minVramMiB: 0,
        minComputeCapability: 0,
        maxRuntimeSec: 0,
        deterministic: false,
      },
      minSuccessBps: task.minSuccessBps,
      minCompleted: task.minCompleted,
      // The protocol's default audit probability (single-replica tasks of the deterministic source).
      auditBps: 0,
      resultKey: CLIENT_RESULT_KEY,
    }))
    const receipt =
      params.length === 1
        ? await this.send(client, at, {
            address: this.contracts.market,
            abi: taskMarketAbi,
            functionName: 'submitTask',
            args: [params[0] as (typeof params)[number]],
          })
        : await this.send(client, at, {
            address: this.contracts.market,
            abi: taskMarketAbi,
            functionName: 'submitTasks',
            args: [params],
          })
    const submitted = parseEventLogs({ abi: taskMarketAbi, logs: receipt.logs, eventName: 'TaskSubmitted' })
    for (const [i, task] of tasks.entries()) {
      const event = submitted[i]
      if (event === undefined) throw new Error('sim: a submission reported fewer tasks than sent')
      task.id = event.args.taskId
      task.deadline = this.now + task.deadlineAfter
      const terms = await this.tx.public.readContract({
        address: this.contracts.market,
        abi: taskMarketAbi,
        functionName: 'getTask',
        args: [task.id],
      })
      task.auditBps = terms.auditBps
      this.ledger.noteTask(task.id, { client, discountBps: BigInt(terms.discountBps) })
      this.tasks.push(task)
      this.#count(client, 1)
      if (task.replicas > 1) await this.#openSeatRace(task)
      else this.schedule(this.now + CLAIM_DELAY, () => this.offer(task))
      this.schedule(task.deadline + 1, () => this.#expireIfLive(task))
    }
    await behaviour?.afterSubmit?.(this, tasks)
  }

  #count(account: Address, n: number) {
    const key = account.toLowerCase() as Address
    this.participation.set(key, (this.participation.get(key) ?? 0) + n)
  }

  // ─── Claims ───

  #chainTask(task: SimTask) {
    return this.#view(`task|${task.id}`, () => this.#readTask(task))
  }

  async #readTask(task: SimTask) {
    const [t, slots] = await Promise.all([
      this.tx.public.readContract({
        address: this.contracts.market,
        abi: taskMarketAbi,
        functionName: 'getTask',
        args: [task.id],
      }),
      this.tx.public.readContract({
        address: this.contracts.market,
        abi: taskMarketAbi,
        functionName: 'getSlots',
        args: [task.id],
      }),
    ])
    return { status: t.status, openSlots: t.openSlots, collateral: t.collateral, slots }
  }

  /**
   * A k > 1 task was submitted: its seats are raced for until `joinDeadline` (`getAudit`'s round 0). The providers
   * that want it claim once the seed block's successor is mined — watchers at once, the others spread over the
   * window, when online, idle and eligible — and its seats are final one second after the race.
   */
  async #openSeatRace(task: SimTask) {
    const record = await this.tx.public.readContract({
      address: this.contracts.market,
      abi: taskMarketAbi,
      functionName: 'getAudit',
      args: [task.id],
    })
    const race: SeatRace = {
      seedBlock: BigInt(record.seedBlock),
      joinDeadline: Number(record.joinDeadline),
      tried: new Set(),
      attempts: [],
      reserved: new Map(),
      claims: 0,
      replaced: 0,
      lost: 0,
      final: false,
      seated: 0,
      holders: [],
    }
    task.race = race
    // The race's online draw is the first offer's: a provider away for the race is away for that offer too.
    this.#offers.set(task.id, 1)
    const window = race.joinDeadline - this.now
    const spread = Math.max(0, Math.min(JOIN_SPREAD_SEC, window - JOIN_AFTER_SEC - 10))
    for (const [index, [account, behaviour]] of [...this.providers].entries()) {
      const watches = behaviour.watches(task)
      if (task.private && !watches) continue
      const delay = watches ? 0 : Math.round(draw(this.seed, 'race', task.index, index) * spread)
      this.schedule(this.now + JOIN_AFTER_SEC + delay, () => this.#raceClaim(account, index, task, race))
    }
    this.schedule(race.joinDeadline + 1, () => this.#seatsFinal(task, race))
  }

  /**
   * `account` claims a seat in the race if it wants the task and may take it: its stake-weighted ticket takes a
   * free seat, or the worst held one (ClaimReplaced), or loses (the transaction reverts, gas spent). Its GPU is
   * kept for the seat from the race's end on, given back if a better ticket takes it.
   */
  async #raceClaim(account: Address, index: number, task: SimTask, race: SeatRace) {
    if (task.settled || race.final || this.now + 1 > race.joinDeadline || race.tried.has(account)) return
    const behaviour = this.#behaviour(account)
    if (!behaviour.wants(task) || (this.#busyUntil.get(account) ?? 0) > this.now) return
    const online =
      behaviour.watches(task) ||
      draw(this.seed, 'online', task.index, 1, index) < this.params.onlineProbability
    if (!online) return
    const state = await this.#chainTask(task)
    if (state.status !== Status.Open && state.status !== Status.Claimed) return
    const start = race.joinDeadline + 1
    if (!(await this.#eligible(account, task, state.collateral, start))) return
    await this.#awaitBlock(race.seedBlock + 1n)
    if (this.now + 1 > race.joinDeadline) return
    race.tried.add(account)
    const receipt = await this.tx.attempt(
      account,
      this.now + 1,
      { address: this.contracts.market, abi: taskMarketAbi, functionName: 'claimTask', args: [task.id] },
      ['TaskMarketClaimTicketTooHigh'],
    )
    if (receipt === undefined) {
      race.lost++
      race.attempts.push({ account, block: await this.tx.blockNumber() })
      return
    }
    race.claims++
    race.attempts.push({ account, block: receipt.blockNumber })
    for (const replaced of parseEventLogs({
      abi: taskMarketAbi,
      logs: receipt.logs,
      eventName: 'ClaimReplaced',
    })) {
      race.replaced++
      const loser = this.#providerAccount(replaced.args.provider)
      this.#busyUntil.set(loser, race.reserved.get(loser) ?? 0)
      race.reserved.delete(loser)
    }
    const [claimed] = parseEventLogs({ abi: taskMarketAbi, logs: receipt.logs, eventName: 'TaskClaimed' })
    if (claimed === undefined) throw new Error('sim: claimTask emitted no TaskClaimed')
    const plan = behaviour.plan(task, {
      claimedAt: start,
      dueAt: claimed.args.dueAt,
      publicResult: this.#published.get(task.inputKey),
    })
    const before = this.#busyUntil.get(account) ?? 0
    race.reserved.set(account, before)
    // Work that needs no GPU (busyFor 0) reserves nothing.
    if (plan.busyFor > 0) this.#busyUntil.set(account, Math.max(before, start + plan.busyFor))
  }

  /** The race is over: the seats are final and their holders start; free seats are offered first come. */
  async #seatsFinal(task: SimTask, race: SeatRace) {
    if (task.settled || race.final) return
    race.final = true
    const state = await this.#chainTask(task)
    for (const [slot, seat] of state.slots.slice(0, task.replicas).entries()) {
      if (seat.status !== SlotState.Claimed) continue
      const account = this.#providerAccount(seat.provider)
      race.reserved.delete(account)
      race.seated++
      race.holders.push(account)
      this.#start(account, task, slot, seat.claimedAt, seat.dueAt)
    }
    // Nobody else holds a seat (a replaced claimant's GPU was given back at once).
    for (const [account, before] of race.reserved) this.#busyUntil.set(account, before)
    race.reserved.clear()
    if (state.status === Status.Open) await this.offer(task)
  }

  /**
   * Offers the free slots of a task — a single-replica one from its submission, a k > 1 one once the race for its
   * seats is over — first come: to the providers that want it, watchers first, then the others at random.
   */
  async offer(task: SimTask) {
    if (task.settled || this.now > task.deadline) return
    const round = (this.#offers.get(task.id) ?? 0) + 1
    this.#offers.set(task.id, round)
    let state = await this.#chainTask(task)
    if (state.status !== Status.Open) return
    const taken = new Set<Address>()
    for (;;) {
      const holders = state.slots.filter((s) => s.status !== SlotState.Free).map((s) => s.provider)
      const candidates = await this.#candidates(task, holders, state.collateral, round, taken)
      const next = candidates[0]
      if (next === undefined) break
      taken.add(next)
      await this.claim(next, task)
      state = await this.#chainTask(task)
      if (state.status !== Status.Open) return
    }
    if (this.now + REOFFER_EVERY <= task.deadline)
      this.schedule(this.now + REOFFER_EVERY, () => this.offer(task))
  }

  async #candidates(
    task: SimTask,
    holders: readonly Address[],
    collateral: bigint,
    round: number,
    tried: Set<Address>,
  ) {
    const watchers: Address[] = []
    const others: [number, Address][] = []
    for (const [index, [account, behaviour]] of [...this.providers].entries()) {
      if (tried.has(account) || holders.some((h) => same(h, account))) continue
      const watches = behaviour.watches(task)
      if (task.private && !watches) continue
      if (!behaviour.wants(task)) continue
      if ((this.#busyUntil.get(account) ?? 0) > this.now) continue
      // Watchers are always online; the others are there with the online probability.
      const online =
        watches || draw(this.seed, 'online', task.index, round, index) < this.params.onlineProbability
      if (!online || !(await this.#eligible(account, task, collateral, this.now + 1))) continue
      if (watches) watchers.push(account)
      else others.push([draw(this.seed, 'order', task.index, round, index), account])
    }
    others.sort((a, b) => a[0] - b[0])
    return [...watchers, ...others.map(([, account]) => account)]
  }

  /**
   * The chain's gates, read as an agent would before claiming a slot (whose time starts at `start`: now, or the
   * end of a seat race) or joining an audit (`start` undefined): not paused, free stake for the collateral, and,
   * to claim, reputation where the task is gated.
   */
  async #eligible(account: Address, task: SimTask, collateral: bigint, start?: number) {
    const claiming = start !== undefined
    // The market refuses a claim that would be due after the deadline (the runtime limit and the claim grace
    // from the claim's start); the agent lets such a task go.
    if (claiming && start + task.maxRuntimeSec + this.params.claimGrace > task.deadline) return false
    const available = await this.#view(`available|${account}`, () =>
      this.tx.public.readContract({
        address: this.contracts.staking,
        abi: stakingAbi,
        functionName: 'availableOf',
        args: [account],
      }),
    )
    if (available < collateral) return false
    const info = await this.#view(`provider|${account}`, () =>
      this.tx.public.readContract({
        address: this.contracts.providers,
        abi: providerRegistryAbi,
        functionName: 'getProvider',
        args: [account],
      }),
    )
    // A provider slashed below the minimum stake is paused.
    if (info.paused) return false
    // The task's reputation gates choose who claims its slots, not who audits its result (joinAudit skips them).
    if (!claiming || (task.minCompleted === 0 && task.minSuccessBps === 0)) return true
    // The registry's success rate: a provider without history has no record (0), so it fails a minSuccessBps gate;
    // failed runs it reported do not count against it.
    const success = await this.#view(`success|${account}`, () =>
      this.tx.public.readContract({
        address: this.contracts.providers,
        abi: providerRegistryAbi,
        functionName: 'successBps',
        args: [account],
      }),
    )
    return info.reputation.completed >= task.minCompleted && success >= task.minSuccessBps
  }

  /**
   * A view of the chain, read once per chain state: answers are kept until the next transaction. Idle
   * re-offers of a task nobody may take yet then cost no reads.
   */
  async #view<T>(key: string, read: () => Promise<T>): Promise<T> {
    if (this.#viewsAt !== this.tx.transactions) {
      this.#views.clear()
      this.#viewsAt = this.tx.transactions
    }
    if (this.#views.has(key)) return this.#views.get(key) as T
    const value = await read()
    this.#views.set(key, value)
    return value
  }

  readonly #views = new Map<string, unknown>()
  #viewsAt = -1

  /** `provider` claims a free slot of `task` now, first come, and plans its work. */
  async claim(provider: Address, task: SimTask) {
    const receipt = await this.send(provider, this.now + 1, {
      address: this.contracts.market,
      abi: taskMarketAbi,
      functionName: 'claimTask',
      args: [task.id],
    })
    const [claimed] = parseEventLogs({ abi: taskMarketAbi, logs: receipt.logs, eventName: 'TaskClaimed' })
    if (claimed === undefined) throw new Error('sim: claimTask emitted no TaskClaimed')
    this.#start(provider, task, claimed.args.slot, this.now, claimed.args.dueAt)
  }

  /** `provider` holds `slot` for good from `claimedAt`: it plans its work, and its client watches the due time. */
  #start(provider: Address, task: SimTask, slot: number, claimedAt: number, dueAt: number) {
    const plan = this.#behaviour(provider).plan(task, {
      claimedAt,
      dueAt,
      publicResult: this.#published.get(task.inputKey),
    })
    task.everHeld.add(provider)
    this.#count(provider, 1)
    this.#busyUntil.set(provider, claimedAt + plan.busyFor)
    this.schedule(claimedAt + plan.readyAfter, () => this.#handIn(provider, task, slot, claimedAt, dueAt))
    this.schedule(dueAt + 1, () => this.#reopenIfOverdue(task, slot, provider))
  }

  #behaviour(provider: Address): ProviderBehaviour {
    const behaviour = this.providers.get(provider)
    if (behaviour === undefined) throw new Error(`sim: ${provider} has no provider behaviour`)
    return behaviour
  }

  // ─── Results ───

  async #handIn(provider: Address, task: SimTask, slot: number, claimedAt: number, dueAt: number) {
    if (task.settled) return
    const state = await this.#chainTask(task)
    const mine = state.slots[slot]
    if (mine === undefined || !same(mine.provider, provider) || mine.status !== SlotState.Claimed) return
    const holders = state.slots.filter((s) => s.status !== SlotState.Free).map((s) => s.provider)
    const delivery = this.#behaviour(provider).deliver({
      task,
      holders,
      claimedAt,
      dueAt,
      now: this.now,
      correct: task.correct,
      publicResult: this.#published.get(task.inputKey),
    })
    const account = this.ledger.account(provider)
    const late = this.now + 1 > dueAt
    // A run cut off by the claim's due time used the GPU only until then.
    account.computeSec += late ? Math.min(delivery.computeSec, dueAt - claimedAt) : delivery.computeSec
    if (delivery.digest === undefined || late) return
    task.delivered.set(provider, delivery.digest)
    const runtime = Math.min(UINT32_MAX, Math.max(0, Math.round(delivery.runtimeSec)))
    if (task.replicas === 1) {
      const receipt = await this.send(provider, this.now + 1, {
        address: this.contracts.market,
        abi: taskMarketAbi,
        functionName: 'submitResult',
        args: [
          task.id,
          sealOf(task.id, delivery.digest),
          resultCidOf(delivery.digest, task.id, provider),
          RECEIPT_CID,
          runtime,
        ],
      })
      this.#publish(task, delivery.digest)
      if (task.auditBps === 0) {
        await this.#settled(task, receipt)
        return
      }
      const [submitted] = parseEventLogs({
        abi: taskMarketAbi,
        logs: receipt.logs,
        eventName: 'ResultSubmitted',
      })
      if (submitted === undefined) throw new Error('sim: submitResult emitted no ResultSubmitted')
      // Held: paid (or audited) once the draw is made, from two blocks on.
      task.audit = {
        kind: 'held',
        provider,
        audited: [provider],
        results: [submitted.args.resultDigest],
        resultDigest: submitted.args.resultDigest,
        resultCID: submitted.args.resultCID,
        submittedBlock: receipt.blockNumber,
        submittedAt: this.now,
        openings: 0,
        seats: new Map(),
        lostRaces: 0,
      }
      this.schedule(this.now + RELEASE_AFTER_SEC, () => this.#release(provider, task))
      this.schedule(this.now + CLIENT_RELEASE_AFTER_SEC, () => this.#release(task.client, task))
      return
    }
    // Replicas commit to their output's seal, as they hand it in.
    const commitment = this.#commitment(task, provider, sealOf(task.id, delivery.digest))
    const receipt = await this.send(provider, this.now + 1, {
      address: this.contracts.market,
      abi: taskMarketAbi,
      functionName: 'commitResult',
      args: [task.id, commitment],
    })
    this.#runtimes.set(`${task.id}|${provider}`, runtime)
    const [opened] = parseEventLogs({ abi: taskMarketAbi, logs: receipt.logs, eventName: 'RevealOpened' })
    if (opened === undefined) return
    const revealDeadline = opened.args.revealDeadline
    for (const [i, holder] of [...task.delivered.keys()].entries()) {
      const last = this.#behaviour(holder).revealsLast === true
      const delay = last ? 300 : 30 + Math.round(draw(this.seed, 'reveal', task.index, i) * 120)
      this.schedule(this.now + delay, () => this.#reveal(holder, task))
    }
    this.schedule(revealDeadline + 1, () => this.#finalizeIfRevealing(task))
  }

  /** Runtimes committed to, revealed with the result. */
  readonly #runtimes = new Map<string, number>()

  #salt(task: SimTask, provider: Address): Hex {
    return keccak256(toHex(`${this.seed}|salt|${task.id}|${provider.toLowerCase()}`))
  }

  /** keccak256(abi.encode(taskId, provider, digest, salt)): what a replica or an auditor commits to. */
  #commitment(task: SimTask, provider: Address, digest: Hex): Hex {
    return keccak256(
      encodeAbiParameters(
        [{ type: 'uint256' }, { type: 'address' }, { type: 'bytes32' }, { type: 'bytes32' }],
        [task.id, provider, digest, this.#salt(task, provider)],
      ),
    )
  }

  async #reveal(provider: Address, task: SimTask) {
    if (task.settled) return
    const digest = task.delivered.get(provider)
    if (digest === undefined) return
    const salt = this.#salt(task, provider)
    const receipt = await this.send(provider, this.now + 1, {
      address: this.contracts.market,
      abi: taskMarketAbi,
      functionName: 'revealResult',
      args: [
        task.id,
        sealOf(task.id, digest),
        salt,
        resultCidOf(digest, task.id, provider),
        RECEIPT_CID,
        this.#runtimes.get(`${task.id}|${provider}`) ?? 0,
      ],
    })
    this.#publish(task, digest)
    await this.#replicasStep(task, receipt)
  }

  /**
   * Follows the settlement of a k > 1 task's replicas (the last reveal, or finalizeTask after the reveal window):
   * results that agree settle; results that differ open a dispute, audited like a drawn result.
   */
  async #replicasStep(task: SimTask, receipt: TransactionReceipt) {
    const [opened] = parseEventLogs({ abi: taskMarketAbi, logs: receipt.logs, eventName: 'AuditRoundOpened' })
    if (opened === undefined || task.audit !== undefined) {
      await this.#settled(task, receipt)
      return
    }
    const state = await this.#chainTask(task)
    const audited: Address[] = []
    const results: Hex[] = []
    for (const slot of state.slots.slice(0, task.replicas)) {
      if (slot.provider === zeroAddress) continue
      const account = this.#providerAccount(slot.provider)
      audited.push(account)
      const digest = task.delivered.get(account)
      // What the disputing replicas revealed, public: their results' seals.
      if (slot.status === SlotState.Submitted && digest !== undefined) results.push(sealOf(task.id, digest))
    }
    task.audit = {
      kind: 'dispute',
      provider: zeroAddress,
      audited,
      results,
      submittedBlock: receipt.blockNumber,
      submittedAt: this.now,
      drawn: true,
      openings: 0,
      seats: new Map(),
      lostRaces: 0,
    }
    await this.#auditStep(task, receipt)
  }

  /** A result in the clear becomes a cached answer for its input: a failure report. Outputs are encrypted. */
  #publish(task: SimTask, digest: Hex) {
    if (isFailure(digest) && !this.#published.has(task.inputKey)) this.#published.set(task.inputKey, digest)
  }

  /** The digest whose seal is `seal` among those this task's runs found (a failure is its own seal). */
  #unseal(task: SimTask, seal: Hex): Hex {
    const found = [
      task.correct,
      ...task.delivered.values(),
      ...[...(task.audit?.seats.values() ?? [])].map((s) => s.digest),
    ]
    return found.find((digest) => digest !== undefined && sealOf(task.id, digest) === seal) ?? seal
  }

  // ─── Audits of held single-replica results ───

  /** Releases a held result (its provider does, from two blocks after it; its client if nobody did). */
  async #release(sender: Address, task: SimTask) {
    const audit = task.audit
    if (task.settled || audit === undefined || audit.releasedAt !== undefined) return
    // The draw reads the hash of the block after the submission: the release goes in the block after that one.
    await this.#awaitBlock(audit.submittedBlock + 1n)
    const receipt = await this.send(sender, this.now + 1, {
      address: this.contracts.market,
      abi: taskMarketAbi,
      functionName: 'releaseResult',
      args: [task.id],
    })
    audit.releasedBlock = receipt.blockNumber
    audit.releasedAt = this.now
    const [drawn] = parseEventLogs({ abi: taskMarketAbi, logs: receipt.logs, eventName: 'AuditDrawn' })
    audit.drawn = drawn?.args.drawn === true
    if (!audit.drawn) audit.verdict = 'NotDrawn'
    await this.#auditStep(task, receipt)
  }

  /** Waits for block `n`: where no participant's transaction made it, the chain's own (empty) block does. */
  async #awaitBlock(n: bigint) {
    while ((await this.tx.blockNumber()) < n) await this.tx.mineAt(this.now)
  }

  /** Follows what a transaction did to an audit: a round opened, reveals opened, the verdict, the settlement. */
  async #auditStep(task: SimTask, receipt: TransactionReceipt) {
    const audit = task.audit as AuditTrack
    const logs = receipt.logs.filter((log) => same(log.address, this.contracts.market))
    for (const event of parseEventLogs({ abi: taskMarketAbi, logs })) {
      if (event.eventName === 'AuditRoundOpened')
        this.#openRound(task, audit, event.args, receipt.blockNumber)
      else if (event.eventName === 'RevealOpened')
        this.#openAuditReveals(task, audit, event.args.revealDeadline)
      else if (event.eventName === 'AuditResolved') {
        audit.verdict = verdicts[event.args.verdict]
        audit.resolvedAt = this.now
      } else if (event.eventName === 'RuntimeOverstated') {
        const { billedSec, measuredSec, forfeit, provider } = event.args
        // Beyond the tolerance the provider's bond is slashed as well: ProviderSlashed for slot 0 comes first.
        const bond = parseEventLogs({ abi: taskMarketAbi, logs, eventName: 'ProviderSlashed' }).some(
          (slashed) => slashed.args.slot === 0 && same(slashed.args.provider, provider),
        )
        audit.overstated = { billedSec, measuredSec, forfeit, bond }
      }
    }
    await this.#settled(task, receipt)
  }

  /**
   * A round opened: the providers that audit join once its seed block's successor is mined (honest ones when
   * online and idle), and its seats are final when joining closes.
   */
  #openRound(
    task: SimTask,
    audit: AuditTrack,
    opened: { round: number; firstSlot: number; auditors: number; joinDeadline: number },
    seedBlock: bigint,
  ) {
    const joinDeadline = Number(opened.joinDeadline)
    const round: AuditRound = {
      number: opened.round,
      firstSlot: opened.firstSlot,
      auditors: opened.auditors,
      joinDeadline,
      commitDeadline: joinDeadline + task.maxRuntimeSec + this.params.claimGrace,
      seedBlock,
      opening: ++audit.openings,
      reserved: new Map(),
    }
    audit.round = round
    const spread = Math.max(0, Math.min(JOIN_SPREAD_SEC, this.params.auditJoinWindow - JOIN_AFTER_SEC - 10))
    for (const [index, [account, behaviour]] of [...this.providers].entries()) {
      // The provider (the replicas of a dispute) and the auditors of earlier rounds stay out.
      if (audit.audited.some((a) => same(a, account)) || audit.seats.has(lower(account))) continue
      const joins = this.#auditor(behaviour)?.joins(task, { provider: audit.provider, round: round.number })
      if (joins !== true) continue
      const at =
        this.now +
        JOIN_AFTER_SEC +
        Math.round(draw(this.seed, 'join', task.index, round.opening, index) * spread)
      this.schedule(at, () => this.#join(account, index, task, round))
    }
    this.schedule(joinDeadline + 1, () => this.#seat(task, round))
  }

  #auditor(behaviour: ProviderBehaviour): AuditorBehaviour | undefined {
    return behaviour.auditor ?? this.defaultAuditor
  }

  /** `account` joins the round if it may; its ticket may lose the race (the transaction reverts, gas spent). */
  async #join(account: Address, index: number, task: SimTask, round: AuditRound) {
    const audit = task.audit
    if (task.settled || audit?.round !== round || this.now + 1 > round.joinDeadline) return
    const auditor = this.#auditor(this.#behaviour(account))
    if (auditor === undefined) return
    const watches = auditor.watches?.(task, { provider: audit.provider, round: round.number }) === true
    if (!watches) {
      const online =
        draw(this.seed, 'audit-online', task.index, round.opening, index) < this.params.onlineProbability
      if (!online || (this.#busyUntil.get(account) ?? 0) > this.now) return
    }
    const state = await this.#chainTask(task)
    if (state.status !== Status.Auditing || !(await this.#eligible(account, task, state.collateral))) return
    await this.#awaitBlock(round.seedBlock + 1n)
    if (this.now + 1 > round.joinDeadline) return
    const receipt = await this.tx.attempt(
      account,
      this.now + 1,
      { address: this.contracts.market, abi: taskMarketAbi, functionName: 'joinAudit', args: [task.id] },
      ['TaskMarketAuditTicketTooHigh'],
    )
    if (receipt === undefined) {
      audit.lostRaces++
      return
    }
    const [joined] = parseEventLogs({ abi: taskMarketAbi, logs: receipt.logs, eventName: 'AuditorJoined' })
    if (joined !== undefined && !watches) {
      // Its GPU is kept for the audit from now (given back if a better ticket takes the seat).
      round.reserved.set(account, this.#busyUntil.get(account) ?? 0)
      this.#busyUntil.set(account, round.joinDeadline + auditor.plan(task).busyFor)
    }
    // A round whose seed went stale opens again instead (AuditRoundOpened).
    await this.#auditStep(task, receipt)
  }

  /** Joining closed: the seats are final. Their holders work; nobody joined: anyone moves the audit on. */
  async #seat(task: SimTask, round: AuditRound) {
    const audit = task.audit
    if (task.settled || audit?.round !== round) return
    const state = await this.#chainTask(task)
    const seats: { account: Address; slot: number }[] = []
    for (let slot = round.firstSlot; slot < round.firstSlot + round.auditors; slot++) {
      const holder = state.slots[slot]?.provider
      if (holder !== undefined && holder !== zeroAddress)
        seats.push({ account: this.#providerAccount(holder), slot })
    }
    for (const [account, before] of round.reserved) {
      if (!seats.some((seat) => same(seat.account, account))) this.#busyUntil.set(account, before)
    }
    if (seats.length === 0) {
      await this.#advanceAudit(task, round)
      return
    }
    for (const { account, slot } of seats) {
      audit.seats.set(lower(account), { account, round: round.number, slot, revealed: false })
      this.#count(account, 1)
      const auditor = this.#auditor(this.#behaviour(account)) as AuditorBehaviour
      this.schedule(round.joinDeadline + auditor.plan(task).readyAfter, () =>
        this.#auditCommit(account, task, round),
      )
    }
    this.schedule(round.commitDeadline + 1, () => this.#advanceAudit(task, round))
  }

  /** The key of `address` in the providers' behaviours (the chain writes addresses checksummed). */
  #providerAccount(address: Address): Address {
    for (const account of this.providers.keys()) if (same(account, address)) return account
    throw new Error(`sim: ${address} audits but has no provider behaviour`)
  }

  async #auditCommit(account: Address, task: SimTask, round: AuditRound) {
    const audit = task.audit
    if (task.settled || audit?.round !== round) return
    const seat = audit.seats.get(lower(account))
    const auditor = this.#auditor(this.#behaviour(account))
    if (seat === undefined || auditor === undefined) return
    const delivery = auditor.deliver({
      task,
      provider: audit.provider,
      results: audit.results,
      resultDigest: audit.resultDigest,
      resultCID: audit.resultCID,
      correct: task.correct,
      round: round.number,
    })
    this.ledger.account(account).computeSec += delivery.computeSec
    if (delivery.digest === undefined || this.now + 1 > round.commitDeadline) return
    seat.digest = delivery.digest
    seat.runtimeSec = Math.min(UINT32_MAX, Math.max(0, Math.round(delivery.runtimeSec)))
    const receipt = await this.send(account, this.now + 1, {
      address: this.contracts.market,
      abi: taskMarketAbi,
      functionName: 'commitResult',
      args: [task.id, this.#commitment(task, account, delivery.digest)],
    })
    await this.#auditStep(task, receipt)
  }

  /** Every auditor of the round committed (or the others forfeited): they reveal. */
  #openAuditReveals(task: SimTask, audit: AuditTrack, revealDeadline: number) {
    const round = audit.round as AuditRound
    round.revealDeadline = Number(revealDeadline)
    const committed = [...audit.seats.values()].filter(
      (s) => s.round === round.number && s.digest !== undefined,
    )
    for (const [i, seat] of committed.entries()) {
      const delay = 30 + Math.round(draw(this.seed, 'audit-reveal', task.index, round.opening, i) * 120)
      this.schedule(this.now + delay, () => this.#auditReveal(seat, task, round))
    }
    this.schedule(round.revealDeadline + 1, () => this.#advanceAudit(task, round))
  }

  async #auditReveal(seat: AuditSeat, task: SimTask, round: AuditRound) {
    if (task.settled || task.audit?.round !== round || seat.digest === undefined || seat.revealed) return
    if (this.now + 1 > (round.revealDeadline ?? 0)) return
    const receipt = await this.send(seat.account, this.now + 1, {
      address: this.contracts.market,
      abi: taskMarketAbi,
      functionName: 'revealResult',
      args: [
        task.id,
        seat.digest,
        this.#salt(task, seat.account),
        resultCidOf(seat.digest, task.id, seat.account),
        RECEIPT_CID,
        seat.runtimeSec ?? 0,
      ],
    })
    seat.revealed = true
    await this.#auditStep(task, receipt)
  }

  /**
   * Moves a round whose time is over (nobody joined, commitments or reveals missed) to its next step: sent by
   * the client, who wants its result settled. Auditors that missed their step forfeit their collateral.
   */
  async #advanceAudit(task: SimTask, round: AuditRound) {
    if (task.settled || task.audit?.round !== round) return
    // Commitments are in and reveals are open: the reveal deadline moves the round on.
    if (round.revealDeadline !== undefined && this.now <= round.revealDeadline) return
    const state = await this.#chainTask(task)
    if (state.status !== Status.Auditing) return
    const receipt = await this.send(task.client, this.now + 1, {
      address: this.contracts.market,
      abi: taskMarketAbi,
      functionName: 'finalizeTask',
      args: [task.id],
    })
    await this.#auditStep(task, receipt)
  }

  // ─── Permissionless exits (sent by the task's client, who wants its money back) ───

  async #reopenIfOverdue(task: SimTask, slot: number, provider: Address) {
    if (task.settled) return
    const state = await this.#chainTask(task)
    const held = state.slots[slot]
    if (state.status !== Status.Open && state.status !== Status.Claimed) return
    if (held === undefined || !same(held.provider, provider) || held.status !== SlotState.Claimed) return
    await this.send(task.client, this.now + 1, {
      address: this.contracts.market,
      abi: taskMarketAbi,
      functionName: 'reopenSlot',
      args: [task.id, slot],
    })
    await this.offer(task)
  }

  async #expireIfLive(task: SimTask) {
    if (task.settled) return
    const state = await this.#chainTask(task)
    if (state.status !== Status.Open && state.status !== Status.Claimed) return
    const receipt = await this.send(task.client, this.now + 1, {
      address: this.contracts.market,
      abi: taskMarketAbi,
      functionName: 'expireTask',
      args: [task.id],
    })
    await this.#settled(task, receipt)
  }

  async #finalizeIfRevealing(task: SimTask) {
    if (task.settled) return
    const state = await this.#chainTask(task)
    if (state.status !== Status.Revealing) return
    const receipt = await this.send(task.client, this.now + 1, {
      address: this.contracts.market,
      abi: taskMarketAbi,
      functionName: 'finalizeTask',
      args: [task.id],
    })
    await this.#replicasStep(task, receipt)
  }

  // ─── Settlement ───

  async #settled(task: SimTask, receipt: TransactionReceipt) {
    const [finalized] = parseEventLogs({ abi: taskMarketAbi, logs: receipt.logs, eventName: 'TaskFinalized' })
    if (finalized === undefined) return
    task.settled = true
    const { status, resultDigest } = finalized.args
    const result =
      status === Status.Completed
        ? task.replicas === 1
          ? [...task.delivered.values()][0]
          : this.#unseal(task, resultDigest)
        : // Overturned: the auditors' majority revealed the result they found.
          task.audit !== undefined && resultDigest !== zeroHash
          ? this.#unseal(task, resultDigest)
          : undefined
    const outcome: TaskOutcome = {
      status: status === Status.Completed ? 'Completed' : status === Status.Failed ? 'Failed' : 'Expired',
      result,
      failed: result !== undefined && isFailure(result),
    }
    if (task.audit?.verdict !== undefined) outcome.verdict = task.audit.verdict
    task.outcome = outcome
    const behaviour = this.clients.get(task.client)
    const value = behaviour?.value?.(task, outcome, this.params) ?? defaultValue(task, outcome, this.params)
    this.ledger.account(task.client).value += value
    await behaviour?.afterSettle?.(this, task, outcome)
  }
}

/** A task of the workload as the engine follows it, before its submission. */
export function simTask(draft: TaskDraft): SimTask {
  return {
    ...draft,
    id: 0n,
    deadline: 0,
    delivered: new Map(),
    everHeld: new Set(),
    settled: false,
    auditBps: 0,
  }
}

/** What a settled task is worth to an honest client: its value when the result it received is right. */
export function defaultValue(task: SimTask, outcome: TaskOutcome, params: SimParams): number {
  if (outcome.result !== task.correct) return 0
  return taskValue(task, params)
}

/** The value of a correct result of `task`, in GRID. */
export function taskValue(task: Pick<SimTask, 'maxPayment' | 'replicas'>, params: SimParams): number {
  return (params.valueMultiple * Number(task.maxPayment) * task.replicas) / 1e18
}

export function same(a: Address, b: Address) {
  return a.toLowerCase() === b.toLowerCase()
}

function lower(address: Address): Address {
  return address.toLowerCase() as Address
}
