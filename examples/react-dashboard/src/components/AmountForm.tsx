import { type FormEvent, useId, useState } from 'react'
import { ErrorAlert } from './ErrorAlert'

interface AmountFormProps {
  label: string
  /** The button's text. */
  action: string
  inputTestId: string
  submitTestId: string
  /** Sends the amount as typed (the SDK parses and validates it); the field is cleared once it resolves. */
  onSubmit: (amount: string) => Promise<unknown>
  pending: boolean
  error: unknown
  disabled?: boolean | undefined
}

/** A GRID amount field and its button (deposit, withdraw, stake, unbond), with the write's error under it. */
export function AmountForm(props: AmountFormProps) {
  const { label, action, inputTestId, submitTestId, onSubmit, pending, error, disabled = false } = props
  const [amount, setAmount] = useState('')
  const id = useId()

  const submit = (event: FormEvent) => {
    event.preventDefault()
    // A failure is shown from `error`, which the mutation keeps.
    onSubmit(amount).then(
      () => setAmount(''),
      () => {},
    )
  }

  return (
    <form className="amount-form" onSubmit={submit}>
      <label htmlFor={id}>{label}</label>
      <div className="inline">
        <input
          id={id}
          data-testid={inputTestId}
          inputMode="decimal"
          placeholder="0.0"
          autoComplete="off"
          value={amount}
          onChange={(event) => setAmount(event.target.value)}
        />
        <span className="unit">GRID</span>
        <button
          type="submit"
          data-testid={submitTestId}
          disabled={disabled || pending || amount.trim() === ''}
        >
          {pending ? `${action}…` : action}
        </button>
      </div>
      <ErrorAlert error={error} />
    </form>
  )
}
