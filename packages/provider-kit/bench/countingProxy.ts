/**
 * A JSON-RPC proxy on 127.0.0.1 that forwards every request to a node and
 * records what went through: the methods (each call of a batch counted), the
 * bytes each way, and when each exchange started and ended. A client pointed
 * at `proxy.url` is counted; everything else talks to the node directly.
 */
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'

/** One HTTP exchange: a single JSON-RPC call or a batch. */
export interface RpcExchange {
  /** The method of each call, in order (one entry unless batched). */
  methods: string[]
  /** `performance.now()` when the request arrived. */
  startedAt: number
  /** `performance.now()` when the response was sent; `undefined` while in flight. */
  endedAt: number | undefined
  requestBytes: number
  responseBytes: number
}

export interface CountingProxy extends AsyncDisposable {
  /** `http://127.0.0.1:<port>` */
  url: string
  /** Every exchange so far, oldest first. */
  readonly exchanges: readonly RpcExchange[]
  close(): Promise<void>
}

/** What went through the proxy in a time window. */
export interface RpcTally {
  /** JSON-RPC calls (a batch counts each of its calls). */
  calls: number
  byMethod: Record<string, number>
  requestBytes: number
  responseBytes: number
}

/**
 * Starts a counting proxy in front of `target`.
 *
 * @example
 * await using proxy = await startCountingProxy(devnet.rpcUrl)
 * const client = createPublicClient({ chain: hardhat, transport: http(proxy.url) })
 * await client.getBlockNumber()
 * tally(proxy.exchanges).byMethod // { eth_blockNumber: 1 }
 */
export async function startCountingProxy(target: string): Promise<CountingProxy> {
  const exchanges: RpcExchange[] = []
  const server = createServer((request, response) => {
    void (async () => {
      const body = await readBody(request)
      const exchange: RpcExchange = {
        methods: methodsOf(body),
        startedAt: performance.now(),
        endedAt: undefined,
        requestBytes: body.byteLength,
        responseBytes: 0,
      }
      exchanges.push(exchange)
      try {
        const forwarded = await fetch(target, {
          method: 'POST',
          headers: { 'content-type': request.headers['content-type'] ?? 'application/json' },
          body: new Uint8Array(body),
        })
        const answer = Buffer.from(await forwarded.arrayBuffer())
        exchange.responseBytes = answer.byteLength
        response.writeHead(forwarded.status, {
          'content-type': forwarded.headers.get('content-type') ?? 'application/json',
          'content-length': answer.byteLength,
        })
        response.end(answer)
      } catch (error) {
        // The node is gone (the bench is shutting down): answer like an unreachable node would.
        response.writeHead(502).end(String(error))
      } finally {
        exchange.endedAt = performance.now()
      }
    })()
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const { port } = server.address() as AddressInfo
  let closing: Promise<void> | undefined
  const close = () => {
    closing ??= new Promise<void>((resolve) => {
      server.closeAllConnections()
      server.close(() => resolve())
    })
    return closing
  }
  return { url: `http://127.0.0.1:${port}`, exchanges, close, [Symbol.asyncDispose]: close }
}

/** Sums the exchanges that started in `[from, to)` (`performance.now()` times). */
export function tally(exchanges: readonly RpcExchange[], from = 0, to = Number.POSITIVE_INFINITY): RpcTally {
  const result: RpcTally = { calls: 0, byMethod: {}, requestBytes: 0, responseBytes: 0 }
  for (const exchange of exchanges) {
    if (exchange.startedAt < from || exchange.startedAt >= to) continue
    result.calls += exchange.methods.length
    result.requestBytes += exchange.requestBytes
    result.responseBytes += exchange.responseBytes
    for (const method of exchange.methods) result.byMethod[method] = (result.byMethod[method] ?? 0) + 1
  }
  return result
}

/**
 * Methods a watching agent polls with when nothing happens. An exchange of
 * only these, with a small answer, is not work; anything else (a task read,
 * a transaction, a log query that returns a backlog) is.
 */
const pollMethods = new Set([
  'eth_blockNumber',
  'eth_chainId',
  'eth_getBlockByNumber',
  'eth_getFilterChanges',
  'eth_getLogs',
  'eth_newFilter',
  'eth_newBlockFilter',
  'eth_uninstallFilter',
])
/** Largest answer of a poll that found nothing (a block header is ~1.2 kB on Hardhat). */
const pollBytes = 4_096

/** Whether an exchange is work rather than a poll that found nothing new. */
export function isWork(exchange: RpcExchange): boolean {
  return exchange.responseBytes > pollBytes || exchange.methods.some((method) => !pollMethods.has(method))
}

export interface WaitForQuietParameters {
  /** Look at exchanges from this `performance.now()` time on. */
  from: number
  /** Work must end at least this long ago, with none in flight (ms). */
  quietMs: number
  /** Give up after this long (ms). */
  timeoutMs: number
}

/**
 * Waits until the proxy has seen no work for `quietMs` (only empty polls)
 * and returns when the last work ended (`from` when there was none), or
 * `undefined` if that did not happen within `timeoutMs`.
 *
 * @example
 * const started = performance.now()
 * const agent = await startAgent({ ...options, client })
 * const idleAt = await waitForQuiet(proxy, { from: started, quietMs: 3_000, timeoutMs: 120_000 })
 */
export async function waitForQuiet(
  proxy: Pick<CountingProxy, 'exchanges'>,
  { from, quietMs, timeoutMs }: WaitForQuietParameters,
): Promise<number | undefined> {
  const giveUpAt = performance.now() + timeoutMs
  for (;;) {
    let lastWork = from
    let inFlight = false
    for (const exchange of proxy.exchanges) {
      if (exchange.startedAt < from) continue
      // Any request in flight blocks quiet: until its answer is in, a poll may be a backlog being read.
      if (exchange.endedAt === undefined) inFlight = true
      else if (isWork(exchange)) lastWork = Math.max(lastWork, exchange.endedAt)
    }
    const now = performance.now()
    if (!inFlight && now - lastWork >= quietMs) return lastWork
    if (now > giveUpAt) return undefined
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

/** The method of each call in a JSON-RPC request body (a single call or a batch). */
function methodsOf(body: Buffer): string[] {
  try {
    const parsed: unknown = JSON.parse(body.toString('utf8'))
    const calls = Array.isArray(parsed) ? parsed : [parsed]
    return calls.map((call) =>
      typeof call === 'object' && call !== null && typeof (call as { method?: unknown }).method === 'string'
        ? (call as { method: string }).method
        : '(invalid)',
    )
  } catch {
    return ['(unparsable)']
  }
}
