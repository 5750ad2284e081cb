import { useLeases, useProviderSummary } from '@gridforge/react-hooks'
import type { ProviderSummary } from '@gridforge/sdk'
import type { Address } from 'viem'
import { formatGrid, formatGridPerGpuSecond } from '../amount'
import { isLocalChain } from '../config'
import { leaseHref, taskHref } from '../route'
import { ErrorAlert } from './ErrorAlert'
import { Panel } from './Panel'
import { SourceLabel } from './SourceLabel'
import { Stat } from './Stat'
import { TaskStatusBadge } from './TaskStatusBadge'

/** The summary moves when the provider claims or is paid: as often as blocks come, within reason. */
const refetchInterval = isLocalChain ? 1_000 : 15_000

/**
 * `#/providers/<address>`: one provider — what it earned, its record, its GPUs, price floor and
 * stake, and the tasks and leases it is working on now, each linking to its page. Through the
 * indexer when the dashboard has one (the chain otherwise).
 */
export function ProviderPage({ provider }: { provider: Address }) {
  const summary = useProviderSummary({ provider, query: { refetchInterval } })
  const data = summary.data
  return (
    <div className="provider-page" data-testid="provider-page">
      <p>
        <a href="#/">← Overview</a>
      </p>
      <Panel title="Provider">
        <p>
          <code data-testid="provider-address">{provider}</code>
        </p>
        <ErrorAlert error={summary.error} testId="provider-error" />
        {summary.isPending && !summary.isError && <p className="muted">Loading…</p>}
        {data && !data.registered && (
          <p className="alert" data-testid="provider-unknown">
            No provider is registered at this address: it never registered, so it has no record, GPUs or
            earnings to show.
          </p>
        )}
        {data?.registered && <ProviderFacts summary={data} />}
      </Panel>
      {data?.registered && <CurrentWork summary={data} />}
      {data?.registered && <CurrentLeases provider={provider} />}
    </div>
  )
}

function ProviderFacts({ summary }: { summary: ProviderSummary }) {
  const { record, capabilities, earnings, stake } = summary
  const settled = record.completed + record.failed + record.outvoted
  return (
    <>
      <section className="stats" aria-label="Record">
        <Stat label="Earned" testId="provider-earned" value={formatGrid(earnings.earned)} />
        <Stat label="Completed" testId="provider-completed" value={String(record.completed)} />
        <Stat label="Failed" testId="provider-failed" value={String(record.failed)} />
        <Stat label="Outvoted" testId="provider-outvoted" value={String(record.outvoted)} />
        <Stat
          label="Success rate"
          testId="provider-success-rate"
          // No record is not a perfect record: the market counts it as 0 %, the page says so.
          value={settled === 0 ? 'no record yet' : `${(record.successBps / 100).toFixed(2)} %`}
        />
      </section>
      <dl className="facts">
        <dt>Status</dt>
        <dd data-testid="provider-status">
          {summary.paused ? 'paused (takes no new tasks)' : 'active'}
          {summary.registeredAt && (
            <span className="muted"> · registered {summary.registeredAt.toLocaleString()}</span>
          )}
        </dd>
        <dt>GPUs</dt>
        <dd data-testid="provider-gpus">
          {capabilities.gpuCount === 0 ? (
            'none (CPU only)'
          ) : (
            <>
              <span data-testid="provider-gpu-count">{capabilities.gpuCount}</span> ×{' '}
              <span data-testid="provider-vram">{formatMiB(capabilities.vramMiB)}</span>, compute capability{' '}
              <span data-testid="provider-compute-capability">
                {formatComputeCapability(capabilities.computeCapability)}
              </span>
            </>
          )}
        </dd>
        <dt>Host</dt>
        <dd>
          {capabilities.cpuCores} CPU cores, {formatMiB(capabilities.memoryMiB)} memory
        </dd>
        <dt>Price floor</dt>
        <dd data-testid="provider-price-floor">
          {summary.priceFloor === 0n ? 'any price' : formatGridPerGpuSecond(summary.priceFloor)}
        </dd>
        <dt>Paid</dt>
        <dd>
          {formatGrid(earnings.paid)}
          <span className="muted"> · protocol fees {formatGrid(earnings.fees)}</span>
        </dd>
        <dt>Leases</dt>
        <dd data-testid="provider-leases">
          {summary.leases.accepted === 0 ? (
            'none yet'
          ) : (
            <>
              {summary.leases.accepted} accepted, earned {formatGrid(summary.leases.earned)}
              <span className="muted">
                {' '}
                · paid {formatGrid(summary.leases.paid)}, protocol fees {formatGrid(summary.leases.fees)}
                {summary.leases.penalties > 0n && (
                  <>, penalties paid {formatGrid(summary.leases.penalties)}</>
                )}
              </span>
            </>
          )}
        </dd>
        <dt>Stake</dt>
        <dd data-testid="provider-stake">
          {formatGrid(stake.staked)}
          <span className="muted">
            {' '}
            · {formatGrid(stake.locked)} locked as collateral · {formatGrid(stake.available)} available
          </span>
        </dd>
        {record.failedRuns > 0 && (
          <>
            <dt>Failed runs</dt>
            <dd>
              {record.failedRuns} <span className="muted">(paid failure reports, not held against it)</span>
            </dd>
          </>
        )}
        {summary.sources !== undefined && (
          <>
            <dt>Sources</dt>
            <dd>
              {summary.sources.length === 0
                ? 'none'
                : summary.sources.map((sourceId, index) => (
                    <span key={sourceId}>
                      {index > 0 && ', '}
                      <SourceLabel sourceId={sourceId} />
                    </span>
                  ))}
            </dd>
          </>
        )}
      </dl>
      {summary.readFrom === 'chain' && (
        <p className="muted">
          Read from the chain: with an indexer (VITE_GRIDFORGE_INDEXER_URL) the page also shows the sources it
          serves.
        </p>
      )}
    </>
  )
}

function CurrentWork({ summary }: { summary: ProviderSummary }) {
  return (
    <Panel title="Current work" testId="provider-current-tasks">
      {summary.currentTasks.length === 0 ? (
        <p className="muted">No task in progress.</p>
      ) : (
        <ul className="plain-list">
          {summary.currentTasks.map((task) => (
            <li key={String(task.taskId)} data-testid={`provider-task-${task.taskId}`}>
              <a href={taskHref(task.taskId)}>Task {String(task.taskId)}</a>{' '}
              <TaskStatusBadge status={task.status} /> <SourceLabel sourceId={task.sourceId} />
              <span className="muted"> · up to {formatGrid(task.maxPayment)}</span>
            </li>
          ))}
        </ul>
      )}
    </Panel>
  )
}

/** The leases the provider serves now (accepted, not settled), newest first. */
function CurrentLeases({ provider }: { provider: Address }) {
  const leases = useLeases({ provider, status: 'Active', query: { refetchInterval } })
  const serving = [...(leases.data ?? [])].reverse()
  return (
    <Panel title="Leases served" testId="provider-current-leases">
      <ErrorAlert error={leases.error} testId="provider-leases-error" />
      {leases.isPending && !leases.isError && <p className="muted">Loading…</p>}
      {leases.data && serving.length === 0 && <p className="muted">No lease served now.</p>}
      {serving.length > 0 && (
        <ul className="plain-list">
          {serving.map((lease) => (
            <li key={String(lease.leaseId)} data-testid={`provider-lease-${lease.leaseId}`}>
              <a href={leaseHref(lease.leaseId)}>Lease {String(lease.leaseId)}</a>{' '}
              <SourceLabel sourceId={lease.sourceId} />
              <span className="muted">
                {' '}
                · {formatGrid(lease.pricePerSec * 3600n)} per hour · until{' '}
                {new Date(lease.endsAt * 1000).toLocaleString()}
              </span>
            </li>
          ))}
        </ul>
      )}
    </Panel>
  )
}

/** MiB as GiB when whole (24576 → 24 GiB), else as MiB. */
function formatMiB(mib: number): string {
  return mib % 1024 === 0 ? `${mib / 1024} GiB` : `${mib} MiB`
}

/** The registry's compute capability × 10 as CUDA writes it: 89 → 8.9. */
function formatComputeCapability(value: number): string {
  return `${Math.floor(value / 10)}.${value % 10}`
}
