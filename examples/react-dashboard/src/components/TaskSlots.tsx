import type { Slot } from '@gridforge/sdk'

/** Who claimed each replica slot (and each auditor's, after an audited result's) and where it stands. */
export function TaskSlots({ slots, replicas }: { slots: readonly Slot[]; replicas: number }) {
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
            <td>{slot.status}</td>
            <td>{slot.provider ? <code>{slot.provider}</code> : <span className="muted">–</span>}</td>
            <td>{slot.claimedAt?.toLocaleTimeString() ?? '–'}</td>
            <td>{slot.dueAt?.toLocaleTimeString() ?? '–'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}
