import { providerRegistryAbi, taskMarketAbi } from '@gridforge/contracts'
import { type Deployment, taskEvents } from '@gridforge/sdk'
import { type Account, type Chain, type Client, getAbiItem, type Log, type Transport } from 'viem'
import { getBlockNumber, getLogs } from 'viem/actions'

/** The provider registry events the agent acts on (a subscription of its own opens a source's tasks to it). */
const ProviderSubscribed = getAbiItem({ abi: providerRegistryAbi, name: 'ProviderSubscribed' })

/**
 * The market's seat race and audit events: a seat of a task with replicas > 1 taken by a better ticket
 * (the replaced agent drops the task at once), a held result drawn or replicas' results disputed, a round
 * opened (to join), seats taken and lost, the verdict.
 */
const raceAndAuditEvents = [
  getAbiItem({ abi: taskMarketAbi, name: 'ClaimReplaced' }),
  getAbiItem({ abi: taskMarketAbi, name: 'AuditDrawn' }),
  getAbiItem({ abi: taskMarketAbi, name: 'AuditRoundOpened' }),
  getAbiItem({ abi: taskMarketAbi, name: 'AuditorJoined' }),
  getAbiItem({ abi: taskMarketAbi, name: 'AuditorReplaced' }),
  getAbiItem({ abi: taskMarketAbi, name: 'AuditResolved' }),
] as const

/** Every event the agent reads: the market's task, seat race and audit events, and subscriptions. */
export const watchedEvents = [
  ...taskEvents,
  // Those the SDK's task events do not list already.
  ...(raceAndAuditEvents.filter(
    (event) => !taskEvents.some((known) => (known.name as string) === event.name),
  ) as unknown as typeof raceAndAuditEvents),
  ProviderSubscribed,
] as const

/** One decoded event the agent reads. */
export type MarketLog = Log<bigint, number, false, undefined, true, typeof watchedEvents>

export interface WatchMarketParameters {
  client: Client<Transport, Chain, Account>
  deployment: Deployment
  /** The first block to read. */
  fromBlock: bigint
  /** Milliseconds between looks at the chain head. */
  pollingInterval: number
  /** Most blocks per `eth_getLogs` (default 5,000: inside every common RPC's limit). */
  blockRange?: bigint | undefined
  /**
   * Called with each batch of logs, in order, and the last block they cover (also
   * when the batch is empty, so the caller can journal the cursor). The next
   * batch is read once it resolves.
   */
  onLogs: (logs: MarketLog[], toBlock: bigint) => Promise<void>
  onError: (error: unknown) => void
  /** Stops the watch. */
  signal: AbortSignal
}

/**
 * Reads the market's events block range by block range from `fromBlock` (a
 * range whose answer is refused, e.g. too large, is halved until it passes), then
 * follows the chain head: one `eth_blockNumber` per `pollingInterval` while
 * nothing happens, one `eth_getLogs` per new range. Its cost depends on what
 * happens now, never on the market's history. Resolves when `signal` aborts.
 *
 * @example
 * const controller = new AbortController()
 * await watchMarket({ client, deployment, fromBlock: cursor + 1n, pollingInterval: 1_000,
 *   onLogs: async (logs, toBlock) => { for (const log of logs) console.log(log.eventName); await saveCursor(toBlock) },
 *   onError: console.warn, signal: controller.signal })
 */
export async function watchMarket(parameters: WatchMarketParameters): Promise<void> {
  const { client, deployment, pollingInterval, onLogs, onError, signal } = parameters
  const maxRange = parameters.blockRange ?? 5_000n
  const address = [deployment.contracts.market, deployment.contracts.providers]
  // Shrinks when a range's answer is refused (too many logs for the RPC's or viem's response limit), grows back after.
  let range = maxRange
  let passed = 0
  let next = parameters.fromBlock
  let failures = 0
  while (!signal.aborted) {
    try {
      const head = await getBlockNumber(client, { cacheTime: 0 })
      while (next <= head && !signal.aborted) {
        const toBlock = next + range - 1n < head ? next + range - 1n : head
        let logs: MarketLog[]
        try {
          logs = (await getLogs(client, {
            address,
            events: watchedEvents,
            fromBlock: next,
            toBlock,
            strict: true,
          })) as MarketLog[]
        } catch (error) {
          if (toBlock === next) throw error
          range = (toBlock - next + 1n) / 2n
          passed = 0
          continue
        }
        await onLogs(logs, toBlock)
        next = toBlock + 1n
        // Four ranges in a row passed: try a wider one again.
        if (range < maxRange && ++passed >= 4) {
          range = range * 2n < maxRange ? range * 2n : maxRange
          passed = 0
        }
      }
      failures = 0
    } catch (error) {
      if (signal.aborted) return
      onError(error)
      failures++
    }
    // Backs off while the node fails, up to 30 s between tries.
    await pause(Math.min(30_000, pollingInterval * 2 ** Math.min(failures, 8)), signal)
  }
}

/**
 * Waits `ms`, or until `signal` aborts, on a timer that keeps the process alive: the watch is what keeps a
 * running agent's process up while nothing happens (`await agent.done` in a script), unlike the runtimes'
 * unref'd timers.
 */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve()
    const done = () => {
      clearTimeout(timer)
      signal.removeEventListener('abort', done)
      resolve()
    }
    const timer = setTimeout(done, ms)
    signal.addEventListener('abort', done, { once: true })
  })
}
