import { type Address, isAddressEqual, recoverTypedDataAddress } from 'viem'
import { checkReceipt, issuePath, type Receipt } from './schema.js'
import { receiptTypedData } from './typedData.js'

/** One thing in a receipt that is not what it should be. */
export interface ReceiptMismatch {
  /**
   * The document's field (`outputCID`, `hardware.gpus.0.vramMiB`, `signature`),
   * `(document)` when the document as a whole is unreadable, or `(audit)` when
   * the task's audit overturned the result (`getReceipt`).
   */
  field: string
  /** What it should be: the chain's value, or the rule it breaks. */
  expected: string
  /** What the document has (`(missing)` when absent). */
  actual: string
}

export type VerifyReceiptParameters = {
  /** The receipt: a parsed JSON value, a JSON string, or its UTF-8 bytes. */
  document: unknown
}

export type VerifyReceiptReturnType = {
  /** True when the document is a well-formed receipt, signed by its `provider`, with consistent times. */
  valid: boolean
  /** Who signed it; `undefined` when the document is malformed or the signature unrecoverable. */
  signer: Address | undefined
  /** The parsed receipt; `undefined` when the document does not match the schema. */
  receipt: Receipt | undefined
  /**
   * The receipt describes a failed run (its `exitCode` is not 0): still
   * `valid` when well signed, a failure being a result like an output; its
   * `outputCID` is then the run's logs. `getReceipt` gives the failure the
   * chain records (`settlement.failure`), a run over its time or output cap
   * included.
   */
  failed: boolean
  /** Every problem found, empty when `valid`. */
  mismatches: ReceiptMismatch[]
}

export type VerifyReceiptErrorType = never

/**
 * Checks a receipt document on its own, without the chain: it is JSON that
 * matches the receipt schema (unknown fields are mismatches), its EIP-712
 * signature recovers to its `provider`, `finishedAt ≥ startedAt` and
 * `runtimeSec ≤ finishedAt − startedAt`. It never throws on a bad document:
 * every problem is a mismatch. A receipt of a failed run (non-zero
 * `exitCode`) is valid too, and says so (`failed`). Use `getReceipt` to also
 * compare it with the task's settlement on chain.
 *
 * @example
 * import { verifyReceipt } from '@gridforge/sdk'
 *
 * const { valid, failed, mismatches } = await verifyReceipt({ document: await readFile('receipt.json') })
 * if (valid && failed) console.log('a well-signed receipt of a failed run: its outputCID holds the logs')
 * if (!valid) for (const { field, expected, actual } of mismatches) console.log(field, expected, actual)
 */
export async function verifyReceipt({ document }: VerifyReceiptParameters): Promise<VerifyReceiptReturnType> {
  const decoded = decodeDocument(document)
  if ('error' in decoded) {
    return {
      valid: false,
      signer: undefined,
      receipt: undefined,
      failed: false,
      mismatches: [{ field: '(document)', expected: 'a JSON receipt', actual: decoded.error }],
    }
  }
  const checked = checkReceipt(decoded.value)
  if ('issues' in checked) {
    return {
      valid: false,
      signer: undefined,
      receipt: undefined,
      failed: false,
      mismatches: checked.issues.map((issue) => ({
        field: issuePath(issue.path),
        expected: issue.unknown ? '(absent: receipts have no such field)' : issue.message,
        actual: show(valueAt(decoded.value, issue.path)),
      })),
    }
  }
  const { receipt } = checked
  const mismatches: ReceiptMismatch[] = []

  let signer: Address | undefined
  try {
    signer = await recoverTypedDataAddress({ ...receiptTypedData(receipt), signature: receipt.signature })
  } catch {
    signer = undefined
  }
  if (signer === undefined) {
    mismatches.push({
      field: 'signature',
      expected: `signed by ${receipt.provider}`,
      actual: '(unrecoverable)',
    })
  } else if (!isAddressEqual(signer, receipt.provider)) {
    mismatches.push({
      field: 'signature',
      expected: `signed by ${receipt.provider}`,
      actual: `signed by ${signer}`,
    })
  }

  if (receipt.finishedAt < receipt.startedAt) {
    mismatches.push({
      field: 'finishedAt',
      expected: `≥ ${receipt.startedAt} (startedAt)`,
      actual: String(receipt.finishedAt),
    })
  } else if (receipt.runtimeSec > receipt.finishedAt - receipt.startedAt) {
    mismatches.push({
      field: 'runtimeSec',
      expected: `≤ ${receipt.finishedAt - receipt.startedAt} (finishedAt − startedAt)`,
      actual: String(receipt.runtimeSec),
    })
  }
  return { valid: mismatches.length === 0, signer, receipt, failed: receipt.exitCode !== 0, mismatches }
}

/** Receipts are about 1 kB; documents passed as text or bytes larger than this are refused unparsed. */
const maxDocumentBytes = 1 << 20

function decodeDocument(document: unknown): { value: unknown } | { error: string } {
  let text: string
  if (document instanceof Uint8Array) {
    if (document.length > maxDocumentBytes) return { error: `${document.length} bytes, more than 1 MiB` }
    try {
      text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(document)
    } catch {
      return { error: 'bytes that are not UTF-8' }
    }
  } else if (typeof document === 'string') {
    text = document
  } else {
    return { value: document }
  }
  if (text.length > maxDocumentBytes) return { error: `${text.length} characters, more than 1 MiB` }
  try {
    return { value: JSON.parse(text) as unknown }
  } catch (error) {
    return { error: `malformed JSON (${(error as Error).message})` }
  }
}

function valueAt(value: unknown, path: readonly (string | number)[]): unknown {
  let current = value
  for (const key of path) {
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, key)) return undefined
    current = (current as Record<string | number, unknown>)[key]
  }
  return current
}

/** A value as shown in a mismatch, shortened: documents are untrusted. @internal */
export function show(value: unknown): string {
  if (value === undefined) return '(missing)'
  let text: string
  try {
    text =
      typeof value === 'string'
        ? value
        : (JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? `${v}` : v)) ?? String(value))
  } catch {
    text = String(value)
  }
  return text.length > 120 ? `${text.slice(0, 120)}…` : text
}
