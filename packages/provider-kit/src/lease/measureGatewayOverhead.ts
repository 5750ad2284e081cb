import { Agent, request } from 'node:http'
import type { LeaseUpstream } from '../runtime/LeaseRuntime.js'

export interface MeasureGatewayOverheadParameters {
  /** The lease's service, dialled directly (what the gateway forwards to). */
  upstream: LeaseUpstream
  /** Where the gateway listens, e.g. `http://127.0.0.1:41234`. */
  gatewayUrl: string
  /** The lease's host on the gateway, sent as `Host` (`7.localhost:41234`). */
  leaseHost: string
  /** A session token of the lease's renter (`Authorization: Bearer`). */
  token: string
  /** The path requested (default `/`). */
  path?: string | undefined
  /** Requests measured on each path (default 200), after `warmup` (default 20) that are not. */
  requests?: number | undefined
  warmup?: number | undefined
}

export interface GatewayOverhead {
  requests: number
  /** Median latency of a request straight to the service, milliseconds. */
  directMedianMs: number
  /** Median latency of the same request through the gateway, milliseconds. */
  gatewayMedianMs: number
  /** `gatewayMedianMs / directMedianMs`: the target is at most 1.5. */
  ratio: number
}

/**
 * How much the gateway adds to a request: the median latency of `requests`
 * sequential GETs straight to the lease's service against the same through
 * the gateway, alternating the two so that both see the same load. Both
 * clients keep their connections alive, as a browser would.
 *
 * @example
 * const { ratio } = await measureGatewayOverhead({ upstream: container.upstream, gatewayUrl: gateway.url, leaseHost: '7.localhost:41234', token })
 */
export async function measureGatewayOverhead({
  upstream,
  gatewayUrl,
  leaseHost,
  token,
  path = '/',
  requests = 200,
  warmup = 20,
}: MeasureGatewayOverheadParameters): Promise<GatewayOverhead> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  const gateway = new URL(gatewayUrl)
  const direct = () =>
    timed(agent, { host: upstream.host, port: upstream.port, path, headers: { host: leaseHost } })
  const through = () =>
    timed(agent, {
      host: gateway.hostname,
      port: Number(gateway.port),
      path,
      headers: { host: leaseHost, authorization: `Bearer ${token}` },
    })
  try {
    for (let i = 0; i < warmup; i++) {
      await direct()
      await through()
    }
    const directMs: number[] = []
    const gatewayMs: number[] = []
    for (let i = 0; i < requests; i++) {
      directMs.push(await direct())
      gatewayMs.push(await through())
    }
    const directMedianMs = median(directMs)
    const gatewayMedianMs = median(gatewayMs)
    return { requests, directMedianMs, gatewayMedianMs, ratio: gatewayMedianMs / directMedianMs }
  } finally {
    agent.destroy()
  }
}

/** One GET's time to its last byte, milliseconds; a status other than 200 throws (the figure would be wrong). */
function timed(
  agent: Agent,
  options: { host: string; port: number; path: string; headers: Record<string, string> },
): Promise<number> {
  const started = performance.now()
  return new Promise((resolve, reject) => {
    const req = request({ ...options, agent, setHost: false }, (res) => {
      res.resume()
      res.on('end', () =>
        res.statusCode === 200
          ? resolve(performance.now() - started)
          : reject(
              new Error(`GET ${options.path} via ${options.host}:${options.port} answered ${res.statusCode}`),
            ),
      )
    })
    req.on('error', reject)
    req.end()
  })
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2
}
