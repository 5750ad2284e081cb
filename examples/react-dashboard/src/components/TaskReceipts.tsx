import { useReceipt } from '@gridforge/react-hooks'
import { contentStore } from '../config'
import { ErrorAlert } from './ErrorAlert'
import { Panel } from './Panel'
import { ReceiptDetails } from './ReceiptDetails'

/**
 * The receipts of a settled task (one per replica that answered), each checked against the
 * chain. The first carries the page's test ids (`receipt-status`, `task-output-cid`, …).
 */
export function TaskReceipts({ taskId }: { taskId: bigint }) {
  const receipts = useReceipt({ taskId, store: contentStore })
  return (
    <Panel title="Receipts">
      <ErrorAlert error={receipts.error} />
      {receipts.isPending && !receipts.isError && <p className="muted">Reading and verifying receipts…</p>}
      {receipts.data?.map((result, index) => (
        <ReceiptDetails key={result.settlement.slot} result={result} primary={index === 0} />
      ))}
    </Panel>
  )
}
