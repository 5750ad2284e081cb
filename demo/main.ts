/**
 * `pnpm demo` — the whole Gridforge job on this machine, in about a minute:
 * a local chain with the contracts deployed, three provider agents (each its
 * own account, stake and journal) running tasks in Docker containers, a client
 * submitting a batch that includes a 3-replica consensus task, then the
 * results, the verified receipts and the balances that moved. The single-
 * replica results are held for their audit draw and released a couple of
 * blocks later (the chain mines a block a second); one drawn for an audit is
 * re-run by another provider before it is paid. The indexer follows the
 * chain beside them and counts the same tasks.
 */
import type { Logger } from '@gridforge/provider-kit'
import {
  approveMarket,
  createIndexerClient,
  getNetworkStats,
  getReceipt,
  getTaskResult,
  getTasks,
  getWalletBalance,
  submitTasks,
} from '@gridforge/sdk'
import { getBytes } from '@gridforge/sdk/storage'
import { formatUnits } from 'viem'
import { type LocalNetworkStepId, startLocalNetwork } from './localNetwork.js'
import { bold, dim, green, red, step, yellow } from './print.js'

const started = Date.now()
const texts = [
  'the quick brown fox jumps over the lazy dog',
  'to be or not to be that is the question',
  'all happy families are alike each unhappy family is unhappy in its own way',
  'it was the best of times it was the worst of times',
  'call me ishmael',
]
const consensusText = 'in the beginning the universe was created this has made a lot of people very angry'

const names = ['provider A', 'provider B', 'provider C']
const titles: Record<LocalNetworkStepId, string> = {
  chain: 'Starting a local chain and deploying Gridforge with Ignition',
  funding: 'Funding the client and three providers with GRID',
  image: 'Providing the source image',
  sources: 'Publishing the sources (metadata on the local store, digest on chain)',
  providers: "Registering three providers (stake, this host's profile and capabilities, subscription)",
  agents: 'Starting the three provider agents',
  indexer: 'Starting the indexer (Ponder on PGlite) and its REST API',
}
// The network every local tool shares (localNetwork.ts), with three providers narrated here.
await using network = await startLocalNetwork({
  providers: 3,
  pollingInterval: 100,
  onStep: ({ id }) => step(titles[id]),
  log: (line) => console.log(dim(line)),
  warn: (message) => console.log(yellow(`  ⚠ ${message}`)),
  agentLogger: ({ index, address }) => narrator(names[index] ?? address),
  indexer: true,
})
const { deployment, store } = network
const sourceId = network.sourceIds.wordCount
const client = network.wallet(network.devPrivateKey)
const providerName = new Map(network.providers.map((provider, index) => [provider.address, names[index]]))

step('Submitting a batch: 5 single-replica tasks and one consensus task (3 replicas)')
const balancesBefore = await balances()
const inputs = await Promise.all(texts.map((text) => store.put(new TextEncoder().encode(text))))
const consensusInput = await store.put(new TextEncoder().encode(consensusText))
await approveMarket(client, { deployment, amount: '100' })
const submitted = await submitTasks(client, {
  deployment,
  tasks: [
    ...inputs.map((input) => ({ sourceId, input, maxPayment: '2' as const, deadline: '1h' as const })),
    { sourceId, input: consensusInput, maxPayment: '3' as const, replicas: 3, deadline: '1h' as const },
  ],
})
const taskIds = submitted.tasks.map((task) => task.taskId)
console.log(dim(`  tasks ${taskIds.join(', ')} escrowed ${formatUnits(submitted.escrow, 18)} GRID`))

step('Waiting for every task to settle')
let last = ''
// A single-replica result of these deterministic sources is held for two blocks, then released (paid) or,
// one time in ten, audited: another provider re-runs it after the one-minute joining window.
let audited = false
for (;;) {
  const tasks = await getTasks(client, { deployment, taskIds })
  const line = tasks.map((task) => `#${task.taskId} ${task.status}`).join('  ')
  if (line !== last) console.log(dim(`  ${line}`))
  last = line
  if (!audited && tasks.some((task) => task.status === 'Auditing')) {
    audited = true
    console.log(
      dim(
        '  a result was drawn for an audit: another provider re-runs it once the 1-minute joining window closes',
      ),
    )
  }
  if (tasks.every((task) => ['Completed', 'Failed', 'Expired', 'Cancelled'].includes(task.status))) break
  if (Date.now() - started > (audited ? 240_000 : 110_000)) throw new Error('tasks did not settle in time')
  await new Promise((resolve) => setTimeout(resolve, 250))
}
await Promise.all(network.providers.map((provider) => provider.agent.stop()))

step('Results and receipts')
let failures = 0
for (const [index, taskId] of taskIds.entries()) {
  const result = await getTaskResult(client, { deployment, taskId })
  const text = index < texts.length ? texts[index] : consensusText
  const words = result.resultCID
    ? new TextDecoder().decode(await getBytes(store, result.resultCID, { path: 'words' })).trim()
    : '—'
  const receipts = await getReceipt(client, { deployment, taskId, store })
  const verified = receipts.every((receipt) => receipt.status === 'verified')
  if (!verified || result.status !== 'Completed') failures++
  const by = receipts
    .map((receipt) => providerName.get(receipt.settlement.provider) ?? receipt.settlement.provider)
    .join(', ')
  console.log(
    `  task ${taskId} ${result.status === 'Completed' ? green(result.status) : red(result.status)}: "${text}" → ${bold(words)} words`,
  )
  console.log(
    dim(
      `    ${receipts.length} receipt(s) ${verified ? green('verified') : red('NOT verified')} (by ${by}); output ${result.resultCID}`,
    ),
  )
  // Say what disagreed, so a failed check can be diagnosed from the output alone.
  for (const receipt of receipts)
    if (receipt.status === 'mismatch')
      for (const mismatch of receipt.mismatches)
        console.log(
          red(
            `    slot ${receipt.settlement.slot} ${mismatch.field}: chain ${mismatch.expected}, receipt ${mismatch.actual}`,
          ),
        )
}

step('The market as the indexer saw it (its REST API)')
const indexed = await indexedStats(taskIds.length)
console.log(
  `  ${indexed.tasks} tasks, ${indexed.completedTasks} completed, ${formatUnits(indexed.totalPaid, 18)} GRID paid, ${indexed.activeProviders} active providers ${dim(`(as of block ${indexed.blockNumber}, ${network.indexerUrl})`)}`,
)
if (indexed.completedTasks < taskIds.length - failures) {
  failures++
  console.log(
    red(
      `  the indexer counts ${indexed.completedTasks} completed tasks, not ${taskIds.length - failures + 1}`,
    ),
  )
}

step('Balances that moved (GRID held in the market by each account)')
const balancesAfter = await balances()
for (const [name, before] of balancesBefore) {
  const after = balancesAfter.get(name) ?? 0n
  const delta = after - before
  console.log(
    `  ${name.padEnd(12)} ${formatUnits(after, 18).padStart(10)} (${delta >= 0n ? '+' : ''}${formatUnits(delta, 18)})`,
  )
}
console.log(
  failures === 0
    ? green(
        `\n✔ ${taskIds.length} tasks executed, paid and verified in ${((Date.now() - started) / 1000).toFixed(1)} s`,
      )
    : red(`\n✘ ${failures} task(s) did not complete with a verified receipt`),
)
process.exitCode = failures === 0 ? 0 : 1

/**
 * The indexer's market statistics once it has indexed `settled` settlements (it follows the chain a poll
 * behind), or after 15 s what it has. A fallback to the chain is an error here: the indexer must answer.
 */
async function indexedStats(settled: number) {
  let fellBack: Error | undefined
  const indexer = createIndexerClient({
    url: network.indexerUrl as string,
    onFallback: ({ error }) => {
      fellBack = error
    },
  })
  const deadline = Date.now() + 15_000
  for (;;) {
    const stats = await getNetworkStats(client, { deployment, indexer })
    if (fellBack !== undefined) throw new Error(`the indexer did not answer: ${fellBack.message}`)
    if (stats.settledTasks >= settled || Date.now() > deadline) return stats
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}

/** Client wallet + token balances, and each provider's market balance (its earnings). */
async function balances(): Promise<Map<string, bigint>> {
  const entries: [string, bigint][] = []
  const { balance, token } = await getWalletBalance(client, { deployment, account: client.account.address })
  entries.push(['client', balance + token])
  for (const { address } of network.providers) {
    const earned = await getWalletBalance(client, { deployment, account: address })
    entries.push([providerName.get(address) ?? address, earned.balance])
  }
  return new Map(entries)
}

/** A logger that tells the story: the agent's key events, one line each; warnings and errors in full. */
function narrator(name: string, bound: Record<string, unknown> = {}): Logger {
  const verbs: Record<string, string> = {
    claimed: 'claimed',
    running: 'runs',
    're-attaching to its container': 're-attaches to',
    'result submitted': 'submitted its result for',
    'result released': 'was paid (result released) for',
    'result drawn for an audit': 'had its result drawn for an audit:',
    'joined an audit': 'joined the audit of',
    'holds its audit seat: running the task': 'holds the audit seat of',
    'audit settled': 'saw the audit settle for',
    'result committed': 'committed to its result for',
    'result revealed': 'revealed its result for',
    'task abandoned': 'abandoned',
    'task refused': 'refused',
  }
  const show = (message: string, fields: Record<string, unknown> = {}) => {
    const all = { ...bound, ...fields }
    const verb = verbs[message]
    if (verb !== undefined)
      console.log(dim(`  ${name} ${verb}${all.taskId === undefined ? '' : ` task ${all.taskId}`}`))
  }
  const loud =
    (paint: (text: string) => string) =>
    (message: string, fields: Record<string, unknown> = {}) =>
      console.log(paint(`  ${name}: ${message} ${JSON.stringify({ ...bound, ...fields }, replacer)}`))
  return {
    debug() {},
    info: show,
    warn: loud(yellow),
    error: loud(red),
    child: (fields) => narrator(name, { ...bound, ...fields }),
  }
}

function replacer(_key: string, value: unknown) {
  return typeof value === 'bigint' ? value.toString() : value
}
