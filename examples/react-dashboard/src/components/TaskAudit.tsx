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

/**
 * The audit rows of an auditable task (one replica of a deterministic source), inside the task's
 * facts: its chance, its verdict as a badge, and for a running audit the round and its deadlines.
 */
export function TaskAudit({
  auditBps,
  audit,
  status,
}: {
  auditBps: number
  audit: Audit | undefined
  status: TaskStatus
}) {
  const verdict = audit?.verdict ?? 'none'
  return (
    <>
      <dt>Audit</dt>
      <dd data-testid="task-audit">
        <span className={`badge badge-audit-${verdict}`} data-testid="task-audit-verdict">
          {verdict}
        </span>{' '}
        <span className="muted">
          {auditBps / 100}% chance ·{' '}
          {status === 'Held' ? 'held for the draw (anyone may release it)' : meaning[verdict]}
        </span>
      </dd>
      {audit !== undefined && verdict === 'pending' && (
        <>
          <dt>Audit round</dt>
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
