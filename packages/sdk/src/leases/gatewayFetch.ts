import { LeaseGatewayError } from '../errors/lease.js'

/** The `fetch` the lease gateway helpers use: the global one, or one you pass (a proxy, a test double). */
export type FetchFunction = (input: string, init?: RequestInit) => Promise<Response>

/**
 * Calls a gateway endpoint and returns its response, or throws
 * {@link LeaseGatewayError} when it cannot be reached or times out.
 */
export async function callGateway(
  fetchFunction: FetchFunction,
  url: string,
  init: RequestInit & { timeoutMs?: number | undefined } = {},
): Promise<Response> {
  const { timeoutMs = 10_000, ...rest } = init
  try {
    return await fetchFunction(url, { ...rest, signal: AbortSignal.timeout(timeoutMs) })
  } catch (error) {
    throw new LeaseGatewayError({ url, reason: (error as Error).message, cause: error })
  }
}

/** The `reason` of a gateway's JSON refusal, or the status text. */
export async function refusalReason(response: Response): Promise<string> {
  try {
    const body = (await response.json()) as { reason?: unknown }
    if (typeof body.reason === 'string') return body.reason
  } catch {}
  return response.statusText || `HTTP ${response.status}`
}
