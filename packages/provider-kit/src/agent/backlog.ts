import { taskMarketAbi } from '@gridforge/contracts'
import { type Deployment, listTasks, type Task } from '@gridforge/sdk'
import type { Account, Chain, Client, Transport } from 'viem'
import { getBlock, readContract } from 'viem/actions'

/**
 * The tasks that may still be taken, on an agent's first start: those
 * submitted within the market's longest task life (`MAX_TASK_DURATION`, 30
 * days) and not final. Older tasks are past their deadline, whatever the size
 * of the history before them.
 */
export async function readBacklog(
  client: Client<Transport, Chain, Account>,
  deployment: Deployment,
): Promise<{ tasks: Task[]; toBlock: bigint }> {
  const head = await getBlock(client, { blockTag: 'latest' })
  const lifetime = await readContract(client, {
    address: deployment.contracts.market,
    abi: taskMarketAbi,
    functionName: 'MAX_TASK_DURATION',
  })
  const fromBlock = await firstBlockAtOrAfter(
    client,
    head.timestamp - BigInt(lifetime),
    BigInt(deployment.blockNumber),
    head.number,
  )
  const tasks = await listTasks(client, {
    deployment,
    status: ['Open', 'Claimed', 'Revealing'],
    fromBlock,
    toBlock: head.number,
  })
  return { tasks, toBlock: head.number }
}

/** The first block in [low, high] whose timestamp is ≥ `time` (a binary search: about log2(high − low) reads). */
export async function firstBlockAtOrAfter(
  client: Client<Transport, Chain, Account>,
  time: bigint,
  low: bigint,
  high: bigint,
): Promise<bigint> {
  const timestamp = async (blockNumber: bigint) => (await getBlock(client, { blockNumber })).timestamp
  if ((await timestamp(low)) >= time) return low
  while (high - low > 1n) {
    const middle = (low + high) / 2n
    if ((await timestamp(middle)) >= time) high = middle
    else low = middle
  }
  return high
}
