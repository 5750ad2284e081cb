import { useLeaseCost } from '@gridforge/react-hooks'
import { type Lease, leaseUrl } from '@gridforge/sdk'
import { useState } from 'react'
import { formatGrid } from '../amount'
import { ErrorAlert } from './ErrorAlert'
import { Panel } from './Panel'
import { ProviderLink } from './ProviderLink'
import { SourceLabel } from './SourceLabel'

/** Why a lease ended, in words (the contract's EndReason). */
const endReasons: Record<Lease['reason'], string> = {
  None: '–',
  Cancelled: 'cancelled by the renter before a provider accepted it',
  NotAccepted: 'no provider accepted it in time',
  ClosedByRenter: 'closed by the renter',
  OutOfDeposit: 'the deposit ran out',
  ProviderNotice: 'the provider gave notice',
  ProviderOffline: 'the provider went offline (penalty paid to the renter)',
  Expired: 'it ran its whole duration',
  RenterSilent: "the renter's software stopped acknowledging usage",
}

const time = (unixSec: number) => (unixSec === 0 ? '–' : new Date(unixSec * 1000).toLocaleString())

function duration(seconds: number): string {
  const h = Math.floor(seconds / 3600)
  const m = Math.floor((seconds % 3600) / 60)
  return h > 0 ? `${h} h ${m} min` : `${m} min ${seconds % 60} s`
}

/**
 * `#/leases/<id>`: a lease, live — its status, the cost meter (accrued, paid, deposit left, funded
 * until), the uptime acknowledged so far, the access URL on the provider's gateway and, once fixed,
 * why it ended.
 */
export function LeasePage({ leaseId }: { leaseId: bigint }) {
  const meter = useLeaseCost({ leaseId })
  const cost = meter.data
  const lease = cost?.lease
  const [gatewayUrl, setGatewayUrl] = useState('')
  // Uptime as the referee counts it: acknowledged seconds over the lease's time so far.
  const uptime =
    cost !== undefined && cost.elapsedSec > 0
      ? Math.min(1, (lease?.servedSec ?? 0) / cost.elapsedSec)
      : undefined
  let url: string | undefined
  try {
    url = gatewayUrl.trim() === '' ? undefined : leaseUrl({ gatewayUrl: gatewayUrl.trim(), leaseId })
  } catch {
    url = undefined
  }

  return (
    <div className="lease-page" data-testid="lease-page">
      <p>
        <a href="#/">← Overview</a>
      </p>
      <Panel title={`Lease ${leaseId}`}>
        <ErrorAlert error={meter.error} />
        {meter.isPending && !meter.isError && <p className="muted">Loading…</p>}
        {cost && lease && (
          <dl className="facts">
            <dt>Status</dt>
            <dd data-testid="lease-status">{lease.status}</dd>
            {lease.reason !== 'None' && (
              <>
                <dt>Ended because</dt>
                <dd data-testid="lease-reason">
                  {endReasons[lease.reason]} <span className="muted">({lease.reason})</span>
                </dd>
              </>
            )}
            <dt>Source</dt>
            <dd>
              <SourceLabel sourceId={lease.sourceId} />
            </dd>
            <dt>Renter</dt>
            <dd>
              <code>{lease.renter}</code>
            </dd>
            <dt>Provider</dt>
            <dd>
              {lease.status === 'Requested' ? (
                <span className="muted">waiting for a provider to accept by {time(lease.acceptBy)}</span>
              ) : (
                <ProviderLink provider={lease.provider} testId="lease-provider" />
              )}
            </dd>
            <dt>Price</dt>
            <dd>
              {formatGrid(lease.pricePerSec * 3600n)} per hour
              <span className="muted"> · {formatGrid(lease.pricePerSec)} per second</span>
            </dd>
            <dt>Cost so far</dt>
            <dd data-testid="lease-accrued">
              {formatGrid(cost.accrued)}
              <span className="muted">
                {' '}
                · paid {formatGrid(cost.paid)}, not yet claimed {formatGrid(cost.unpaid)}
              </span>
            </dd>
            <dt>Deposit left</dt>
            <dd data-testid="lease-deposit-left">
              {formatGrid(cost.depositLeft)}
              {cost.lowDeposit && <strong> · low: top up or the lease ends soon</strong>}
            </dd>
            {lease.status === 'Active' && !cost.ended && (
              <>
                <dt>Runs until</dt>
                <dd>
                  {time(cost.endsAt)}
                  <span className="muted">
                    {' '}
                    · {duration(cost.secondsLeft)} left (funded until {time(cost.fundedUntil)})
                  </span>
                </dd>
              </>
            )}
            {cost.ended && (
              <>
                <dt>Ended</dt>
                <dd>
                  {time(cost.endsAt)}
                  {lease.status !== 'Settled' && (
                    <span className="muted"> · settles once the provider's last acknowledgement is in</span>
                  )}
                </dd>
              </>
            )}
            <dt>Uptime</dt>
            <dd data-testid="lease-uptime">
              {uptime === undefined ? '–' : `${(uptime * 100).toFixed(1)} %`}
              <span className="muted">
                {' '}
                · {duration(lease.servedSec)} acknowledged
                {lease.minUptimeBps > 0 && `, guaranteed ${(lease.minUptimeBps / 100).toFixed(1)} %`}
              </span>
            </dd>
            <dt>Access</dt>
            <dd>
              <input
                aria-label="Provider's lease gateway"
                placeholder="the provider's lease gateway, e.g. https://leases.example.com"
                value={gatewayUrl}
                onChange={(event) => setGatewayUrl(event.target.value)}
              />
              {url !== undefined && (
                <p>
                  <a href={url} target="_blank" rel="noreferrer" data-testid="lease-url">
                    {url}
                  </a>{' '}
                  <span className="muted">(sign in with the renter's wallet)</span>
                </p>
              )}
            </dd>
          </dl>
        )}
      </Panel>
    </div>
  )
}
