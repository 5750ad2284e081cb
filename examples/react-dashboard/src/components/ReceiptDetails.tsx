import type { ReceiptResult } from '@gridforge/sdk'
import { formatGrid } from '../amount'
import { ProviderLink } from './ProviderLink'
import { ReceiptMismatches } from './ReceiptMismatches'
import { TaskLogs } from './TaskLogs'
import { TaskOutput } from './TaskOutput'

interface ReceiptDetailsProps {
  result: ReceiptResult
  /** Whether this receipt carries the page's test ids (the first one does). */
  primary: boolean
}

/** One replica's receipt: verified or not, who ran it, what it was paid, its output and logs. */
export function ReceiptDetails({ result, primary }: ReceiptDetailsProps) {
  const { settlement, receipt } = result
  const testId = (name: string) => (primary ? name : undefined)
  return (
    <article className="receipt">
      <h3>
        Slot {settlement.slot}{' '}
        <span className={`badge badge-${result.status}`} data-testid={testId('receipt-status')}>
          {result.status}
        </span>
      </h3>
      {result.status === 'mismatch' && <ReceiptMismatches mismatches={result.mismatches} />}
      <dl className="facts">
        <dt>Provider</dt>
        <dd>
          <ProviderLink provider={settlement.provider} testId={testId('receipt-provider')} />
        </dd>
        <dt>Payment</dt>
        <dd>
          <span data-testid={testId('receipt-payment')}>{formatGrid(settlement.payment)}</span>
          <span className="muted">
            {settlement.paid ? ` · fee ${formatGrid(settlement.fee)}` : ' · not paid'}
          </span>
        </dd>
        <dt>Runtime</dt>
        <dd>{settlement.runtimeSec} s</dd>
        {receipt && (
          <>
            <dt>Exit code</dt>
            <dd>{receipt.exitCode}</dd>
            <dt>Hardware</dt>
            <dd>
              {receipt.hardware.cpuCores} CPU cores, {Math.round(receipt.hardware.memoryMiB / 1024)} GiB
              {receipt.hardware.gpus.map((gpu) => `, ${gpu.name}`).join('')}
            </dd>
          </>
        )}
        <dt>Output</dt>
        <dd>
          <code data-testid={testId('task-output-cid')}>{settlement.resultCID}</code>
        </dd>
        <dt>Receipt</dt>
        <dd>
          <code>{settlement.receiptCID}</code>
        </dd>
        <dt>Settled in</dt>
        <dd>
          block {String(settlement.blockNumber)} <code className="muted">{settlement.hash}</code>
        </dd>
      </dl>
      <TaskOutput cid={settlement.resultCID} />
      {receipt && <TaskLogs cid={receipt.logsCID} testId={testId('task-logs')} />}
    </article>
  )
}
