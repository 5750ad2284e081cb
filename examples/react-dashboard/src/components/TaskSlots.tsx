import type { Slot } from '@gridforge/sdk'
import { ProviderLink } from './ProviderLink'

/**
 * Who claimed each replica slot (and each auditor's, after the replicas' of an audited result or a
 * dispute) and where it stands. A seat still raced for (replicas: its start is to come, by this
 * computer's clock) says when it is final: until then a better ticket may take it.
 */
export function TaskSlots({ slots, replicas }: { slots: readonly Slot[]; replicas: number }) {
  const now = new Date()
  return (
    <table className="slots">
      <thead>
        <tr>
          <th>Slot</th>
          <th>Status</th>
          <th>Provider</th>
          <th>Claimed</th>
          <th>Due</th>
        </tr>
      </thead>
      <tbody>
        {slots.map((slot) => (
          <tr key={slot.index} data-testid={`task-slot-${slot.index}`}>
            <td>
              {slot.index}
              {slot.index >= replicas && <span className="muted"> · auditor</span>}
            </td>
            <td>
              {slot.status}
              {slot.status === 'Claimed' && slot.claimedAt !== undefined && slot.claimedAt > now && (
                <span className="muted"> · raced, final at {slot.claimedAt.toLocaleTimeString()}</span>
              )}
            </td>
            <td>
              {slot.provider ? <ProviderLink provider={slot.provider} /> : <span className="muted">–</span>}
            </td>
            <td>{slot.claimedAt?.toLocaleTimeString() ?? '–'}</td>
            <td>{slot.dueAt?.toLocaleTimeString() ?? '–'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}
