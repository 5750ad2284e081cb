import type { Address, LocalAccount } from 'viem'
import { LeaseGatewayError } from '../errors/lease.js'
import { callGateway, type FetchFunction, refusalReason } from './gatewayFetch.js'
import { gatewayPrefix, leaseUrl } from './leaseUrl.js'
import { signUsage } from './signUsage.js'
import type { SignedUsage } from './usage.js'

export type StartUsageAcknowledgerParameters = {
  /** The provider's lease gateway, e.g. `https://leases.example.com`. */
  gatewayUrl: string
  leaseId: number | bigint
  /** A session token from {@link signInToLease}; replace it with `setToken` after signing in again. */
  token: string
  /** The lease's ack signer: the session key named at request ({@link createLeaseSessionKey}). */
  sessionKey: LocalAccount
  /** The lease market's address (`deployment.contracts.leases`). */
  leaseMarket: Address
  chainId: number
  /** Seconds between probes and acknowledgements (default 60; keep it well under the lease's `ackGrace`). */
  intervalSec?: number | undefined
  /** How long a probe may take before it counts as not served (default 10 s). */
  probeTimeoutMs?: number | undefined
  /** The last acknowledgement sent before a restart (from your journal): counting goes on from it. */
  resumeFrom?: { servedSec: number; at: number } | undefined
  fetch?: FetchFunction | undefined
  /** Milliseconds since the epoch (default `Date.now`). */
  now?: (() => number) | undefined
  /** Called after each probe: whether the service answered, and the seconds counted so far. */
  onProbe?: ((probe: { served: boolean; status: number | undefined; servedSec: number }) => void) | undefined
  /** Called after the gateway accepted an acknowledgement: journal it (with the session key) to resume later. */
  onAck?: ((ack: SignedUsage) => void) | undefined
  /** Called on a failed probe, a refused acknowledgement or an unreachable gateway; the acknowledger keeps going. */
  onError?: ((error: LeaseGatewayError) => void) | undefined
}

/** Why an acknowledger stopped. */
export type UsageAcknowledgerStop =
  | { reason: 'stopped' }
  /** The gateway says the lease is over (410). */
  | { reason: 'leaseEnded'; detail: string }
  /** The gateway refuses the session key's signatures (422): not the lease's ack signer. */
  | { reason: 'wrongSigner'; detail: string }

export interface UsageAcknowledger {
  /** The latest acknowledgement the gateway accepted. */
  readonly lastAck: SignedUsage | undefined
  /** Seconds of service counted so far. */
  readonly servedSec: number
  /** Uses a new session token from now on (after a 401, sign in again). */
  setToken(token: string): void
  /** Stops after the current round; resolves when stopped. */
  stop(): Promise<UsageAcknowledgerStop>
  /** Settles when the acknowledger stops, by `stop()` or because the gateway ended it. */
  readonly done: Promise<UsageAcknowledgerStop>
  [Symbol.asyncDispose](): Promise<void>
}

export type StartUsageAcknowledgerReturnType = UsageAcknowledger

/** Statuses that mean the service did not answer: the gateway's "bad gateway", "unavailable", "timed out". */
const notServed = new Set([502, 503, 504])

/**
 * Runs the renter's side of a lease's service proof: every `intervalSec` it
 * probes the service through the gateway (`GET /` with the token; any answer
 * below 500 counts as served, 502/503/504 and timeouts do not), adds the
 * seconds since the previous probe when both were served, signs a cumulative
 * acknowledgement with the session key ({@link signUsage}) and posts it to the
 * gateway (`POST /_gridforge/ack`). The gateway stops proxying when
 * acknowledgements lapse, and the provider redeems the latest one on chain,
 * so the renter pays for the seconds it observed and no more.
 *
 * Journaling is the caller's job: keep the session key and the last
 * acknowledgement (`onAck`) so that a restarted acknowledger resumes from it
 * (`resumeFrom`); a lost count restarts at 0 and the gateway answers 409
 * until it catches up (the acknowledger then adopts the gateway's last
 * accepted count, which its own key signed).
 *
 * @example
 * import { signInToLease, startUsageAcknowledger } from '@gridforge/sdk'
 * import { privateKeyToAccount } from 'viem/accounts'
 *
 * const { token } = await signInToLease(client, { deployment, gatewayUrl, leaseId })
 * const acknowledger = startUsageAcknowledger({
 *   gatewayUrl, leaseId, token,
 *   sessionKey: privateKeyToAccount(journal.sessionKey),
 *   leaseMarket: deployment.contracts.leases, chainId: 8453,
 *   onAck: (ack) => journal.save(ack),
 *   onError: (error) => console.warn(error.shortMessage),
 * })
 * process.on('SIGINT', () => acknowledger.stop())
 * console.log(await acknowledger.done)
 */
export function startUsageAcknowledger(parameters: StartUsageAcknowledgerParameters): UsageAcknowledger {
  const {
    gatewayUrl,
    sessionKey,
    leaseMarket,
    chainId,
    intervalSec = 60,
    probeTimeoutMs = 10_000,
    resumeFrom,
    onProbe,
    onAck,
    onError,
  } = parameters
  const leaseId = BigInt(parameters.leaseId)
  const fetchFunction = parameters.fetch ?? globalThis.fetch
  const now = parameters.now ?? Date.now
  const origin = new URL(leaseUrl({ gatewayUrl, leaseId })).origin
  let token = parameters.token
  let servedSec = resumeFrom?.servedSec ?? 0
  let lastAck: SignedUsage | undefined
  // The previous probe's time, when it was served: only an interval served at both ends is counted.
  let servedSince: number | undefined
  let stopping = false
  let wake: (() => void) | undefined

  const headers = () => ({ authorization: `Bearer ${token}` })
  const report = (error: LeaseGatewayError) => onError?.(error)

  /** Probes the service; `'ended'` when the gateway says the lease is over. */
  async function probe(): Promise<{ served: boolean; status: number | undefined; ended?: string }> {
    const url = `${origin}/`
    let response: Response
    try {
      response = await callGateway(fetchFunction, url, { headers: headers(), timeoutMs: probeTimeoutMs })
    } catch (error) {
      report(error as LeaseGatewayError)
      return { served: false, status: undefined }
    }
    const { status } = response
    const own = await gatewayRefusal(response)
    if (own !== undefined) {
      if (status === 410) return { served: false, status, ended: own }
      report(new LeaseGatewayError({ url, status, reason: own }))
      return { served: false, status }
    }
    await response.body?.cancel()
    if (status >= 500 || notServed.has(status)) {
      report(
        new LeaseGatewayError({
          url,
          status,
          reason: 'the service did not answer: this interval is not acknowledged as served',
        }),
      )
      return { served: false, status }
    }
    return { served: true, status }
  }

  /** The gateway's own refusal (JSON naming this lease), as opposed to the service's answer. */
  async function gatewayRefusal(response: Response): Promise<string | undefined> {
    if (![401, 403, 404, 410].includes(response.status)) return undefined
    if (!(response.headers.get('content-type') ?? '').includes('application/json')) return undefined
    try {
      const body = (await response.clone().json()) as { error?: unknown; lease?: unknown; reason?: unknown }
      if (typeof body.error !== 'string' || body.lease !== leaseId.toString()) return undefined
      return typeof body.reason === 'string' ? body.reason : body.error
    } catch {
      return undefined
    }
  }

  /** Signs and posts the acknowledgement of `servedSec` now; a stop reason when the gateway ends it. */
  async function acknowledge(): Promise<UsageAcknowledgerStop | undefined> {
    const at = Math.floor(now() / 1000)
    const signature = await signUsage({ account: sessionKey, chainId, leaseMarket, leaseId, servedSec, at })
    const url = `${origin}${gatewayPrefix}ack`
    let response: Response
    try {
      response = await callGateway(fetchFunction, url, {
        method: 'POST',
        headers: { ...headers(), 'content-type': 'application/json' },
        body: JSON.stringify({ servedSec, at, signature }),
      })
    } catch (error) {
      report(error as LeaseGatewayError)
      return undefined
    }
    if (response.status === 204 || response.ok) {
      await response.body?.cancel()
      lastAck = { leaseId, servedSec, at, signature }
      onAck?.(lastAck)
      return undefined
    }
    const reason = await refusalReason(response)
    if (response.status === 410) return { reason: 'leaseEnded', detail: reason }
    if (response.status === 422) return { reason: 'wrongSigner', detail: reason }
    report(new LeaseGatewayError({ url, status: response.status, reason }))
    if (response.status === 409) await catchUp()
    return undefined
  }

  /** After a 409: the gateway holds a newer acknowledgement of ours (a restart lost the count); go on from it. */
  async function catchUp(): Promise<void> {
    try {
      const response = await callGateway(fetchFunction, `${origin}${gatewayPrefix}usage`, {
        headers: headers(),
      })
      if (!response.ok) return void (await response.body?.cancel())
      const usage = (await response.json()) as { lastAck?: { servedSec?: unknown } | null }
      const accepted = usage.lastAck?.servedSec
      if (typeof accepted === 'number' && accepted > servedSec) servedSec = accepted
    } catch {}
  }

  async function run(): Promise<UsageAcknowledgerStop> {
    while (!stopping) {
      const result = await probe()
      const probedAt = now()
      if (result.ended !== undefined) return { reason: 'leaseEnded', detail: result.ended }
      if (result.served && servedSince !== undefined) servedSec += Math.floor((probedAt - servedSince) / 1000)
      // Whole seconds only: carry the fraction into the next interval rather than lose it.
      if (result.served)
        servedSince = servedSince === undefined ? probedAt : probedAt - ((probedAt - servedSince) % 1000)
      else servedSince = undefined
      onProbe?.({ served: result.served, status: result.status, servedSec })
      const stop = await acknowledge()
      if (stop !== undefined) return stop
      if (stopping) break
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, intervalSec * 1000)
        wake = () => {
          clearTimeout(timer)
          resolve()
        }
      })
      wake = undefined
    }
    return { reason: 'stopped' }
  }

  const done = run()
  return {
    get lastAck() {
      return lastAck
    },
    get servedSec() {
      return servedSec
    },
    setToken(next: string) {
      token = next
    },
    stop() {
      stopping = true
      wake?.()
      return done
    },
    done,
    async [Symbol.asyncDispose]() {
      await this.stop()
    },
  }
}
