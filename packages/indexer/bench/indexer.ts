/**
 * The indexer at scale (issue 16, item 6): a devnet market of 100,000 tasks,
 * indexed from scratch, then the first page of a filtered task list read
 * through the REST API and through the SDK's `listTasks` (the RPC path), and
 * a quote of new terms (`GET /quote`, and the SDK's `quoteTask` over RPC).
 *
 *   pnpm bench:indexer [--tasks N] [--postgres] [--lanes N] [--samples N] [--out FILE]
 *
 * PGlite by default; `--postgres` indexes into a PostgreSQL server started by
 * scripts/postgres.sh (in a temporary directory, removed at the end). Prints
 * the figures and writes bench/results/indexer.json. `BENCH_DEBUG=1` also
 * prints the stack of every error the RPC path answers.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { listTasks, quoteTask } from '@gridforge/sdk'
import { createPublicClient, http } from 'viem'
import { hardhat } from 'viem/chains'
import { startDevnet } from '../../contracts/scripts/devnet.js'
import { startIndexer } from '../launch/indexerProcess.js'
import { startPostgres } from '../test/postgresServer.js'
import { fillMarket } from './history.js'

const usage = `pnpm bench:indexer [--tasks N] [--postgres] [--lanes N] [--samples N] [--out FILE]
  --tasks N     tasks in the market (default 100000): 2 % completed, 1 % claimed and running, 2 % cancelled, the rest open
  --postgres    index into a PostgreSQL server (scripts/postgres.sh) instead of PGlite
  --lanes N     clients submitting side by side, each with a provider (default 4)
  --samples N   requests timed per list (default 50 through the REST API, a tenth of that through RPC)
  --out FILE    where to write the results (default bench/results/indexer.json at the repository root)`

const { values: options } = parseArgs({
  options: {
    tasks: { type: 'string', default: '100000' },
    postgres: { type: 'boolean', default: false },
    lanes: { type: 'string', default: '4' },
    samples: { type: 'string', default: '50' },
    out: { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  },
})
if (options.help) {
  console.log(usage)
  process.exit(0)
}
const wholeNumber = (name: string, text: string, min: number) => {
  const value = Number(text)
  if (!Number.isSafeInteger(value) || value < min) {
    console.error(`--${name}: expected a whole number from ${min}, got ${JSON.stringify(text)}\n${usage}`)
    process.exit(2)
  }
  return value
}
const taskCount = wholeNumber('tasks', options.tasks, 100)
const lanes = wholeNumber('lanes', options.lanes, 1)
const samples = wholeNumber('samples', options.samples, 1)
const rpcSamples = Math.max(Math.ceil(samples / 10), 3)
/** The page every list asks for. */
const pageSize = 20

const resultsFile =
  options.out === undefined
    ? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../bench/results/indexer.json')
    : path.resolve(process.env.INIT_CWD ?? process.cwd(), options.out)
const log = (line: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`)

/** Ponder's log lines that mark the steps of a sync. */
const milestoneMessages = new Set([
  'Connected to database',
  'Created database tables',
  'Started backfill indexing',
  'Completed backfill indexing across all chains',
  'Created database indexes',
  'Started live indexing',
])

/** Times `run` `count` times, one after the other; the median and p90, in ms (one warm-up not counted). */
async function timed(count: number, run: () => Promise<unknown>) {
  await run()
  const durations: number[] = []
  for (let i = 0; i < count; i++) {
    const started = performance.now()
    await run()
    durations.push(performance.now() - started)
  }
  durations.sort((a, b) => a - b)
  const at = (fraction: number) =>
    durations[Math.min(durations.length - 1, Math.floor(durations.length * fraction))] ?? Number.NaN
  const round = (ms: number) => Math.round(ms * 10) / 10
  return { median: round(at(0.5)), p90: round(at(0.9)), samples: count }
}

/** The sum of every sample of a Prometheus counter on the indexer's /metrics. */
async function counter(url: string, name: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text()
  let sum = 0
  for (const line of text.split('\n'))
    if (line.startsWith(`${name}{`) || line.startsWith(`${name} `)) sum += Number(line.split(' ').at(-1))
  return sum
}

const started = performance.now()
log(`devnet: starting Hardhat and deploying`)
await using devnet = await startDevnet()
const workDir = await mkdtemp(path.join(tmpdir(), 'gridforge-indexer-bench-'))
await using postgres = options.postgres ? await startPostgres() : undefined
try {
  const deploymentFile = path.join(workDir, 'deployment.json')
  await writeFile(deploymentFile, JSON.stringify(devnet.deployment))

  // ── The market ──
  const mix = {
    completed: Math.floor(taskCount * 0.02),
    claimed: Math.floor(taskCount * 0.01),
    cancelled: Math.floor(taskCount * 0.02),
  }
  log(`history: ${taskCount} tasks on ${lanes} lanes (${JSON.stringify(mix)})`)
  const history = await fillMarket({
    rpcUrl: devnet.rpcUrl,
    deployment: devnet.deployment,
    privateKeys: devnet.privateKeys,
    lanes,
    tasks: taskCount,
    ...mix,
    onProgress: log,
  })
  const fillRate = Math.round(history.submitted / (history.ms.total / 1000))
  log(
    `history: ${history.submitted} tasks (${history.open} open, ${history.claimed} claimed, ${history.completed} completed, ${history.cancelled} cancelled) in ${Math.round(history.ms.total / 1000)} s: ${fillRate} tasks/s (${JSON.stringify(history.ms)})`,
  )
  const reader = createPublicClient({ chain: hardhat, transport: http(devnet.rpcUrl) })
  const head = await reader.getBlockNumber()

  // ── Sync: from the start of `ponder start` until it has indexed the chain's last block ──
  const database =
    postgres === undefined
      ? { pgliteDir: path.join(workDir, 'pglite') }
      : { databaseUrl: postgres.databaseUrl }
  log(`indexer: ponder start on ${postgres === undefined ? 'PGlite' : 'PostgreSQL'}, ${head} blocks to index`)
  const syncStarted = performance.now()
  /** When Ponder said what, in s from the start: its start-up (build, database) is part of the sync. */
  const milestones: Record<string, number> = {}
  await using indexer = await startIndexer({
    rpcUrl: devnet.rpcUrl,
    deploymentFile,
    database,
    timeoutMs: 3 * 60 * 60_000,
    onOutput: (line) => {
      if (line.includes('Failed')) log(`indexer: ${line.slice(0, 600)}`)
      const msg = (JSON.parse(line.startsWith('{') ? line : '{}') as { msg?: string }).msg
      if (msg === undefined || !milestoneMessages.has(msg)) return
      milestones[msg] ??= Math.round(performance.now() - syncStarted) / 1000
      log(`indexer: ${msg}`)
    },
  })
  await indexer.waitForBlock(head, 3 * 60 * 60_000)
  const syncSeconds = (performance.now() - syncStarted) / 1000
  const events = await counter(indexer.url, 'ponder_indexing_completed_events')
  const syncEventsPerSecond = Math.round(events / syncSeconds)
  log(`indexer: ${events} events in ${syncSeconds.toFixed(1)} s: ${syncEventsPerSecond} events/s`)

  // ── The first page of a filtered list: one client's open tasks ──
  const [client] = history.clients
  if (client === undefined) throw new Error('history: no client')
  const route = `/tasks?client=${client}&status=Open&limit=${pageSize}`
  const firstPage = (await (await fetch(`${indexer.url}${route}`)).json()) as { items: unknown[] }
  if (firstPage.items.length !== pageSize)
    throw new Error(`GET ${route} answered ${firstPage.items.length} tasks, not ${pageSize}`)
  const rest = await timed(samples, async () => {
    const response = await fetch(`${indexer.url}${route}`)
    if (response.status !== 200) throw new Error(`GET ${route}: ${response.status}`)
    await response.arrayBuffer()
  })
  log(`REST  GET ${route}: median ${rest.median} ms, p90 ${rest.p90} ms (${rest.samples} requests)`)
  // Other lists a dashboard asks for, in the details.
  const otherRoutes = [
    `/tasks?limit=${pageSize}`,
    `/tasks?status=Completed&limit=${pageSize}`,
    `/tasks?provider=${history.providers[0]}&limit=${pageSize}`,
    `/tasks?source=${history.sourceId}&status=Claimed&limit=${pageSize}`,
    '/stats',
  ]
  const others: Record<string, Awaited<ReturnType<typeof timed>>> = {}
  for (const other of otherRoutes) {
    others[other] = await timed(samples, async () => (await fetch(`${indexer.url}${other}`)).arrayBuffer())
    log(`REST  GET ${other}: median ${others[other].median} ms, p90 ${others[other].p90} ms`)
  }

  // ── The same list through RPC: the SDK's listTasks (oldest first, as it pages) ──
  // By default it asks for the whole range at once; an answer the transport refuses (viem reads at most
  // 10 MB of a JSON-RPC answer) fails it. Then the range is halved until a page comes back, as a user would
  // set `blockRange`, and that is what is timed; the failure is reported beside it.
  const rpcListPage = (blockRange: bigint | undefined) =>
    listTasks(reader, { deployment: devnet.deployment, client, status: 'Open', limit: pageSize, blockRange })
  let blockRange: bigint | undefined
  const refusals: { blockRange: string; error: string }[] = []
  for (;;) {
    try {
      const rpcPage = await rpcListPage(blockRange)
      if (rpcPage.length !== pageSize)
        throw new Error(`listTasks answered ${rpcPage.length} tasks, not ${pageSize}`)
      break
    } catch (error) {
      const message = (error as { shortMessage?: string }).shortMessage ?? (error as Error).message
      refusals.push({
        blockRange: blockRange === undefined ? 'whole range' : String(blockRange),
        error: message,
      })
      log(`RPC   listTasks with blockRange ${refusals.at(-1)?.blockRange} failed: ${message}`)
      if (process.env.BENCH_DEBUG) log(String((error as Error).stack).slice(0, 2500))
      blockRange = (blockRange ?? head) / 2n
      if (blockRange < 1n) throw error
    }
  }
  const rpc = await timed(rpcSamples, () => rpcListPage(blockRange))
  const rpcCall = `listTasks({ client, status: 'Open', limit: ${pageSize}${blockRange === undefined ? '' : `, blockRange: ${blockRange}n`} })`
  log(`RPC   ${rpcCall}: median ${rpc.median} ms, p90 ${rpc.p90} ms (${rpc.samples} calls)`)

  // ── A quote of new terms for the market's source: through the REST API, and the SDK's quoteTask over RPC ──
  const quoteRoute = `/quote?source=${history.sourceId}&maxPayment=${10n ** 18n}`
  const firstQuote = await fetch(`${indexer.url}${quoteRoute}`)
  if (firstQuote.status !== 200)
    throw new Error(`GET ${quoteRoute}: ${firstQuote.status} ${await firstQuote.text()}`)
  const quoted = (await firstQuote.json()) as { providers: number; eligible: { count: number } }
  const quote = await timed(samples, async () => {
    const response = await fetch(`${indexer.url}${quoteRoute}`)
    if (response.status !== 200) throw new Error(`GET ${quoteRoute}: ${response.status}`)
    await response.arrayBuffer()
  })
  log(
    `REST  GET ${quoteRoute}: median ${quote.median} ms, p90 ${quote.p90} ms (${quote.samples} requests; ${quoted.eligible.count} of ${quoted.providers} providers eligible)`,
  )
  // Over RPC a quote scans the source's whole history of submissions: one call, timed once.
  const rpcQuoteStarted = performance.now()
  await quoteTask(reader, {
    deployment: devnet.deployment,
    sourceId: history.sourceId,
    maxPayment: 10n ** 18n,
    blockRange,
  })
  const rpcQuote = { median: Math.round(performance.now() - rpcQuoteStarted), samples: 1 }
  log(`RPC   quoteTask: ${rpcQuote.median} ms (1 call)`)

  const results = {
    tasks: history.submitted,
    sync_events_per_s: syncEventsPerSecond,
    list_page_ms: rest.median,
    rpc_list_page_ms: rpc.median,
    quote_ms: quote.median,
    details: {
      database: postgres === undefined ? 'PGlite' : 'PostgreSQL',
      history: { ...history, tasksPerSecond: fillRate },
      blocks: Number(head),
      sync: { events, seconds: Math.round(syncSeconds * 10) / 10, milestones },
      list: { route, ...rest },
      otherLists: others,
      rpcList: {
        call: rpcCall,
        order: 'oldest first (the REST list is newest first)',
        ...rpc,
        refusals,
      },
      quote: {
        route: quoteRoute,
        ...quote,
        rpc: { call: 'quoteTask({ sourceId, maxPayment })', ...rpcQuote },
      },
      totalSeconds: Math.round((performance.now() - started) / 1000),
      date: new Date().toISOString(),
    },
  }
  await mkdir(path.dirname(resultsFile), { recursive: true })
  await writeFile(resultsFile, `${JSON.stringify(results, null, 2)}\n`)
  console.log()
  console.log(`tasks              ${results.tasks}`)
  console.log(
    `sync               ${results.sync_events_per_s} events/s (${events} events in ${syncSeconds.toFixed(1)} s)`,
  )
  console.log(
    `list page (REST)   ${results.list_page_ms} ms median (target ≤ 50 ms: ${rest.median <= 50 ? 'met' : 'MISSED'})`,
  )
  console.log(`list page (RPC)    ${results.rpc_list_page_ms} ms median`)
  console.log(
    `quote (REST)       ${results.quote_ms} ms median (target ≤ 100 ms: ${quote.median <= 100 ? 'met' : 'MISSED'})`,
  )
  console.log(`quote (RPC)        ${rpcQuote.median} ms (one call)`)
  console.log(`wrote ${path.relative(process.cwd(), resultsFile)}`)
} finally {
  await rm(workDir, { recursive: true, force: true })
}
