/**
 * The terms of submitted tasks (`getTask`), read for many submissions at once. A `submitTasks` batch emits a
 * hundred TaskSubmitted in one block, and a read per event kept the sync at ~60 events/s on a Hardhat node,
 * which answers one call at a time. Here a TaskSubmitted whose terms are not cached reads them with the next
 * tasks submitted (up to the market's `taskCount`) in one `eth_call` of the market's own `multicall`
 * (OpenZeppelin's: it delegates each `getTask` to itself and returns every answer); the others take theirs
 * from the cache. A deployless multicall returned its answers as code, 24 KB at most: 16 tasks a call, and
 * half the sync's time went to those calls.
 *
 * The batch goes through a client of its own, not `context.client`: Ponder profiles that client's calls and
 * prefetches the pattern for every coming event, which for a batch of tasks is that many times the work.
 */
import type { Context } from 'ponder:registry'
import { createPublicClient, decodeFunctionResult, encodeFunctionData, getAbiItem, http } from 'viem'
import { readRpcUrl } from '../environment.js'

type Market = Context['contracts']['TaskMarket']
type Task = Awaited<ReturnType<typeof readOne>>

/** Tasks read in one call (~1.2 KB of answer each). */
const batchSize = 128

/**
 * Terms read ahead, by task id, each taken out when its TaskSubmitted comes: the answer of the batch that
 * read it (`undefined` when the id was not submitted yet then). The next batch is asked for while the
 * current one is half used, so that the node's work overlaps the indexing instead of stalling it. Terms
 * never change once submitted, so they are read at the chain's head, where a node answers fastest (a
 * Hardhat node rebuilds the state of a past block for each call). After a re-org an id may name another
 * submission: what the head says is then the canonical one, and Ponder indexes the canonical events again.
 */
const readAhead = new Map<bigint, Promise<Task | undefined>>()
/** The first id after the last batch asked for. */
let nextBatch: bigint | undefined
let batchClient: ReturnType<typeof createPublicClient> | undefined

function readOne(context: Context, market: Market, taskId: bigint, blockNumber: bigint) {
  return context.client.readContract({
    abi: market.abi,
    address: market.address,
    functionName: 'getTask',
    args: [taskId],
    blockNumber,
  })
}

/** Asks for the terms of tasks `first` to `first + batchSize − 1` that are submitted by now, in one call. */
function readBatch(market: Market, first: bigint): void {
  batchClient ??= createPublicClient({ transport: http(readRpcUrl(process.env)) })
  const client = batchClient
  // The functions read, not the market's whole ABI: the calls' types stay shallow.
  const getTask = [getAbiItem({ abi: market.abi, name: 'getTask' })] as const
  const multicall = [getAbiItem({ abi: market.abi, name: 'multicall' })] as const
  const taskCount = [getAbiItem({ abi: market.abi, name: 'taskCount' })] as const
  const batch = (async () => {
    const answers = new Map<bigint, Task>()
    // getTask of an id not submitted yet reverts, and would revert the whole multicall.
    const count = await client.readContract({
      abi: taskCount,
      address: market.address,
      functionName: 'taskCount',
    })
    const last = count < first + BigInt(batchSize - 1) ? count : first + BigInt(batchSize - 1)
    const ids: bigint[] = []
    for (let id = first; id <= last; id++) ids.push(id)
    if (ids.length === 0) return answers
    const results = await client.readContract({
      abi: multicall,
      address: market.address,
      functionName: 'multicall',
      args: [ids.map((id) => encodeFunctionData({ abi: getTask, functionName: 'getTask', args: [id] }))],
    })
    ids.forEach((id, i) => {
      answers.set(
        id,
        decodeFunctionResult({ abi: getTask, functionName: 'getTask', data: results[i] ?? '0x' }),
      )
    })
    return answers
  })()
    // A node that cannot answer the batch: each task is then read alone, and its error surfaces there.
    .catch(() => new Map<bigint, Task>())
  for (let i = 0n; i < BigInt(batchSize); i++) {
    const id = first + i
    readAhead.set(
      id,
      batch.then((answers) => answers.get(id)),
    )
  }
  nextBatch = first + BigInt(batchSize)
}

/** `taskId`'s terms as the market stored them at the end of the block it was submitted in. */
export async function submittedTerms(context: Context, taskId: bigint, blockNumber: bigint): Promise<Task> {
  const market = context.contracts.TaskMarket
  if (!readAhead.has(taskId)) readBatch(market, taskId)
  const read = readAhead.get(taskId)
  readAhead.delete(taskId)
  // Half through a batch: ask for the next one.
  if (nextBatch !== undefined && nextBatch - taskId <= BigInt(batchSize / 2) && !readAhead.has(nextBatch))
    readBatch(market, nextBatch)
  return (await read) ?? readOne(context, market, taskId, blockNumber)
}
