import type {
  AbiEvent,
  Account,
  Address,
  Chain,
  Client,
  GetLogsParameters,
  GetLogsReturnType,
  Transport,
} from 'viem'
import { getBlockNumber, getLogs } from 'viem/actions'
import { getAction } from 'viem/utils'
import { InvalidParametersError } from '../errors/validation.js'
import type { Deployment } from '../types/deployment.js'

/** Most `eth_getLogs` requests in flight at once. */
const concurrency = 4

export interface GetLogsPaginatedParameters<event extends AbiEvent> {
  /** The contract that emitted the logs. */
  address: Address
  /** The event to read. */
  event: event
  /** Values of indexed arguments to match (an array matches any of its values). */
  args?: GetLogsParameters<event>['args'] | undefined
  /** First block to read, inclusive (usually the deployment's `blockNumber`). */
  fromBlock: bigint
  /** Last block to read, inclusive (default: the latest block). */
  toBlock?: bigint | undefined
  /**
   * Most blocks per `eth_getLogs` request. Default: the whole range in one
   * request. Either way, a page the RPC refuses as too large (block range or
   * result limits) is halved and asked again, and later pages use the smaller
   * size.
   */
  blockRange?: bigint | undefined
}

export type GetLogsPaginatedReturnType<event extends AbiEvent> = GetLogsReturnType<event, [event], true>

/**
 * Reads the logs of one event over a block range, `blockRange` blocks per
 * `eth_getLogs` request (up to four in flight), in block order. Pages an RPC
 * refuses for their size are split in half until they pass; other errors
 * (unreachable, unauthorised, rate-limited) are thrown as viem raised them.
 *
 * @example
 * import { TaskSubmitted } from '../abis/taskMarket.js'
 *
 * const logs = await getLogsPaginated(client, {
 *   address: deployment.contracts.market,
 *   event: TaskSubmitted,
 *   args: { client: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266' },
 *   fromBlock: BigInt(deployment.blockNumber),
 *   blockRange: 2_000n,
 * })
 */
export async function getLogsPaginated<const event extends AbiEvent>(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  { address, event, args, fromBlock, toBlock, blockRange }: GetLogsPaginatedParameters<event>,
): Promise<GetLogsPaginatedReturnType<event>> {
  if (blockRange !== undefined && blockRange < 1n) {
    throw new RangeError('getLogsPaginated: blockRange must be at least 1n')
  }
  const read = (from: bigint, to: bigint | 'latest') =>
    getAction(
      client,
      getLogs,
      'getLogs',
    )({ address, event, args, fromBlock: from, toBlock: to, strict: true } as never) as Promise<
      GetLogsPaginatedReturnType<event>
    >
  if (toBlock === undefined && blockRange === undefined) {
    // One request up to the latest block; the block number is only needed to split a refused range.
    try {
      return await read(fromBlock, 'latest')
    } catch (error) {
      if (!isRangeError(error)) throw error
    }
  }
  const endBlock = toBlock ?? (await getAction(client, getBlockNumber, 'getBlockNumber')({ cacheTime: 0 }))
  if (fromBlock > endBlock) return []

  let size = blockRange ?? endBlock - fromBlock + 1n
  let cursor = fromBlock
  const retries: [bigint, bigint][] = []
  const pages: { from: bigint; logs: GetLogsPaginatedReturnType<event> }[] = []
  let failed = false
  const nextPage = (): [bigint, bigint] | undefined => {
    const retry = retries.shift()
    if (retry !== undefined) return retry
    if (cursor > endBlock) return undefined
    const from = cursor
    const end = from + size - 1n
    const to = end < endBlock ? end : endBlock
    cursor = to + 1n
    return [from, to]
  }
  const worker = async () => {
    for (let page = nextPage(); page !== undefined && !failed; page = nextPage()) {
      const [from, to] = page
      try {
        pages.push({ from, logs: await read(from, to) })
      } catch (error) {
        if (from === to || !isRangeError(error)) {
          failed = true
          throw error
        }
        const half = (to - from + 1n) / 2n
        if (half < size) size = half
        // Depth first: an error that no range avoids reaches a single block (and is thrown) in log2(range) tries.
        retries.unshift([from, from + half - 1n], [from + half, to])
      }
    }
  }
  // Workers stop when no page is left; a worker whose page was split queues both halves and takes them itself.
  await Promise.all(Array.from({ length: concurrency }, worker))
  pages.sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : 0))
  return pages.flatMap((page) => page.logs) as GetLogsPaginatedReturnType<event>
}

/**
 * Whether a failed `eth_getLogs` may pass with a smaller range: not when the
 * RPC is unreachable, refuses the caller or rate-limits it.
 */
export function isRangeError(error: unknown): boolean {
  // By name, not `instanceof`: the client's viem may be another copy than the SDK's (another version, or the
  // same one installed twice), whose error classes are other classes. Seen at 100,000 tasks, where a
  // ResponseBodyTooLargeError of the application's viem went unsplit.
  const chain: ErrorLike[] = []
  for (let inner: unknown = error; isObject(inner) && chain.length < 16; inner = inner.cause)
    chain.push(inner)
  if (!chain.some((inner) => typeof inner.shortMessage === 'string')) return false
  const cause = chain.find((inner) => inner.name === 'HttpRequestError' || inner.name === 'RpcRequestError')
  if (cause === undefined) return true
  if (cause.name === 'RpcRequestError') return cause.code !== 429
  return cause.status !== undefined && cause.status !== 401 && cause.status !== 403 && cause.status !== 429
}

/** What `isRangeError` reads of an error and its causes (viem's `BaseError` fields). */
interface ErrorLike {
  name?: unknown
  shortMessage?: unknown
  cause?: unknown
  code?: unknown
  status?: unknown
}

function isObject(value: unknown): value is ErrorLike {
  return typeof value === 'object' && value !== null
}

/**
 * The blocks a log-reading action covers: from `fromBlock` (default: the
 * deployment's block) to `toBlock` (default: the latest block, read once here
 * so that every query of the action ends at the same block). A `blockRange`
 * below 1 or a `toBlock` before `fromBlock` throws `InvalidParametersError`.
 */
export async function blockWindow(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  action: string,
  deployment: Pick<Deployment, 'blockNumber'>,
  params: { fromBlock?: bigint | undefined; toBlock?: bigint | undefined; blockRange?: bigint | undefined },
): Promise<{ fromBlock: bigint; toBlock: bigint }> {
  const fromBlock = params.fromBlock ?? BigInt(deployment.blockNumber)
  const invalid = [
    ...(params.blockRange !== undefined && params.blockRange < 1n
      ? [{ path: 'blockRange', message: 'must be at least 1n' }]
      : []),
    ...(params.toBlock !== undefined && params.toBlock < fromBlock
      ? [{ path: 'toBlock', message: 'must not be before fromBlock' }]
      : []),
  ]
  if (invalid.length > 0) throw new InvalidParametersError({ action, fields: invalid })
  const toBlock =
    params.toBlock ?? (await getAction(client, getBlockNumber, 'getBlockNumber')({ cacheTime: 0 }))
  return { fromBlock, toBlock }
}
