/**
 * `pnpm demo` — the whole Gridforge job on this machine, in about a minute:
 * a local chain with the contracts deployed, three provider agents (each its
 * own account, stake and journal) running tasks in Docker containers, a client
 * submitting a batch that includes a 3-replica consensus task, then the
 * results, the verified receipts and the balances that moved.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  type Agent,
  type ContainerRuntime,
  capabilitiesOf,
  detectHost,
  dockerRuntime,
  type Logger,
  processRuntime,
  startAgent,
} from '@gridforge/provider-kit'
import {
  approveMarket,
  type Deployment,
  getReceipt,
  getTaskResult,
  getTasks,
  getWalletBalance,
  publishSource,
  registerProvider,
  stake,
  submitTasks,
  subscribeSources,
} from '@gridforge/sdk'
import { fsStore, getBytes } from '@gridforge/sdk/storage'
import {
  createWalletClient,
  erc20Abi,
  formatUnits,
  http,
  nonceManager,
  parseUnits,
  publicActions,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { hardhat } from 'viem/chains'
import { startDevnet } from '../packages/contracts/scripts/devnet.js'
import { buildDemoImage } from './image.js'
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
const wordCount = [
  'sh',
  '-c',
  'wc -w < "$GRIDFORGE_INPUT_DIR"/input | tr -d " " > "$GRIDFORGE_OUTPUT_DIR"/words; echo counted',
]

step('Starting a local chain and deploying Gridforge with Ignition')
await using devnet = await startDevnet()
const deployment: Deployment = devnet.deployment
console.log(dim(`  chain ${devnet.chainId} at ${devnet.rpcUrl}; market ${deployment.contracts.market}`))
const work = await mkdtemp(join(tmpdir(), 'gridforge-demo-'))
const store = fsStore({ root: join(work, 'store') })

const wallet = (index: number) =>
  createWalletClient({
    account: privateKeyToAccount(devnet.privateKeys[index] as `0x${string}`, { nonceManager }),
    chain: { ...hardhat, id: devnet.chainId },
    transport: http(devnet.rpcUrl),
    pollingInterval: 100,
  }).extend(publicActions)
const deployer = wallet(0)
const client = wallet(1)
const providers = [wallet(2), wallet(3), wallet(4)]

step('Funding the client and three providers with GRID')
for (const account of [client, ...providers]) {
  const hash = await deployer.writeContract({
    address: deployment.contracts.token,
    abi: erc20Abi,
    functionName: 'transfer',
    args: [account.account.address, parseUnits('1000', 18)],
  })
  await deployer.waitForTransactionReceipt({ hash })
}

step('Providing the source image')
let runtime = (): ContainerRuntime => dockerRuntime()
let imageDigest: `0x${string}`
const built = await buildDemoImage()
if ('id' in built) {
  imageDigest = `0x${built.id.replace('sha256:', '')}`
  console.log(dim(`  built gridforge-demo/wordcount locally: ${built.id.slice(0, 19)}… (no registry needed)`))
} else {
  console.log(yellow(`  ⚠ ${built.reason}.`))
  console.log(
    yellow(
      '  ⚠ Falling back to the UNISOLATED process runtime: task commands run directly on this host, without a container.',
    ),
  )
  imageDigest = `0x${'0'.repeat(63)}1`
  runtime = () => processRuntime()
}

step('Publishing the source (metadata on the local store, digest on chain)')
const metadata = await store.putJson({
  name: 'Word count',
  description: 'Counts the words of a text: the smallest deterministic source.',
  image: `gridforge-demo/wordcount@sha256:${imageDigest.slice(2)}`,
  command: wordCount,
  resources: { cpus: 1, memoryMiB: 128, maxRuntimeSec: 300 },
  license: 'MIT',
})
const { sourceId } = await publishSource(deployer, {
  deployment,
  imageDigest,
  metadata,
  requirements: { maxRuntimeSec: '5m', deterministic: true },
})
console.log(dim(`  source ${sourceId}: ${metadata}`))

step('Registering three providers (stake, capabilities from this host, subscription)')
const host = await detectHost({ dataDir: work })
const capabilities = capabilitiesOf(host)
console.log(
  dim(
    `  this host: ${host.cpu.model}, ${host.cpu.cores} cores, ${host.memoryMiB} MiB, ${host.nvidia.gpus.length} NVIDIA GPU(s), Docker ${host.docker.reachable ? host.docker.version : 'unreachable'}`,
  ),
)
const profile = await store.putJson({ kind: 'gridforge-provider-profile', host })
for (const provider of providers) {
  await stake(provider, { deployment, amount: '200', approve: true })
  await registerProvider(provider, { deployment, capabilities, profile })
  await subscribeSources(provider, { deployment, sourceIds: [sourceId] })
}

step('Starting the three provider agents')
const names = new Map(
  providers.map((provider, index) => [provider.account.address, `provider ${'ABC'[index]}`]),
)
const agents: Agent[] = []
for (const provider of providers) {
  agents.push(
    await startAgent({
      client: provider,
      deployment,
      store,
      runtime: runtime(),
      host,
      dataDir: join(work, provider.account.address),
      policy: { sources: [sourceId], concurrency: 2 },
      pollingInterval: 100,
      rescanInterval: 1_000,
      logger: narrator(names.get(provider.account.address) ?? provider.account.address),
    }),
  )
}

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
for (;;) {
  const tasks = await getTasks(client, { deployment, taskIds })
  const line = tasks.map((task) => `#${task.taskId} ${task.status}`).join('  ')
  if (line !== last) console.log(dim(`  ${line}`))
  last = line
  if (tasks.every((task) => ['Completed', 'Failed', 'Expired', 'Cancelled'].includes(task.status))) break
  if (Date.now() - started > 110_000) throw new Error('tasks did not settle in time')
  await new Promise((resolve) => setTimeout(resolve, 250))
}
await Promise.all(agents.map((agent) => agent.stop()))

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
    .map((receipt) => names.get(receipt.settlement.provider) ?? receipt.settlement.provider)
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

step('Balances that moved (GRID held in the market by each account)')
const balancesAfter = await balances()
for (const [name, before] of balancesBefore) {
  const after = balancesAfter.get(name) ?? 0n
  const delta = after - before
  console.log(
    `  ${name.padEnd(12)} ${formatUnits(after, 18).padStart(10)} (${delta >= 0n ? '+' : ''}${formatUnits(delta, 18)})`,
  )
}
await rm(work, { recursive: true, force: true })
console.log(
  failures === 0
    ? green(
        `\n✔ ${taskIds.length} tasks executed, paid and verified in ${((Date.now() - started) / 1000).toFixed(1)} s`,
      )
    : red(`\n✘ ${failures} task(s) did not complete with a verified receipt`),
)
process.exitCode = failures === 0 ? 0 : 1

/** Client wallet + token balances, and each provider's market balance (its earnings). */
async function balances(): Promise<Map<string, bigint>> {
  const entries: [string, bigint][] = []
  const { balance, token } = await getWalletBalance(client, { deployment, account: client.account.address })
  entries.push(['client', balance + token])
  for (const provider of providers) {
    const earned = await getWalletBalance(client, { deployment, account: provider.account.address })
    entries.push([names.get(provider.account.address) ?? provider.account.address, earned.balance])
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
