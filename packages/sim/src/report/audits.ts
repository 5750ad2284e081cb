/**
 * What the audits of held single-replica results did over a set of runs: how many results were held and how
 * many drawn, how long the draw took (blocks and seconds from submitResult to releaseResult), how long a drawn
 * audit took (seconds from the release that opened it to AuditResolved), the verdicts and the metered runtimes
 * the audits found overstated; and the disputes (the
 * replicas of a k > 1 task revealed different results) and their verdicts.
 */
import type { SimTask, Verdict } from '../market/engine.js'

export interface AuditSample {
  /** Held results released (their draw made). */
  held: number
  drawn: number
  drawBlocks: number[]
  drawSec: number[]
  auditSec: number[]
  verdicts: Partial<Record<Verdict, number>>
  /** joinAudit transactions that lost the ticket race. */
  lostRaces: number
  /** Upheld metered results billed above what the audit measured: fined (within the tolerance), bond slashed. */
  overstatedFined: number
  overstatedSlashed: number
  /** Disputes (k > 1 replicas that revealed different results) and their verdicts. */
  disputes: number
  disputeVerdicts: Partial<Record<Verdict, number>>
}

export function emptyAuditSample(): AuditSample {
  return {
    held: 0,
    drawn: 0,
    drawBlocks: [],
    drawSec: [],
    auditSec: [],
    verdicts: {},
    lostRaces: 0,
    overstatedFined: 0,
    overstatedSlashed: 0,
    disputes: 0,
    disputeVerdicts: {},
  }
}

/** Adds the audits of a run's tasks to `into`. */
export function addAudits(into: AuditSample, tasks: readonly SimTask[]): AuditSample {
  for (const task of tasks) {
    const audit = task.audit
    if (audit?.kind === 'dispute') {
      into.disputes++
      into.lostRaces += audit.lostRaces
      if (audit.verdict !== undefined) {
        into.disputeVerdicts[audit.verdict] = (into.disputeVerdicts[audit.verdict] ?? 0) + 1
      }
      continue
    }
    if (audit?.releasedAt === undefined || audit.releasedBlock === undefined) continue
    into.held++
    into.drawBlocks.push(Number(audit.releasedBlock - audit.submittedBlock))
    into.drawSec.push(audit.releasedAt - audit.submittedAt)
    into.lostRaces += audit.lostRaces
    if (audit.drawn === true) {
      into.drawn++
      if (audit.resolvedAt !== undefined) into.auditSec.push(audit.resolvedAt - audit.releasedAt)
    }
    if (audit.verdict !== undefined) into.verdicts[audit.verdict] = (into.verdicts[audit.verdict] ?? 0) + 1
    if (audit.overstated?.bond === true) into.overstatedSlashed++
    else if (audit.overstated !== undefined) into.overstatedFined++
  }
  return into
}

const mean = (values: readonly number[]) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length)
const max = (values: readonly number[]) => values.reduce((a, b) => Math.max(a, b), 0)
function median(values: readonly number[]) {
  const sorted = [...values].sort((a, b) => a - b)
  if (sorted.length === 0) return 0
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2
}
const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits

/** The figures written to `measures.audits` of the results file. */
export function auditMeasures(sample: AuditSample): Record<string, number> {
  const verdict = (name: Verdict) => sample.verdicts[name] ?? 0
  const dispute = (name: Verdict) => sample.disputeVerdicts[name] ?? 0
  return {
    held_results: sample.held,
    audited: sample.drawn,
    audit_rate: round(sample.drawn / Math.max(1, sample.held), 4),
    draw_latency_blocks_mean: round(mean(sample.drawBlocks), 2),
    draw_latency_blocks_max: max(sample.drawBlocks),
    draw_latency_sec_mean: round(mean(sample.drawSec)),
    draw_latency_sec_max: max(sample.drawSec),
    audit_latency_sec_mean: round(mean(sample.auditSec)),
    audit_latency_sec_median: round(median(sample.auditSec)),
    audit_latency_sec_max: max(sample.auditSec),
    verdict_not_drawn: verdict('NotDrawn'),
    verdict_upheld: verdict('Upheld'),
    verdict_overturned: verdict('Overturned'),
    verdict_unresolved: verdict('Unresolved'),
    verdict_lapsed: verdict('Lapsed'),
    lost_ticket_races: sample.lostRaces,
    runtime_overstated_fined: sample.overstatedFined,
    runtime_overstated_slashed: sample.overstatedSlashed,
    disputes: sample.disputes,
    dispute_upheld: dispute('Upheld'),
    dispute_overturned: dispute('Overturned'),
    dispute_unresolved: dispute('Unresolved'),
    dispute_lapsed: dispute('Lapsed'),
  }
}

/** The audits in a few lines for the terminal. */
export function auditLines(measures: Readonly<Record<string, number>>, runs: number): string[] {
  const m = (name: string) => measures[name] ?? 0
  return [
    `audits (${runs} runs): ${m('audited')} of ${m('held_results')} held results drawn (${(m('audit_rate') * 100).toFixed(1)}%)`,
    `  draw latency (submitResult → releaseResult): ${m('draw_latency_blocks_mean')} blocks, ${m('draw_latency_sec_mean')} s on average (at most ${m('draw_latency_blocks_max')} blocks, ${m('draw_latency_sec_max')} s)`,
    `  audit latency (release → AuditResolved): ${m('audit_latency_sec_mean')} s on average, median ${m('audit_latency_sec_median')} s, at most ${m('audit_latency_sec_max')} s`,
    `  verdicts: ${m('verdict_not_drawn')} not drawn, ${m('verdict_upheld')} upheld, ${m('verdict_overturned')} overturned, ${m('verdict_unresolved')} unresolved, ${m('verdict_lapsed')} lapsed; ${m('lost_ticket_races')} joins lost the ticket race`,
    `  metered runtime billed above the audit's measure: ${m('runtime_overstated_fined')} fined (within the tolerance), ${m('runtime_overstated_slashed')} bond slashed (beyond it)`,
    `  disputes (k > 1 replicas that disagreed, audited): ${m('disputes')}: ${m('dispute_upheld')} upheld a replica's result, ${m('dispute_overturned')} overturned them all, ${m('dispute_unresolved')} unresolved, ${m('dispute_lapsed')} lapsed`,
  ]
}
