import type { TaskAudit as Audit, AuditVerdict, TaskStatus } from '@gridforge/sdk'

/** What each verdict means for the task, in a few words. */
const meaning: Record<AuditVerdict, string> = {
  none: 'not drawn yet',
  'not-drawn': 'the draw passed it: paid without an audit',
  pending: 'auditors are re-running it',
  upheld: 'the auditors reproduced it: paid',
  overturned: 'the auditors found another result: provider slashed, escrow refunded',
  unresolved: 'the auditors agreed on no result: escrow refunded',
  lapsed: 'nobody joined the audit in time: paid unaudited',
}

/** What each verdict means for a dispute (replicas whose results differ), in a few words. */
const disputeMeaning: Record<AuditVerdict, string> = {
  ...meaning,
  pending: "the replicas' results differ: auditors are re-running it",
  upheld: "the auditors confirmed a replica's result: its replicas paid, the others slashed",
  overturned: 'the auditors found a result no replica revealed: replicas slashed, escrow refunded',
  lapsed: 'nobody joined the audit in time: a strict majority, if any, paid, nobody slashed',
}

/**
 * The audit rows of an auditable task (one replica of a deterministic source), or of the dispute of
 * replicas whose results differ, inside the task's facts: its chance (an audit), its verdict as a
 * badge, and for a running audit the round and its deadlines.
 */
export function TaskAudit({
  auditBps,
  audit,
  status,
  replicas,
}: {
  auditBps: number
  audit: Audit | undefined
  status: TaskStatus
  replicas: number
}) {
  const verdict = audit?.verdict ?? 'none'
  const dispute = replicas > 1
  return (
    <>
      <dt>{dispute ? 'Dispute' : 'Audit'}</dt>
      <dd data-testid="task-audit">
        <span className={`badge badge-audit-${verdict}`} data-testid="task-audit-verdict">
          {verdict}
        </span>{' '}
        <span className="muted">
          {dispute ? '' : `${auditBps / 100}% chance · `}
          {status === 'Held'
            ? 'held for the draw (anyone may release it)'
            : (dispute ? disputeMeaning : meaning)[verdict]}
        </span>
      </dd>
      {audit !== undefined && verdict === 'pending' && (
        <>
          <dt>{dispute ? 'Dispute round' : 'Audit round'}</dt>
          <dd data-testid="task-audit-round">
            {audit.round} · {audit.auditors} auditor{audit.auditors === 1 ? '' : 's'}
            {audit.joinDeadline && <> · join until {audit.joinDeadline.toLocaleTimeString()}</>}
            {audit.commitDeadline && <> · commitments due {audit.commitDeadline.toLocaleTimeString()}</>}
          </dd>
        </>
      )}
    </>
  )
}
