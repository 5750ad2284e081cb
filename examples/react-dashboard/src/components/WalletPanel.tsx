import { useDeposit, useWalletBalance, useWithdraw } from '@gridforge/react-hooks'
import { useConnection } from 'wagmi'
import { formatGrid, tokenAmount } from '../amount'
import { AmountForm } from './AmountForm'
import { ErrorAlert } from './ErrorAlert'
import { Panel } from './Panel'

/**
 * The account's GRID: its market balance (what task escrows are taken from), the tokens it holds,
 * and deposits (approving the market first) and withdrawals between the two.
 */
export function WalletPanel() {
  const { isConnected } = useConnection()
  const wallet = useWalletBalance()
  const deposit = useDeposit()
  const withdraw = useWithdraw()

  if (!isConnected) {
    return (
      <Panel title="Wallet">
        <p className="muted">Connect an account to see its balances.</p>
      </Panel>
    )
  }

  const data = wallet.data
  return (
    <Panel title="Wallet">
      <dl className="facts">
        <dt>Market balance</dt>
        <dd data-testid="wallet-balance">{data ? formatGrid(data.balance) : '–'}</dd>
        <dt>In the account</dt>
        <dd data-testid="wallet-token">{data ? formatGrid(data.token) : '–'}</dd>
        <dt>Market allowance</dt>
        <dd>{data ? formatGrid(data.allowance) : '–'}</dd>
      </dl>
      <ErrorAlert error={wallet.error} />
      <AmountForm
        label="Deposit into the market"
        action="Deposit"
        inputTestId="deposit-amount"
        submitTestId="deposit-submit"
        pending={deposit.isPending}
        error={deposit.error}
        onSubmit={(amount) => deposit.mutateAsync({ amount: tokenAmount(amount), approve: true })}
      />
      <AmountForm
        label="Withdraw to the account"
        action="Withdraw"
        inputTestId="withdraw-amount"
        submitTestId="withdraw-submit"
        pending={withdraw.isPending}
        error={withdraw.error}
        onSubmit={(amount) => withdraw.mutateAsync({ amount: tokenAmount(amount) })}
      />
    </Panel>
  )
}
