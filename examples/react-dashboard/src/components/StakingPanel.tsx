import {
  useClaimRewards,
  useRewards,
  useStake,
  useStakePosition,
  useUnbond,
  useWithdrawUnbonded,
} from '@gridforge/react-hooks'
import { useConnection } from 'wagmi'
import { formatGrid, tokenAmount } from '../amount'
import { AmountForm } from './AmountForm'
import { ErrorAlert } from './ErrorAlert'
import { Panel } from './Panel'

/**
 * The account's stake (which discounts its task fees and backs a provider's claims), the
 * rewards it earned from protocol fees, staking and unbonding.
 */
export function StakingPanel() {
  const { isConnected } = useConnection()
  const position = useStakePosition()
  const rewards = useRewards()
  const stake = useStake()
  const unbond = useUnbond()
  const withdrawUnbonded = useWithdrawUnbonded()
  const claimRewards = useClaimRewards()

  if (!isConnected) {
    return (
      <Panel title="Staking">
        <p className="muted">Connect an account to stake.</p>
      </Panel>
    )
  }

  const data = position.data
  return (
    <Panel title="Staking">
      <dl className="facts">
        <dt>Staked</dt>
        <dd data-testid="stake-staked">{data ? formatGrid(data.staked) : '–'}</dd>
        <dt>Locked as collateral</dt>
        <dd>{data ? formatGrid(data.locked) : '–'}</dd>
        <dt>Unbonding</dt>
        <dd>
          {data ? formatGrid(data.unbonding) : '–'}
          {data && data.unbonding > 0n && data.unbondingReadyAt && (
            <span className="muted"> · ready {data.unbondingReadyAt.toLocaleString()}</span>
          )}
        </dd>
        <dt>Rewards</dt>
        <dd data-testid="rewards-amount">{rewards.data === undefined ? '–' : formatGrid(rewards.data)}</dd>
      </dl>
      <ErrorAlert error={position.error ?? rewards.error} />
      <AmountForm
        label="Stake"
        action="Stake"
        inputTestId="stake-amount"
        submitTestId="stake-submit"
        pending={stake.isPending}
        error={stake.error}
        onSubmit={(amount) => stake.mutateAsync({ amount: tokenAmount(amount), approve: true })}
      />
      <AmountForm
        label="Unbond"
        action="Unbond"
        inputTestId="unbond-amount"
        submitTestId="unbond-submit"
        pending={unbond.isPending}
        error={unbond.error}
        onSubmit={(amount) => unbond.mutateAsync({ amount: tokenAmount(amount) })}
      />
      <div className="inline actions">
        <button
          type="button"
          data-testid="claim-rewards"
          disabled={claimRewards.isPending}
          onClick={() => claimRewards.mutate({})}
        >
          Claim rewards
        </button>
        {data && data.unbonding > 0n && (
          <button
            type="button"
            disabled={withdrawUnbonded.isPending}
            onClick={() => withdrawUnbonded.mutate({})}
          >
            Withdraw unbonded
          </button>
        )}
      </div>
      <ErrorAlert error={claimRewards.error ?? withdrawUnbonded.error} />
    </Panel>
  )
}
