/**
 * The terms of submitted tasks (`getTask`), read for a block's submissions at once. A `submitTasks` batch emits
 * a hundred TaskSubmitted in one block, and a read per event kept the sync at ~60 events/s on a Hardhat node,
 * which answers one call at a time. Here a TaskSubmitted whose terms are not cached reads them with the next
 * tasks of its block in one deployless multicall (no Multicall3 contract needed); the others take theirs from
 * the cache.
 *
 * The batch goes through a client of its own, not `context.client`: Ponder profiles that client's calls and
 * prefetches the pattern for every coming event, which for a multicall of 16 tasks is 16 times the work.
 */
import type { Context } from 'ponder:registry'
import { createPublicClient, getAbiItem, http } from 'viem'
import { readRpcUrl } from '../environment.js'

type Market = Context['contracts']['TaskMarket']
type Task = Awaited<ReturnType<typeof readOne>>

/** Tasks read in one call: their answers (~1.2 KB each) must fit the 24 KB a deployless multicall returns. */
const batchSize = 16

/**
 * Terms read ahead, by task id, each taken out when its TaskSubmitted comes. Terms never change once
 * submitted, so they are read at the chain's head, where a node answers fastest (a Hardhat node rebuilds the
 * state of a past block for each call). After a re-org an id may name another submission: what the head says
 * is then the canonical one, and Ponder indexes the canonical events again.
 */
const readAhead = new Map<bigint, Task>()
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

/** `taskId`'s terms as the market stored them at the end of the block it was submitted in. */
export async function submittedTerms(context: Context, taskId: bigint, blockNumber: bigint): Promise<Task> {
  const market = context.contracts.TaskMarket
  const hit = readAhead.get(taskId)
  readAhead.delete(taskId)
  if (hit !== undefined) return hit

  batchClient ??= createPublicClient({ transport: http(readRpcUrl(process.env)) })
  // This id and the next ones (those not submitted yet fail and are left out).
  const ids = Array.from({ length: batchSize }, (_, i) => taskId + BigInt(i))
  // The one function, not the market's whole ABI: the call's types stay shallow.
  const abi = [getAbiItem({ abi: market.abi, name: 'getTask' })] as const
  const results = await batchClient.multicall({
    contracts: ids.map(
      (id) => ({ abi, address: market.address, functionName: 'getTask', args: [id] }) as const,
    ),
    deployless: true,
    // One call for the batch (a deployless multicall returns its results as code, at most 24 KB of it).
    batchSize: 0,
  })
  // Read ahead only what is still to come; a read that failed here (it should not) is tried alone, at the
  // submission's block, so that its error surfaces.
  let own: Task | undefined
  ids.forEach((id, i) => {
    const result = results[i]
    if (result?.status !== 'success') return
    if (id === taskId) own = result.result
    else readAhead.set(id, result.result)
  })
  return own ?? readOne(context, market, taskId, blockNumber)
}
