/** The path prefix of a lease gateway's own endpoints (nonce, login, ack, usage); everything else is the service's. */
export const gatewayPrefix = '/_gridforge/'

export type LeaseUrlParameters = {
  /** The provider's lease gateway, e.g. `https://leases.example.com` (its public host). */
  gatewayUrl: string
  leaseId: number | bigint
  /** A path on the lease's service (default `/`). */
  path?: string | undefined
}

/**
 * Where a lease is served: the gateway serves each lease on its own host,
 * `<leaseId>.<gateway host>`, so that leases never share cookies or origins.
 *
 * @example
 * leaseUrl({ gatewayUrl: 'https://leases.example.com', leaseId: 7n }) // 'https://7.leases.example.com/'
 * leaseUrl({ gatewayUrl: 'https://leases.example.com', leaseId: 7n, path: '/lab' }) // 'https://7.leases.example.com/lab'
 */
export function leaseUrl({ gatewayUrl, leaseId, path = '/' }: LeaseUrlParameters): string {
  const gateway = new URL(gatewayUrl)
  const url = new URL(path, `${gateway.protocol}//${BigInt(leaseId)}.${gateway.host}`)
  return url.toString()
}
