/**
 * What the indexer keeps: one table per thing of the market's domain, each row
 * written from the contracts' events only (plus one `getTask` read per task:
 * the terms are not in `TaskSubmitted`). Times are unix seconds of the block,
 * amounts are base units (wei). Counters that the API serves for every request
 * (tasks by status, a source's usage, a provider's record) are kept up to date
 * as events arrive, so that no request counts millions of rows.
 */
import { leaseEndReasons } from '@gridforge/sdk'
import { index, onchainEnum, onchainTable, primaryKey } from 'ponder'

/** The contract's `TaskStatus`, by name (the SDK's `taskStatuses` without `None`). */
export const taskStatus = onchainEnum('task_status', [
  'Open',
  'Claimed',
  'Revealing',
  'Completed',
  'Failed',
  'Cancelled',
  'Expired',
  'Held',
  'Auditing',
])

/**
 * What became of one claim of a slot: the contract's `SlotStatus` for the claim
 * still holding it, `Reopened` for a no-show whose slot was freed, `Replaced`
 * for a seat or an audit slot taken by a better ticket.
 */
export const claimStatus = onchainEnum('claim_status', [
  'Claimed',
  'Committed',
  'Submitted',
  'Forfeited',
  'Reopened',
  'Replaced',
])

/** Whether a claim runs the task (a replica) or re-runs it for an audit. */
export const claimRole = onchainEnum('claim_role', ['replica', 'auditor'])

/** The contract's `AuditVerdict`, by name (the API serves the SDK's kebab-cased `auditVerdicts`). */
export const auditVerdict = onchainEnum('audit_verdict', [
  'None',
  'NotDrawn',
  'Pending',
  'Upheld',
  'Overturned',
  'Unresolved',
  'Lapsed',
])

/** The market as a whole: its parameters now, and running totals. One row, id 1. */
export const market = onchainTable('market', (t) => ({
  id: t.integer().primaryKey(),
  // MarketParams, as last set (`ParamsUpdated`, first emitted by the constructor).
  protocolFeeBps: t.integer().notNull(),
  stakerShareBps: t.integer().notNull(),
  collateralBps: t.integer().notNull(),
  slashToClientBps: t.integer().notNull(),
  revealWindow: t.integer().notNull(),
  claimGrace: t.integer().notNull(),
  minCollateral: t.bigint().notNull(),
  auditBps: t.integer().notNull(),
  auditJoinWindow: t.integer().notNull(),
  treasury: t.hex(),
  minProviderStake: t.bigint(),
  minRecordPayment: t.bigint(),
  unbondingPeriod: t.integer(),
  tasks: t.integer().notNull(),
  /** Paid to replicas and auditors (ReplicaPaid `payment`: the provider's amount plus the fee). */
  paid: t.bigint().notNull(),
  refunded: t.bigint().notNull(),
  /** Protocol fees on payments, before the client's rebate. */
  fees: t.bigint().notNull(),
  feeRebates: t.bigint().notNull(),
  creatorFees: t.bigint().notNull(),
  stakerFees: t.bigint().notNull(),
  treasuryFees: t.bigint().notNull(),
  creatorFeesClaimed: t.bigint().notNull(),
  stakerFeesReleased: t.bigint().notNull(),
  treasuryWithdrawn: t.bigint().notNull(),
  slashed: t.bigint().notNull(),
  slashedToClients: t.bigint().notNull(),
}))

/** How many tasks of each source are in each status now (the market's counts are their sums). */
export const statusCount = onchainTable(
  'status_count',
  (t) => ({
    sourceId: t.integer().notNull(),
    status: taskStatus('status').notNull(),
    tasks: t.integer().notNull(),
  }),
  (table) => ({ pk: primaryKey({ columns: [table.sourceId, table.status] }) }),
)

export const source = onchainTable(
  'source',
  (t) => ({
    id: t.integer().primaryKey(),
    owner: t.hex().notNull(),
    predecessor: t.integer().notNull(),
    imageDigest: t.hex().notNull(),
    metadataCid: t.text().notNull(),
    minGpus: t.integer().notNull(),
    minVramMiB: t.integer().notNull(),
    minComputeCapability: t.integer().notNull(),
    maxRuntimeSec: t.integer().notNull(),
    deterministic: t.boolean().notNull(),
    creatorFeeBps: t.integer().notNull(),
    failureFeeBps: t.integer().notNull(),
    validator: t.integer().notNull(),
    active: t.boolean().notNull(),
    publishedAt: t.int8({ mode: 'number' }).notNull(),
    publishedBlock: t.int8({ mode: 'number' }).notNull(),
    tasks: t.integer().notNull(),
    /** Paid to the providers (and auditors) of its tasks. */
    paid: t.bigint().notNull(),
    creatorFees: t.bigint().notNull(),
    creatorFeesClaimed: t.bigint().notNull(),
    subscribers: t.integer().notNull(),
  }),
  (table) => ({ ownerIndex: index().on(table.owner, table.id) }),
)

export const task = onchainTable(
  'task',
  (t) => ({
    id: t.bigint().primaryKey(),
    client: t.hex().notNull(),
    sourceId: t.integer().notNull(),
    inputCid: t.text().notNull(),
    resultKey: t.hex().notNull(),
    escrow: t.bigint().notNull(),
    // The terms (getTask at the submission's block).
    replicas: t.integer().notNull(),
    maxPayment: t.bigint().notNull(),
    pricePerSecond: t.bigint().notNull(),
    deadline: t.int8({ mode: 'number' }).notNull(),
    feeBps: t.integer().notNull(),
    creatorFeeBps: t.integer().notNull(),
    discountBps: t.integer().notNull(),
    /** MarketParams.stakerShareBps when it was submitted (its terms: `termsOf`). */
    stakerShareBps: t.integer().notNull(),
    collateral: t.bigint().notNull(),
    minGpus: t.integer().notNull(),
    minVramMiB: t.integer().notNull(),
    minComputeCapability: t.integer().notNull(),
    maxRuntimeSec: t.integer().notNull(),
    deterministic: t.boolean().notNull(),
    minSuccessBps: t.integer().notNull(),
    minCompleted: t.integer().notNull(),
    auditBps: t.integer().notNull(),
    // Its life.
    status: taskStatus('status').notNull(),
    submittedAt: t.int8({ mode: 'number' }).notNull(),
    submittedBlock: t.int8({ mode: 'number' }).notNull(),
    submittedTx: t.hex().notNull(),
    /** Slots held now (replicas); the task is Open while fewer than `replicas`. */
    heldSlots: t.integer().notNull(),
    firstClaimAt: t.int8({ mode: 'number' }),
    revealDeadline: t.int8({ mode: 'number' }),
    finalizedAt: t.int8({ mode: 'number' }),
    finalizedBlock: t.int8({ mode: 'number' }),
    // The result: a single replica's, or the one the replicas agreed on.
    resultDigest: t.hex(),
    resultCid: t.text(),
    receiptCid: t.text(),
    runtimeSec: t.integer(),
    failureKind: t.text(),
    failureExitCode: t.integer(),
    // Its settlement.
    paid: t.bigint().notNull(),
    refund: t.bigint().notNull(),
    fees: t.bigint().notNull(),
    slashed: t.bigint().notNull(),
    // Its audit (k = 1) or dispute (k > 1).
    auditDrawn: t.boolean(),
    auditVerdict: auditVerdict('audit_verdict').notNull(),
    auditRound: t.integer().notNull(),
    auditResultDigest: t.hex(),
  }),
  (table) => ({
    clientIndex: index().on(table.client, table.id),
    // A client's tasks in a status, newest first (the list a client's dashboard asks for most): one range of
    // this index, read backwards. Without it, and without statistics (PGlite never runs ANALYZE), the planner
    // ANDs the client and status indexes and sorts all of that client's open tasks: 76 ms a page through the
    // API at 100,000 tasks (pnpm bench:indexer), 204 ms against 0.07 ms for the query alone.
    clientStatusIndex: index().on(table.client, table.status, table.id),
    sourceIndex: index().on(table.sourceId, table.id),
    statusIndex: index().on(table.status, table.id),
    firstClaimIndex: index().on(table.firstClaimAt),
  }),
)

/**
 * One claim of a slot: a replica's seat or an auditor's. A slot reopened after
 * a no-show, or a seat taken by a better ticket, keeps its old claims.
 */
export const claim = onchainTable(
  'claim',
  (t) => ({
    /** The claim's event id (Ponder's, sortable in chain order). */
    id: t.text().primaryKey(),
    taskId: t.bigint().notNull(),
    slot: t.integer().notNull(),
    provider: t.hex().notNull(),
    role: claimRole('role').notNull(),
    auditRound: t.integer(),
    status: claimStatus('status').notNull(),
    claimedAt: t.int8({ mode: 'number' }).notNull(),
    claimedBlock: t.int8({ mode: 'number' }).notNull(),
    /** When the result or commitment is due (replicas; auditors' deadlines are the round's). */
    dueAt: t.int8({ mode: 'number' }),
    collateral: t.bigint().notNull(),
    /** The stake-weighted ticket (seat races and audits; lower wins). */
    score: t.bigint(),
    commitment: t.hex(),
    committedAt: t.int8({ mode: 'number' }),
    resultDigest: t.hex(),
    resultCid: t.text(),
    receiptCid: t.text(),
    runtimeSec: t.integer(),
    submittedAt: t.int8({ mode: 'number' }),
    failureKind: t.text(),
    failureExitCode: t.integer(),
    payment: t.bigint(),
    fee: t.bigint(),
    paidAt: t.int8({ mode: 'number' }),
    slashed: t.bigint(),
    slashedToClient: t.bigint(),
    outvoted: t.boolean(),
    endedAt: t.int8({ mode: 'number' }),
  }),
  (table) => ({
    taskIndex: index().on(table.taskId, table.slot),
    providerIndex: index().on(table.provider, table.taskId),
  }),
)

/** Which claim holds each slot of a task now (the events name slots, not claims). */
export const slot = onchainTable(
  'slot',
  (t) => ({
    taskId: t.bigint().notNull(),
    slot: t.integer().notNull(),
    claimId: t.text().notNull(),
  }),
  (table) => ({ pk: primaryKey({ columns: [table.taskId, table.slot] }) }),
)

/** One payment to a replica or an auditor (`ReplicaPaid`), with what it paid per GPU-second. */
export const payment = onchainTable(
  'payment',
  (t) => ({
    id: t.text().primaryKey(),
    taskId: t.bigint().notNull(),
    sourceId: t.integer().notNull(),
    provider: t.hex().notNull(),
    slot: t.integer().notNull(),
    payment: t.bigint().notNull(),
    fee: t.bigint().notNull(),
    runtimeSec: t.integer().notNull(),
    /** max(runtimeSec × max(minGpus, 1), 1). */
    gpuSeconds: t.int8({ mode: 'number' }).notNull(),
    /** floor(payment / gpuSeconds). */
    pricePerGpuSecond: t.bigint().notNull(),
    paidAt: t.int8({ mode: 'number' }).notNull(),
    block: t.int8({ mode: 'number' }).notNull(),
  }),
  (table) => ({ paidAtIndex: index().on(table.paidAt, table.sourceId) }),
)

/** One slash of a claimant's collateral (`ProviderSlashed`). */
export const slash = onchainTable(
  'slash',
  (t) => ({
    id: t.text().primaryKey(),
    taskId: t.bigint().notNull(),
    provider: t.hex().notNull(),
    slot: t.integer().notNull(),
    amount: t.bigint().notNull(),
    toClient: t.bigint().notNull(),
    outvoted: t.boolean().notNull(),
    slashedAt: t.int8({ mode: 'number' }).notNull(),
  }),
  (table) => ({ taskIndex: index().on(table.taskId), providerIndex: index().on(table.provider) }),
)

/** One audit round (`AuditRoundOpened`): of a held result, or of a dispute between replicas. */
export const auditRound = onchainTable(
  'audit_round',
  (t) => ({
    taskId: t.bigint().notNull(),
    round: t.integer().notNull(),
    firstSlot: t.integer().notNull(),
    auditors: t.integer().notNull(),
    joinDeadline: t.int8({ mode: 'number' }).notNull(),
    openedAt: t.int8({ mode: 'number' }).notNull(),
  }),
  (table) => ({ pk: primaryKey({ columns: [table.taskId, table.round] }) }),
)

export const provider = onchainTable(
  'provider',
  (t) => ({
    address: t.hex().primaryKey(),
    /** The registration's event id: sorts providers by registration. */
    registrationId: t.text().notNull(),
    registeredAt: t.int8({ mode: 'number' }).notNull(),
    registeredBlock: t.int8({ mode: 'number' }).notNull(),
    updatedAt: t.int8({ mode: 'number' }).notNull(),
    gpuCount: t.integer().notNull(),
    vramMiB: t.integer().notNull(),
    computeCapability: t.integer().notNull(),
    cpuCores: t.integer().notNull(),
    memoryMiB: t.integer().notNull(),
    profileCid: t.text().notNull(),
    /** The least it takes per GPU-second (`PriceFloorSet`), in base units; 0 until it publishes one. */
    priceFloor: t.bigint().notNull(),
    paused: t.boolean().notNull(),
    subscriptions: t.integer().notNull(),
    // The record, from the market's events.
    /** Replica slots claimed (seats taken in a race count once, even if replaced later). */
    claims: t.integer().notNull(),
    /** Audit slots joined. */
    audits: t.integer().notNull(),
    /** Paid slots whose result was an output. */
    completed: t.integer().notNull(),
    /**
     * The completions ProviderRegistry counts towards reputation gates: outputs of replica seats paid at least
     * `minRecordPayment` (auditors' pay and dust tasks do not vouch). The registry counts an audited result when
     * it comes in and takes it back if overturned; this counts it when it is released: the two agree once it is.
     */
    reputationCompleted: t.integer().notNull(),
    /** Paid slots whose result was a failure report. */
    failedRuns: t.integer().notNull(),
    /** Slashed for a no-show or a missed commitment or reveal. */
    failed: t.integer().notNull(),
    /** Slashed for a result that lost a vote or an audit. */
    outvoted: t.integer().notNull(),
    slashes: t.integer().notNull(),
    slashedAmount: t.bigint().notNull(),
    /** What it was paid, fees included, and the fees. Earnings are paid − fees. */
    paid: t.bigint().notNull(),
    fees: t.bigint().notNull(),
    runtimeSec: t.int8({ mode: 'number' }).notNull(),
    // Its leases (LeaseMarket): accepted, paid (fees included) and the fees, and penalties its collateral paid.
    leasesAccepted: t.integer().notNull(),
    leasePaid: t.bigint().notNull(),
    leaseFees: t.bigint().notNull(),
    leasePenalties: t.bigint().notNull(),
  }),
  (table) => ({ registrationIndex: index().on(table.registrationId) }),
)

/** A provider in a source's pool (`ProviderSubscribed` / `ProviderUnsubscribed`). */
export const subscription = onchainTable(
  'subscription',
  (t) => ({
    provider: t.hex().notNull(),
    sourceId: t.integer().notNull(),
    subscribed: t.boolean().notNull(),
    changedAt: t.int8({ mode: 'number' }).notNull(),
  }),
  (table) => ({
    pk: primaryKey({ columns: [table.provider, table.sourceId] }),
    sourceIndex: index().on(table.sourceId, table.subscribed),
  }),
)

/** The lease market's `LeaseStatus`, by name (the SDK's `leaseStatuses` without `None`). */
export const leaseStatus = onchainEnum('lease_status', ['Requested', 'Active', 'Settled'])

/** The lease market's `EndReason`, by name: the SDK's `leaseEndReasons`. */
export const leaseEndReason = onchainEnum('lease_end_reason', leaseEndReasons)

/**
 * A lease of the lease market, from its events alone (every term is in `LeaseRequested` and
 * `LeaseAccepted`). `Active` includes a lease past its `endsAt` that nobody settled yet, as on chain.
 */
export const lease = onchainTable(
  'lease',
  (t) => ({
    id: t.bigint().primaryKey(),
    renter: t.hex().notNull(),
    /** Null while requested. */
    provider: t.hex(),
    sourceId: t.integer().notNull(),
    ackSigner: t.hex().notNull(),
    status: leaseStatus('status').notNull(),
    /** Set when the end is fixed (a close, a notice, an unanswered report, an end for silence) or at settlement. */
    reason: leaseEndReason('reason').notNull(),
    // The request.
    maxPricePerSec: t.bigint().notNull(),
    durationSec: t.int8({ mode: 'number' }).notNull(),
    penaltySec: t.integer().notNull(),
    minUptimeBps: t.integer().notNull(),
    acceptBy: t.int8({ mode: 'number' }).notNull(),
    requestedAt: t.int8({ mode: 'number' }).notNull(),
    requestedBlock: t.int8({ mode: 'number' }).notNull(),
    requestedTx: t.hex().notNull(),
    // The acceptance.
    pricePerSec: t.bigint(),
    collateral: t.bigint(),
    startedAt: t.int8({ mode: 'number' }),
    /** The latest the lease runs (start + duration, extended, or a close's or notice's end); then its end. */
    endsAt: t.int8({ mode: 'number' }),
    // Its life.
    /** Escrow left: the deposit and top-ups less what was paid and refunded. */
    deposit: t.bigint().notNull(),
    toppedUp: t.bigint().notNull(),
    /** Seconds of service acknowledged and redeemed, and the `at` of the latest redemption. */
    servedSec: t.int8({ mode: 'number' }).notNull(),
    lastProofAt: t.int8({ mode: 'number' }),
    redemptions: t.integer().notNull(),
    /** Paid to the provider, fees included, and the protocol's fees of it. */
    paid: t.bigint().notNull(),
    fees: t.bigint().notNull(),
    /** A pending offline report: when, and until when the provider may answer it (null when none is pending). */
    reportedAt: t.int8({ mode: 'number' }),
    answerBy: t.int8({ mode: 'number' }),
    offlineReports: t.integer().notNull(),
    // Its end.
    endedAt: t.int8({ mode: 'number' }),
    settledAt: t.int8({ mode: 'number' }),
    settledBlock: t.int8({ mode: 'number' }),
    uptimeBps: t.integer(),
    /** Returned to the renter (at a close and at settlement), and the provider's collateral paid to it. */
    refunded: t.bigint().notNull(),
    penalty: t.bigint().notNull(),
  }),
  (table) => ({
    renterIndex: index().on(table.renter, table.id),
    providerIndex: index().on(table.provider, table.id),
    sourceIndex: index().on(table.sourceId, table.id),
    statusIndex: index().on(table.status, table.id),
  }),
)

/** An account's position in Staking, from its events. */
export const stake = onchainTable('stake', (t) => ({
  account: t.hex().primaryKey(),
  /** Staked, locked collateral included. */
  staked: t.bigint().notNull(),
  locked: t.bigint().notNull(),
  unbonding: t.bigint().notNull(),
  unbondingReadyAt: t.int8({ mode: 'number' }),
  withdrawn: t.bigint().notNull(),
  slashed: t.bigint().notNull(),
  rewardsClaimed: t.bigint().notNull(),
  updatedAt: t.int8({ mode: 'number' }).notNull(),
}))
