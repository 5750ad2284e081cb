import { useDeposit, useSource, useSubmitTask, useWalletBalance } from '@gridforge/react-hooks'
import type { Duration } from '@gridforge/sdk'
import { type FormEvent, useId, useState } from 'react'
import { useConnection } from 'wagmi'
import { formatGrid, tokenAmount } from '../amount'
import { describeEscrowPlan, escrowPlan } from '../escrow'
import { taskHref } from '../route'
import { ErrorAlert } from './ErrorAlert'
import { InputFileField } from './InputFileField'
import { Panel } from './Panel'
import { SourceSelect } from './SourceSelect'
import { TaskQuote } from './TaskQuote'

/**
 * Submits a task: a source, an input file (uploaded to the content store first), the most paid
 * to each replica, the number of replicas and the deadline. The escrow (replicas × max payment)
 * comes from the market balance: the form says beforehand where it will come from, and when the
 * balance falls short but the account holds the rest, deposits it in the same step. While the terms
 * are filled in, a quote says who could take the task now at that price, and if nobody could, why.
 */
export function SubmitTaskForm() {
  const { isConnected } = useConnection()
  const submitTask = useSubmitTask()
  const deposit = useDeposit()
  const wallet = useWalletBalance()
  const [sourceId, setSourceId] = useState('')
  const [input, setInput] = useState<string | undefined>()
  const [maxPayment, setMaxPayment] = useState('1')
  const [replicas, setReplicas] = useState('1')
  const [deadline, setDeadline] = useState('1h')
  const id = useId()
  const source = useSource({ sourceId: sourceId === '' ? undefined : Number(sourceId) })
  const plan = escrowPlan({
    maxPayment,
    replicas,
    deterministic: source.data?.requirements.deterministic,
    wallet: wallet.data,
  })
  const pending = deposit.isPending || submitTask.isPending

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (input === undefined) return
    deposit.reset()
    submitTask.reset()
    // The shortfall first, in this same step: a new user need not find the wallet panel.
    if (plan?.kind === 'deposit') {
      const deposited = await deposit
        .mutateAsync({ amount: plan.shortfall, approve: true })
        .catch(() => undefined)
      if (deposited === undefined) return // its error is shown below
    }
    // Values go to the SDK as typed: it validates them and names each bad field in its error.
    submitTask.mutate({
      sourceId: Number(sourceId),
      input,
      maxPayment: tokenAmount(maxPayment),
      replicas: replicas.trim() === '' ? undefined : Number(replicas),
      deadline: deadline.trim() === '' ? undefined : (deadline.trim() as Duration),
    })
  }

  return (
    <Panel title="Submit a task">
      <form className="submit-form" onSubmit={submit}>
        <label htmlFor={`${id}-source`}>Source</label>
        <SourceSelect id={`${id}-source`} value={sourceId} onChange={setSourceId} />

        <label htmlFor={`${id}-input`}>Input file</label>
        <div>
          <InputFileField id={`${id}-input`} onUploaded={setInput} />
        </div>

        <label htmlFor={`${id}-max-payment`}>Max payment</label>
        <div className="inline">
          <input
            id={`${id}-max-payment`}
            data-testid="submit-max-payment"
            inputMode="decimal"
            autoComplete="off"
            value={maxPayment}
            onChange={(event) => setMaxPayment(event.target.value)}
          />
          <span className="unit">GRID per replica</span>
        </div>

        <label htmlFor={`${id}-replicas`}>Replicas</label>
        <input
          id={`${id}-replicas`}
          data-testid="submit-replicas"
          type="number"
          min={1}
          max={7}
          value={replicas}
          onChange={(event) => setReplicas(event.target.value)}
        />

        <label htmlFor={`${id}-deadline`}>Deadline</label>
        <input
          id={`${id}-deadline`}
          data-testid="submit-deadline"
          placeholder="1h, 30m, 2d"
          autoComplete="off"
          value={deadline}
          onChange={(event) => setDeadline(event.target.value)}
        />

        <TaskQuote
          terms={{
            sourceId: sourceId === '' ? undefined : Number(sourceId),
            maxPayment,
            replicas: /^[1-9]$/.test(replicas.trim()) ? Number(replicas) : undefined,
          }}
        />

        {isConnected && plan !== undefined && (
          <p className={plan.kind === 'short' ? 'alert' : 'muted'} data-testid="submit-escrow">
            {describeEscrowPlan(plan, wallet.data?.balance ?? 0n)}
          </p>
        )}

        <div className="form-actions">
          <button
            type="submit"
            data-testid="submit-task"
            disabled={
              !isConnected || sourceId === '' || input === undefined || pending || plan?.kind === 'short'
            }
          >
            {deposit.isPending
              ? 'Depositing…'
              : submitTask.isPending
                ? 'Submitting…'
                : plan?.kind === 'deposit'
                  ? `Deposit ${formatGrid(plan.shortfall)} and submit`
                  : 'Submit task'}
          </button>
          {!isConnected && <span className="muted">Connect an account to submit.</span>}
        </div>
      </form>
      {submitTask.data && (
        <p className="success" data-testid="submit-result">
          Submitted <a href={taskHref(submitTask.data.taskId)}>Task {String(submitTask.data.taskId)}</a>
          <span className="muted"> · {formatGrid(submitTask.data.escrow)} in escrow</span>
        </p>
      )}
      <ErrorAlert error={deposit.error ?? submitTask.error} testId="submit-error" />
    </Panel>
  )
}
