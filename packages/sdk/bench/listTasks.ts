/**
 * How many JSON-RPC requests `listTasks` needs for 1,000 tasks with their
 * state, on a fresh devnet. Exits non-zero above 5 requests.
 *
 *   pnpm --filter @gridforge/sdk bench
 *
 * Options (environment): TASKS (default 1000), MAX_REQUESTS (default 5).
 */
import { createPublicClient, createWalletClient, erc20Abi, http, parseUnits, publicActions } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { hardhat } from 'viem/chains'
import { startDevnet } from '../../contracts/scripts/devnet.js'
import { listTasks } from '../src/tasks/listTasks.js'
import type { Deployment } from '../src/types/deployment.js'
import {
  countingTransport,
  type FixtureClient,
  publishSource,
  send,
  submitFixtureTasks,
} from '../test/fixtures.js'

const taskCount = Number(process.env.TASKS ?? 1_000)
const maxRequests = Number(process.env.MAX_REQUESTS ?? 5)
/** Tasks per submitTasks transaction: about 85,000 gas each, inside the 2^24 gas cap of a transaction. */
const tasksPerTransaction = 100

await using devnet = await startDevnet()
const deployment: Deployment = devnet.deployment
const key = (index: number) => {
  const found = devnet.privateKeys[index]
  if (found === undefined) throw new Error(`devnet: no account ${index}`)
  return found
}
const account = privateKeyToAccount(key(1))
const setupTransport = http(devnet.rpcUrl)
const wallet = createWalletClient({ account, chain: hardhat, transport: setupTransport }).extend(
  publicActions,
) as unknown as FixtureClient

// Account 1 has no GRID: the deployer (account 0, an unlocked node account) sends it some.
const deployer = createWalletClient({
  account: privateKeyToAccount(key(0)),
  chain: hardhat,
  transport: setupTransport,
}).extend(publicActions) as unknown as FixtureClient
await send(deployer, {
  address: deployment.contracts.token,
  abi: erc20Abi,
  functionName: 'transfer',
  args: [account.address, parseUnits(String(taskCount + 100), 18)],
})

const setupStarted = performance.now()
const sourceId = await publishSource(wallet, deployment)
const submitted: bigint[] = []
for (let done = 0; done < taskCount; done += tasksPerTransaction) {
  const { taskIds } = await submitFixtureTasks(wallet, deployment, {
    sourceId,
    count: Math.min(tasksPerTransaction, taskCount - done),
  })
  submitted.push(...taskIds)
}
console.log(
  `submitted ${submitted.length} tasks in ${Math.ceil(taskCount / tasksPerTransaction)} transactions (${Math.round(performance.now() - setupStarted)} ms)`,
)

const counter = countingTransport(devnet.rpcUrl)
const reader = createPublicClient({ chain: hardhat, transport: counter.transport })
const started = performance.now()
const tasks = await listTasks(reader, { deployment, client: account.address })
const elapsed = performance.now() - started
const requests = counter.count()

const withState = tasks.filter((task) => task.status === 'Open' && task.inputCID !== undefined).length
console.log(
  `listTasks: ${tasks.length} tasks (${withState} Open with inputCID) in ${requests} JSON-RPC requests, ${Math.round(elapsed)} ms`,
)
console.log(`requests: ${counter.methods().join(', ')}`)
if (tasks.length !== taskCount || withState !== taskCount) {
  console.error(`expected ${taskCount} open tasks with their input, got ${withState}`)
  process.exitCode = 1
} else if (requests > maxRequests) {
  console.error(`too many requests: ${requests} > ${maxRequests}`)
  process.exitCode = 1
}
