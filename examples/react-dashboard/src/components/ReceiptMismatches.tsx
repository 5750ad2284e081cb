import type { ReceiptMismatch } from '@gridforge/sdk'

/** Each field where the receipt and the chain disagree, with both values. */
export function ReceiptMismatches({ mismatches }: { mismatches: readonly ReceiptMismatch[] }) {
  return (
    <ul className="mismatches" data-testid="receipt-mismatches">
      {mismatches.map((mismatch) => (
        <li key={mismatch.field}>
          <code>{mismatch.field}</code>: the chain has <code>{mismatch.expected}</code>, the receipt{' '}
          <code>{mismatch.actual}</code>
        </li>
      ))}
    </ul>
  )
}
