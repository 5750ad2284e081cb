import type { Deployment } from '@gridforge/sdk'
import type { ContentStore } from '@gridforge/sdk/storage'
import type { Account, Chain, Client, Transport } from 'viem'
import type { HostReport } from '../detect/HostReport.js'
import type { AckPolicy } from '../lease/usageAck.js'
import type { Logger } from '../logger.js'
import type { ContainerRuntime, ResourceLimits } from '../runtime/ContainerRuntime.js'
import type { LeaseLimits, LeaseRuntime } from '../runtime/LeaseRuntime.js'

/** Which tasks the agent takes. */
export interface Policy {
  /** Only these sources; `undefined`: every source the provider is subscribed to on chain. */
  sources?: readonly number[] | undefined
  /**
   * Least pay per GPU-second, in token base units (tasks without GPUs count as
   * one). A fixed-price task pays `maxPayment / maxRuntimeSec` at worst, a
   * metered one `pricePerSecond`. Default 0.
   */
  minPricePerGpuSecond?: bigint | undefined
  /** Most tasks running at once (default: the number of GPUs, at least 1). */
  concurrency?: number | undefined
  /** Take sources that ask for outbound network (default false). */
  allowEgress?: boolean | undefined
  /** Largest input fetched, bytes (default 1 GiB). */
  maxInputBytes?: number | undefined
  /**
   * Audits of other providers' results (single-replica tasks of deterministic sources the market
   * drew for an audit): the agent joins the audit rounds of tasks it would take itself (the same
   * sources, capabilities and price), re-runs the task once it holds a seat, and commits and
   * reveals its result like a consensus replica. An auditor locks the task's collateral while
   * seated and is paid when its result stands. Default: enabled, any payment.
   */
  audits?: AuditPolicy | undefined
}

/** Which audits the agent joins (see {@link Policy.audits}). */
export interface AuditPolicy {
  /** Join audit rounds (default true). */
  enabled?: boolean | undefined
  /** Only audits of tasks paying at least this much (`maxPayment`, token base units; default 0). */
  minPayment?: bigint | undefined
}

/**
 * Which leases the agent takes and how it serves them (see the README's "Leases"). Sources are the
 * policy's `sources` (or every subscribed one); a source asking for egress needs `allowEgress`.
 */
export interface LeasePolicy {
  /** Take leases (default false). */
  enabled?: boolean | undefined
  /**
   * The sources whose lease requests the agent takes (default: the policy's `sources`, else every
   * subscribed one). Name the interactive ones when the provider also runs batch sources.
   */
  sources?: readonly number[] | undefined
  /** Least price per second of a lease, token base units (default 0). */
  minPricePerSec?: bigint | undefined
  /** The same floor per hour, used when `minPricePerSec` is unset. */
  minPricePerHour?: bigint | undefined
  /** Largest penalty a lease may name, seconds of its price (default 3,600). */
  maxPenaltySec?: number | undefined
  /** Most leases at once (default 1). */
  maxConcurrent?: number | undefined
  /** Milliseconds between redemptions of a lease's latest acknowledgement (default 6 hours). */
  redeemEveryMs?: number | undefined
  /** Where the lease gateway listens and how renters reach it. */
  gateway?:
    | {
        hostname?: string | undefined
        port?: number | undefined
        publicHost?: string | undefined
        publicScheme?: 'http' | 'https' | undefined
        /**
         * Who proxies renters' requests: `'nginx'` (nginx with its njs module in front of the
         * gateway, see `nginxDataPath`: a third of the gateway's latency), `'node'` (the gateway
         * alone), or `'auto'` (default): nginx where it and its njs module are installed.
         */
        dataPath?: 'auto' | 'nginx' | 'node' | undefined
        /** Paths of nginx and its njs module (default Debian's). */
        nginx?: { binary?: string | undefined; njsModule?: string | undefined } | undefined
      }
    | undefined
  /** When the gateway stops proxying a lease for want of acknowledgements. */
  acks?: AckPolicy | undefined
  /** Lease container limits over the source's resources and the defaults (1 CPU, 1 GiB). */
  limits?: Partial<LeaseLimits> | undefined
  /** The lease containers' runtime (default Docker, owned by this agent). */
  runtime?: LeaseRuntime | undefined
}

/** When to move earnings from the market balance to the provider's wallet. */
export interface WithdrawSchedule {
  /** Milliseconds between checks. */
  every: number
  /** Withdraw only when the balance is at least this (base units, default 0: anything). */
  minimum?: bigint | undefined
}

export interface AgentOptions {
  /** A client with the provider's account: it claims, submits and signs receipts. */
  client: Client<Transport, Chain, Account>
  deployment: Deployment
  /** Where inputs are read from and outputs, logs and receipts are written (clients must be able to read it). */
  store: ContentStore
  runtime: ContainerRuntime
  /** This host, from `detectHost()`: what tasks it can take and the receipt's hardware summary. */
  host: HostReport
  /** The journal and the work directories live here; one directory per agent. */
  dataDir: string
  policy?: Policy | undefined
  /** Container limits; a source's own resources (memory, CPUs) take precedence where it sets them. */
  limits?: Partial<ResourceLimits> | undefined
  /** Milliseconds between polls for new events (default: the client's `pollingInterval`). */
  pollingInterval?: number | undefined
  /**
   * Longest wait, in milliseconds, before a task the agent waits on (for others to commit, for a
   * reveal window to close) is read again even without an event about it (default 30 000). A task
   * whose input or image could not be prepared (nothing claimed) is looked at again after twice this.
   * The agent never re-reads the market's history: it acts on the events it follows from a journaled
   * cursor (`<dataDir>/cursor.json`).
   */
  rescanInterval?: number | undefined
  /** Seconds kept free before a claim's deadline to upload and submit (default 30). */
  submitMarginSec?: number | undefined
  /**
   * Seconds a held result (an auditable single-replica task) waits, once its
   * audit draw is ready, for the agent's next claim to carry its release in
   * the same transaction (about 27,000 gas less than a release of its own);
   * then it is released alone. Default 30; 0 releases at once.
   */
  releaseWaitSec?: number | undefined
  /** Leases (default: none taken). */
  leases?: LeasePolicy | undefined
  /** `false` (default): never withdraw automatically. */
  withdraw?: WithdrawSchedule | false | undefined
  logger?: Logger | undefined
}
