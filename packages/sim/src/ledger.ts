/**
 * The simulator's books: every account's GRID, built from the events of the transactions the simulation
 * sent (never from reading balances), plus what costs money off chain. A test reconciles the books with
 * the chain after a run, to the wei: if the two ever differ, a payoff in the table is wrong.
 */
import { gridTokenAbi, stakingAbi, taskMarketAbi } from '@gridforge/contracts'
import { type Address, type Log, parseEventLogs } from 'viem'

const BPS = 10_000n

/** What the books hold of one account. Amounts in wei of GRID; costs off chain in GRID. */
export interface Account {
  /** GRID held in the wallet. */
  wallet: bigint
  /** The market's internal balance (the "cloud wallet"). */
  internal: bigint
  /** Staking: staked (collateral locks included), locked as collateral, and unbonding. */
  staked: bigint
  locked: bigint
  unbonding: bigint
  /** Escrow of the account's live tasks. */
  escrow: bigint
  /** Gas used by the account's transactions. */
  gasUsed: bigint
  /** GRID-seconds of capital locked (stake, unbonding stake, escrow). */
  capitalGridSeconds: number
  /** GPU-seconds the account computed. */
  computeSec: number
  /** Value of the correct results the account received, in GRID. */
  value: number
}

function emptyAccount(): Account {
  return {
    wallet: 0n,
    internal: 0n,
    staked: 0n,
    locked: 0n,
    unbonding: 0n,
    escrow: 0n,
    gasUsed: 0n,
    capitalGridSeconds: 0,
    computeSec: 0,
    value: 0,
  }
}

export interface LedgerContracts {
  token: Address
  market: Address
  staking: Address
}

/** What the books need to know of a task that no event carries. */
export interface TaskTerms {
  client: Address
  /** The client's fee discount, fixed at submission (`getTask().discountBps`): rebates are not in events. */
  discountBps: bigint
}

/** What the books follow of an audit, from its events: the collateral it slashed so far. */
interface AuditBooks {
  slashed: bigint
  /** The market's slashToClientBps when the task was submitted (from the last ParamsUpdated). */
  slashToClientBps: bigint
}

export class Ledger {
  readonly #accounts = new Map<Address, Account>()
  readonly #contracts: LedgerContracts
  readonly #terms = new Map<bigint, TaskTerms>()
  readonly #escrowOf = new Map<bigint, bigint>()
  /** slashToClientBps of each task, fixed at submission, and the audits under way. */
  readonly #slashToClientOf = new Map<bigint, bigint>()
  readonly #audits = new Map<bigint, AuditBooks>()
  /** The market's slashToClientBps, from the last ParamsUpdated event (the run writes them first). */
  #slashToClientBps: bigint | undefined
  #time: number
  #closed = false

  constructor(contracts: LedgerContracts, startTime: number) {
    this.#contracts = contracts
    this.#time = startTime
  }

  /** The books of `address` (created empty). */
  account(address: Address): Account {
    const key = address.toLowerCase() as Address
    let account = this.#accounts.get(key)
    if (account === undefined) {
      account = emptyAccount()
      this.#accounts.set(key, account)
    }
    return account
  }

  /** Every account the books know. */
  addresses(): Address[] {
    return [...this.#accounts.keys()]
  }

  /** Opening balances, read once from the chain when a run starts. */
  open(address: Address, opening: Pick<Account, 'wallet' | 'internal' | 'staked' | 'locked' | 'unbonding'>) {
    Object.assign(this.account(address), opening)
  }

  noteTask(taskId: bigint, terms: TaskTerms) {
    this.#terms.set(taskId, terms)
  }

  /** Accrues capital cost up to `time` (seconds): stake, unbonding stake and escrow are locked capital. */
  advanceTo(time: number) {
    const elapsed = time - this.#time
    if (elapsed <= 0 || this.#closed) return
    for (const account of this.#accounts.values()) {
      const locked = account.staked + account.unbonding + account.escrow
      if (locked !== 0n) account.capitalGridSeconds += (Number(locked) / 1e18) * elapsed
    }
    this.#time = time
  }

  /** Stops accruing capital cost: the run's horizon is reached (what follows is paying out). */
  close() {
    this.#closed = true
  }

  /** Books one mined transaction: its gas to `from`, and every GRID movement its events report. */
  book(from: Address, gasUsed: bigint, logs: readonly Log[]) {
    this.account(from).gasUsed += gasUsed
    const { token, market, staking } = this.#contracts
    const at = (address: Address) => logs.filter((log) => log.address.toLowerCase() === address.toLowerCase())
    for (const event of parseEventLogs({ abi: gridTokenAbi, logs: at(token), eventName: 'Transfer' })) {
      this.account(event.args.from).wallet -= event.args.value
      this.account(event.args.to).wallet += event.args.value
    }
    for (const event of parseEventLogs({ abi: stakingAbi, logs: at(staking) })) this.#bookStaking(event)
    const events = parseEventLogs({ abi: taskMarketAbi, logs: at(market) })
    // A dispute's first round opens after its no-shows are slashed into its pot, in the same transaction.
    for (const event of events) if (event.eventName === 'AuditRoundOpened') this.#openAudit(event.args.taskId)
    for (const event of events) this.#bookMarket(event)
  }

  #bookStaking(event: ReturnType<typeof parseEventLogs<typeof stakingAbi>>[number]) {
    switch (event.eventName) {
      case 'Staked':
        this.account(event.args.account).staked += event.args.amount
        break
      case 'UnbondRequested': {
        const account = this.account(event.args.account)
        account.staked -= event.args.amount
        account.unbonding += event.args.amount
        break
      }
      case 'UnbondedWithdrawn':
        this.account(event.args.account).unbonding -= event.args.amount
        break
      case 'CollateralLocked':
        this.account(event.args.account).locked += event.args.amount
        break
      case 'CollateralUnlocked':
        this.account(event.args.account).locked -= event.args.amount
        break
      case 'Slashed': {
        const account = this.account(event.args.account)
        account.staked -= event.args.amount
        account.locked -= event.args.amount
        break
      }
    }
  }

  #bookMarket(event: ReturnType<typeof parseEventLogs<typeof taskMarketAbi>>[number]) {
    switch (event.eventName) {
      case 'ParamsUpdated':
        this.#slashToClientBps = BigInt(event.args.params.slashToClientBps)
        break
      case 'Deposited':
        this.account(event.args.account).internal += event.args.amount
        break
      case 'Withdrawn':
        this.account(event.args.account).internal -= event.args.amount
        break
      case 'TaskSubmitted': {
        const client = this.account(event.args.client)
        client.internal -= event.args.escrow
        client.escrow += event.args.escrow
        this.#escrowOf.set(event.args.taskId, event.args.escrow)
        if (this.#slashToClientBps !== undefined) {
          this.#slashToClientOf.set(event.args.taskId, this.#slashToClientBps)
        }
        break
      }
      case 'AuditRoundOpened':
        this.#openAudit(event.args.taskId)
        break
      case 'ReplicaPaid': {
        const { taskId, provider, payment, fee } = event.args
        this.account(provider).internal += payment - fee
        const terms = this.#termsOf(taskId)
        this.account(terms.client).internal += (fee * terms.discountBps) / BPS
        break
      }
      case 'ProviderSlashed': {
        this.account(this.#termsOf(event.args.taskId).client).internal += event.args.toClient
        // An audit's slashes (its events say toClient 0: auditors, the overturned provider, a dispute's replicas)
        // pay its auditors first; the client's share of the rest is decided when it settles.
        const audit = this.#audits.get(event.args.taskId)
        if (audit !== undefined) audit.slashed += event.args.amount
        break
      }
      case 'TaskFinalized': {
        const { taskId, paid, refund } = event.args
        const client = this.account(event.args.client)
        const escrow = this.#escrowOf.get(taskId) ?? 0n
        client.internal += refund
        client.escrow -= escrow
        this.#escrowOf.delete(taskId)
        this.#slashToClientOf.delete(taskId)
        const audit = this.#audits.get(taskId)
        if (audit !== undefined) {
          // refund = escrow − (paid − paid from slashes): what slashes paid auditors, and the client's share of
          // what is left of them (no event carries it).
          const fromSlashes = paid + refund - escrow
          client.internal += ((audit.slashed - fromSlashes) * audit.slashToClientBps) / BPS
          this.#audits.delete(taskId)
        }
        break
      }
      case 'CreatorFeesClaimed':
        this.account(event.args.owner).internal += event.args.amount
        break
    }
  }

  /** Follows the audit of a held result or of a dispute from its first round on (once). */
  #openAudit(taskId: bigint) {
    if (this.#audits.has(taskId)) return
    const slashToClientBps = this.#slashToClientOf.get(taskId)
    if (slashToClientBps === undefined) {
      throw new Error(`sim ledger: task ${taskId} is audited but no ParamsUpdated preceded its submission`)
    }
    this.#audits.set(taskId, { slashed: 0n, slashToClientBps })
  }

  #termsOf(taskId: bigint): TaskTerms {
    const terms = this.#terms.get(taskId)
    if (terms === undefined) throw new Error(`sim ledger: task ${taskId} was not noted at submission`)
    return terms
  }
}
