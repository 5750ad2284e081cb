/**
 * Routing by host: lease 7 of a gateway whose public host is
 * `leases.example.com:8443` is served at `7.leases.example.com:8443`. Each
 * lease is its own web origin, so a page one lease's container serves cannot
 * read another lease's pages nor send it the other renter's cookie (a path
 * prefix would put every lease in one origin), and a service runs at `/` as
 * it expects, with no base URL to configure.
 */

/** The authority (`host[:port]`) at which a gateway whose public host is `publicHost` serves `leaseId`. */
export function leaseAuthority(publicHost: string, leaseId: bigint): string {
  return `${leaseId}.${publicHost.toLowerCase()}`
}

/**
 * The lease a request's `Host` names, `undefined` when it names none: only
 * `<leaseId>.<publicHost>` exactly, the id in decimal without leading zeros.
 * Nothing else in a request (its path, an absolute URI, `X-Forwarded-Host`)
 * picks a lease.
 *
 * @example
 * leaseIdOfHost('7.localhost:8080', 'localhost:8080') // 7n
 * leaseIdOfHost('7.evil.com', 'localhost:8080') // undefined
 */
export function leaseIdOfHost(host: string | undefined, publicHost: string): bigint | undefined {
  if (host === undefined) return undefined
  const suffix = `.${publicHost.toLowerCase()}`
  const lower = host.toLowerCase()
  if (!lower.endsWith(suffix)) return undefined
  const label = lower.slice(0, -suffix.length)
  if (!/^(0|[1-9]\d{0,77})$/.test(label)) return undefined
  const leaseId = BigInt(label)
  return leaseId < 2n ** 256n ? leaseId : undefined
}
