/**
 * How the API writes what the tables keep: amounts as decimal strings of base
 * units (wei), times as `{ unix, iso }`, addresses checksummed, and the
 * task, claim, provider and source objects the routes answer with. Each shape
 * here has its JSON Schema in schemas.ts.
 */
import type * as schema from 'ponder:schema'
import { getAddress, type Hex } from 'viem'

type TaskRow = typeof schema.task.$inferSelect
type ClaimRow = typeof schema.claim.$inferSelect
type ProviderRow = typeof schema.provider.$inferSelect
type SourceRow = typeof schema.source.$inferSelect
type StakeRow = typeof schema.stake.$inferSelect
type PaymentRow = typeof schema.payment.$inferSelect
type SlashRow = typeof schema.slash.$inferSelect
type AuditRoundRow = typeof schema.auditRound.$inferSelect
type LeaseRow = typeof schema.lease.$inferSelect

/** A moment, as unix seconds and as an ISO 8601 string (UTC). */
export interface Time {
  unix: number
  iso: string
}

export function time(unix: number): Time {
  return { unix, iso: new Date(unix * 1000).toISOString() }
}

export function timeOrNull(unix: number | null): Time | null {
  return unix === null ? null : time(unix)
}

/** An amount of base units as a decimal string. */
export function amount(value: bigint): string {
  return value.toString()
}

export function address(value: Hex): Hex {
  return getAddress(value)
}

/** The SDK's `auditVerdicts`, by the contract's name. */
const verdicts = {
  None: 'none',
  NotDrawn: 'not-drawn',
  Pending: 'pending',
  Upheld: 'upheld',
  Overturned: 'overturned',
  Unresolved: 'unresolved',
  Lapsed: 'lapsed',
} as const

/** A failure report (the SDK's `Failure`), or null for an output. */
function failure(row: { failureKind: string | null; failureExitCode: number | null }) {
  if (row.failureKind === null) return null
  return row.failureKind === 'exited'
    ? { kind: row.failureKind, exitCode: row.failureExitCode ?? 0 }
    : { kind: row.failureKind }
}

/** A task as lists show it. */
export function taskSummary(row: TaskRow) {
  return {
    id: row.id.toString(),
    client: address(row.client),
    sourceId: row.sourceId,
    status: row.status,
    inputCid: row.inputCid,
    replicas: row.replicas,
    maxPayment: amount(row.maxPayment),
    pricePerSecond: amount(row.pricePerSecond),
    deadline: time(row.deadline),
    submittedAt: time(row.submittedAt),
    firstClaimAt: timeOrNull(row.firstClaimAt),
    finalizedAt: timeOrNull(row.finalizedAt),
    resultCid: row.resultCid,
    receiptCid: row.receiptCid,
    failure: failure(row),
    paid: amount(row.paid),
    refund: amount(row.refund),
  }
}

/** A task with its terms, slots, settlement and audit. */
export function taskDetail(
  row: TaskRow,
  related: { claims: ClaimRow[]; payments: PaymentRow[]; slashes: SlashRow[]; rounds: AuditRoundRow[] },
) {
  return {
    ...taskSummary(row),
    resultKey: row.resultKey,
    escrow: amount(row.escrow),
    submittedBlock: row.submittedBlock,
    submittedTx: row.submittedTx,
    terms: {
      feeBps: row.feeBps,
      creatorFeeBps: row.creatorFeeBps,
      discountBps: row.discountBps,
      collateral: amount(row.collateral),
      requirements: {
        minGpus: row.minGpus,
        minVramMiB: row.minVramMiB,
        minComputeCapability: row.minComputeCapability,
        maxRuntimeSec: row.maxRuntimeSec,
        deterministic: row.deterministic,
      },
      minSuccessBps: row.minSuccessBps,
      minCompleted: row.minCompleted,
      auditBps: row.auditBps,
    },
    result:
      row.resultDigest === null
        ? null
        : {
            digest: row.resultDigest,
            resultCid: row.resultCid,
            receiptCid: row.receiptCid,
            runtimeSec: row.runtimeSec,
            failure: failure(row),
          },
    revealDeadline: timeOrNull(row.revealDeadline),
    slots: related.claims.map(claimJson),
    settlement: {
      finalized: row.finalizedAt !== null,
      paid: amount(row.paid),
      refund: amount(row.refund),
      fees: amount(row.fees),
      slashed: amount(row.slashed),
      payments: related.payments.map((payment) => ({
        provider: address(payment.provider),
        slot: payment.slot,
        payment: amount(payment.payment),
        fee: amount(payment.fee),
        runtimeSec: payment.runtimeSec,
        paidAt: time(payment.paidAt),
      })),
      slashes: related.slashes.map((slash) => ({
        provider: address(slash.provider),
        slot: slash.slot,
        amount: amount(slash.amount),
        toClient: amount(slash.toClient),
        outvoted: slash.outvoted,
        slashedAt: time(slash.slashedAt),
      })),
    },
    audit: {
      auditBps: row.auditBps,
      drawn: row.auditDrawn,
      verdict: verdicts[row.auditVerdict],
      round: row.auditRound,
      resultDigest: row.auditResultDigest,
      rounds: related.rounds.map((round) => ({
        round: round.round,
        firstSlot: round.firstSlot,
        auditors: round.auditors,
        joinDeadline: time(round.joinDeadline),
        openedAt: time(round.openedAt),
      })),
    },
  }
}

/** One claim of a slot. */
function claimJson(row: ClaimRow) {
  return {
    slot: row.slot,
    role: row.role,
    auditRound: row.auditRound,
    provider: address(row.provider),
    status: row.status,
    claimedAt: time(row.claimedAt),
    dueAt: timeOrNull(row.dueAt),
    collateral: amount(row.collateral),
    commitment: row.commitment,
    committedAt: timeOrNull(row.committedAt),
    resultDigest: row.resultDigest,
    resultCid: row.resultCid,
    receiptCid: row.receiptCid,
    runtimeSec: row.runtimeSec,
    submittedAt: timeOrNull(row.submittedAt),
    failure: failure(row),
    payment: row.payment === null ? null : amount(row.payment),
    fee: row.fee === null ? null : amount(row.fee),
    slashed: row.slashed === null ? null : amount(row.slashed),
    outvoted: row.outvoted,
    endedAt: timeOrNull(row.endedAt),
  }
}

/** A provider with its capabilities, record and earnings. */
export function providerJson(row: ProviderRow, stake: StakeRow | null) {
  return {
    address: address(row.address),
    registeredAt: time(row.registeredAt),
    updatedAt: time(row.updatedAt),
    paused: row.paused,
    capabilities: {
      gpuCount: row.gpuCount,
      vramMiB: row.vramMiB,
      computeCapability: row.computeCapability,
      cpuCores: row.cpuCores,
      memoryMiB: row.memoryMiB,
    },
    profileCid: row.profileCid,
    priceFloor: amount(row.priceFloor),
    subscriptions: row.subscriptions,
    tasksRun: row.completed + row.failedRuns + row.outvoted,
    record: {
      claims: row.claims,
      audits: row.audits,
      completed: row.completed,
      failedRuns: row.failedRuns,
      failed: row.failed,
      outvoted: row.outvoted,
      slashes: row.slashes,
      slashedAmount: amount(row.slashedAmount),
    },
    reputation: reputationJson(row),
    earnings: {
      paid: amount(row.paid),
      fees: amount(row.fees),
      earned: amount(row.paid - row.fees),
      runtimeSec: row.runtimeSec,
    },
    leases: {
      accepted: row.leasesAccepted,
      paid: amount(row.leasePaid),
      fees: amount(row.leaseFees),
      earned: amount(row.leasePaid - row.leaseFees),
      penalties: amount(row.leasePenalties),
    },
    stake: {
      staked: amount(stake?.staked ?? 0n),
      locked: amount(stake?.locked ?? 0n),
      unbonding: amount(stake?.unbonding ?? 0n),
      unbondingReadyAt: timeOrNull(stake?.unbondingReadyAt ?? null),
      withdrawn: amount(stake?.withdrawn ?? 0n),
      slashed: amount(stake?.slashed ?? 0n),
    },
  }
}

/**
 * The record ProviderRegistry checks a gated task's claim against: completions that vouch (paid at least
 * `minRecordPayment`), and the success rate over finished slots (0 without any: no record is not a perfect one).
 */
export function reputationJson(row: Pick<ProviderRow, 'reputationCompleted' | 'failed' | 'outvoted'>) {
  const finished = row.reputationCompleted + row.failed + row.outvoted
  return {
    completed: row.reputationCompleted,
    failed: row.failed,
    outvoted: row.outvoted,
    successBps: finished === 0 ? 0 : Math.floor((row.reputationCompleted * 10_000) / finished),
  }
}

/** A source with its usage. */
export function sourceJson(row: SourceRow) {
  return {
    id: row.id,
    owner: address(row.owner),
    predecessor: row.predecessor,
    imageDigest: row.imageDigest,
    metadataCid: row.metadataCid,
    requirements: {
      minGpus: row.minGpus,
      minVramMiB: row.minVramMiB,
      minComputeCapability: row.minComputeCapability,
      maxRuntimeSec: row.maxRuntimeSec,
      deterministic: row.deterministic,
    },
    creatorFeeBps: row.creatorFeeBps,
    failureFeeBps: row.failureFeeBps,
    validator: row.validator,
    active: row.active,
    publishedAt: time(row.publishedAt),
    usage: {
      tasks: row.tasks,
      paid: amount(row.paid),
      subscribers: row.subscribers,
      creatorFees: amount(row.creatorFees),
      creatorFeesClaimed: amount(row.creatorFeesClaimed),
    },
  }
}

/** A lease: its request, its acceptance, what it served and paid, and its end. */
export function leaseJson(row: LeaseRow) {
  return {
    id: row.id.toString(),
    renter: address(row.renter),
    provider: row.provider === null ? null : address(row.provider),
    sourceId: row.sourceId,
    ackSigner: address(row.ackSigner),
    status: row.status,
    reason: row.reason,
    maxPricePerSec: amount(row.maxPricePerSec),
    durationSec: row.durationSec,
    penaltySec: row.penaltySec,
    minUptimeBps: row.minUptimeBps,
    acceptBy: time(row.acceptBy),
    requestedAt: time(row.requestedAt),
    requestedBlock: row.requestedBlock,
    requestedTx: row.requestedTx,
    pricePerSec: row.pricePerSec === null ? null : amount(row.pricePerSec),
    collateral: row.collateral === null ? null : amount(row.collateral),
    startedAt: timeOrNull(row.startedAt),
    endsAt: timeOrNull(row.endsAt),
    deposit: amount(row.deposit),
    toppedUp: amount(row.toppedUp),
    servedSec: row.servedSec,
    lastProofAt: timeOrNull(row.lastProofAt),
    redemptions: row.redemptions,
    paid: amount(row.paid),
    fees: amount(row.fees),
    offlineReport:
      row.reportedAt === null || row.answerBy === null
        ? null
        : { reportedAt: time(row.reportedAt), answerBy: time(row.answerBy) },
    offlineReports: row.offlineReports,
    endedAt: timeOrNull(row.endedAt),
    settledAt: timeOrNull(row.settledAt),
    settledBlock: row.settledBlock,
    uptimeBps: row.uptimeBps,
    refunded: amount(row.refunded),
    penalty: amount(row.penalty),
  }
}
