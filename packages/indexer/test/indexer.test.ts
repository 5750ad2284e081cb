/**
 * The indexer end to end: a devnet, a small market driven with the SDK (two
 * sources, two providers, two clients; tasks completed, metered, cancelled,
 * failed, open and claimed), `ponder start` on PGlite and on a real PostgreSQL
 * server (scripts/postgres.sh), and exact REST answers. One devnet for the
 * whole file, indexed by both at once; every check runs against each, then
 * both are stopped, the market moves on, and both resume where they stopped.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { taskMarketAbi } from '@gridforge/contracts'
import {
  acceptLease,
  approveLeaseMarket,
  closeLease,
  createIndexerClient,
  extendLease,
  getLease,
  getReputation,
  type QuoteTaskParameters,
  quoteTask,
  redeemUsage,
  requestLease,
  signUsage,
  TaskNotOpenError,
  topUpLease,
} from '@gridforge/sdk'
import { zeroAddress } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Devnet, startDevnet } from '../../contracts/scripts/devnet.js'
import { type IndexerDatabase, type IndexerProcess, startIndexer } from '../launch/indexerProcess.js'
import { schemaProblems } from './jsonSchema.js'
import { capabilities, cids, grid, type Market, openMarket, type TaskRecord } from './market.js'
import { type PostgresServer, postgresAvailability, startPostgres } from './postgresServer.js'

/**
 * The databases every check runs on. Where PostgreSQL's server binaries are missing and cannot be installed
 * (scripts/postgres.sh exits 3), a test fails with the reason.
 */
const postgres = await postgresAvailability()
/** Provider 1's published price floor, in base units per GPU-second. */
const PRICE_FLOOR = 10n ** 12n
const backends = [
  { name: 'PGlite' as const },
  ...(postgres.available ? [{ name: 'PostgreSQL' as const }] : []),
]
type Backend = (typeof backends)[number]['name']

let devnet: Devnet
let market: Market
let postgresServer: PostgresServer | undefined
/** The indexer of each backend. */
const indexers = new Map<Backend, IndexerProcess>()
/** The indexer the checks running now ask. */
let indexer: IndexerProcess
let workDir: string
let deploymentFile: string
let document: {
  paths: Record<string, unknown>
  components: { schemas: Record<string, Record<string, unknown>> }
}
/** Sources A (2 GPUs, 10 % creator fee, failed runs paid 20 %) and B (no GPU, no creator fee). */
let sourceA: Awaited<ReturnType<Market['publish']>>
let sourceB: Awaited<ReturnType<Market['publish']>>
let registered: Awaited<ReturnType<Market['register']>>[]
/**
 * Leases of source B: 1 accepted by provider 2, topped up, an acknowledgement redeemed, closed by its renter
 * (client 1); 2 cancelled by its renter (client 2); 3 requested by client 2, extended, and not accepted.
 */
let leaseIds: [bigint, bigint, bigint]
/** Lease 1's price per second, top-up and redeemed service. */
const LEASE_PRICE = 10n ** 12n
const LEASE_TOP_UP = 10n ** 15n
let leaseServedSec: number

const protocolFeeBps = 500n
const stakerShareBps = 1_200n

beforeAll(async () => {
  // The server starts (initdb, a few seconds) while the devnet deploys and the market moves.
  const startingPostgres = postgres.available ? startPostgres() : Promise.resolve(undefined)
  // Stopped in afterAll even when the set-up fails half-way.
  startingPostgres.then(
    (server) => {
      postgresServer = server
    },
    () => {},
  )
  devnet = await startDevnet()
  workDir = await mkdtemp(path.join(tmpdir(), 'gridforge-indexer-test-'))
  deploymentFile = path.join(workDir, 'deployment.json')
  await writeFile(deploymentFile, JSON.stringify(devnet.deployment))

  market = await openMarket(devnet)
  const [p1, p2] = market.providers
  const [c1, c2] = market.clients
  sourceA = await market.publish({ creatorFeeBps: 1_000, failureFeeBps: 2_000, minGpus: 2 })
  sourceB = await market.publish({ creatorFeeBps: 0, failureFeeBps: 0, minGpus: 0 })
  registered = [
    await market.register(p1, [sourceA.sourceId, sourceB.sourceId], PRICE_FLOOR),
    await market.register(p2, [sourceA.sourceId, sourceB.sourceId]),
  ]
  await market.fundClient(c1)
  await market.fundClient(c2)
  // 1: completed at a fixed price; 2: metered; 3: cancelled; 4: a failed run; 5: open; 6: claimed.
  const t1 = await market.submit(c1, sourceA.sourceId, '5')
  await market.claim(p1, t1.id)
  await market.deliver(p1, t1.id)
  const t2 = await market.submit(c1, sourceA.sourceId, '5', '0.01')
  await market.claim(p2, t2.id)
  await market.deliver(p2, t2.id)
  const t3 = await market.submit(c2, sourceB.sourceId, '2')
  await market.cancel(c2, t3.id)
  const t4 = await market.submit(c2, sourceA.sourceId, '5')
  await market.claim(p1, t4.id)
  await market.deliver(p1, t4.id, { kind: 'exited', exitCode: 2 })
  await market.submit(c1, sourceB.sourceId, '1')
  const t6 = await market.submit(c1, sourceB.sourceId, '1')
  await market.claim(p2, t6.id)
  await openLeases()

  postgresServer = await startingPostgres
  await startIndexers()
}, 300_000)

afterAll(async () => {
  await Promise.all([...indexers.values()].map((running) => running.stop()))
  await postgresServer?.stop()
  await devnet?.stop()
  if (workDir !== undefined) await rm(workDir, { recursive: true, force: true })
})

/** The leases of `leaseIds`, driven with the SDK as a renter's and a provider's software would. */
async function openLeases() {
  const [, p2] = market.providers
  const [c1, c2] = market.clients
  const deployment = devnet.deployment
  for (const renter of [c1, c2]) await approveLeaseMarket(renter, { deployment, amount: '10' })
  const request = {
    deployment,
    sourceId: sourceB.sourceId,
    maxPricePerSec: LEASE_PRICE,
    duration: '1h',
    deposit: LEASE_PRICE * 3_600n,
    penalty: '10m',
  } as const
  const { leaseId: first } = await requestLease(c1, request)
  await acceptLease(p2, { deployment, leaseId: first })
  await topUpLease(c1, { deployment, leaseId: first, amount: LEASE_TOP_UP })
  await market.deployer.request({ method: 'evm_increaseTime', params: [120] } as never)
  await market.deployer.request({ method: 'evm_mine', params: [] } as never)
  const { startedAt } = await getLease(c1, { deployment, leaseId: first })
  const at = Number((await market.deployer.getBlock({ blockTag: 'latest' })).timestamp)
  leaseServedSec = at - startedAt
  const signature = await signUsage({
    account: c1.account,
    chainId: devnet.deployment.chainId,
    leaseMarket: deployment.contracts.leases,
    leaseId: first,
    servedSec: leaseServedSec,
    at,
  })
  await redeemUsage(p2, { deployment, leaseId: first, servedSec: leaseServedSec, at, signature })
  await closeLease(c1, { deployment, leaseId: first })
  const { leaseId: second } = await requestLease(c2, request)
  await closeLease(c2, { deployment, leaseId: second })
  const { leaseId: third } = await requestLease(c2, request)
  // Extended while requested: the request's duration grows (the contract keeps it where it later keeps the end).
  await extendLease(c2, { deployment, leaseId: third, by: '30m' })
  leaseIds = [first, second, third]
}

/** Where each backend keeps its tables: the same on a restart. */
function databaseOf(backend: Backend): IndexerDatabase {
  if (backend === 'PGlite') return { pgliteDir: path.join(workDir, 'pglite') }
  if (postgresServer === undefined) throw new Error('no PostgreSQL server started')
  return { databaseUrl: postgresServer.databaseUrl }
}

/**
 * Starts an indexer on each backend and waits until each has indexed the chain's last block. One after the
 * other: two Ponder builds at once on a busy 2-core machine can miss Ponder's 10 s limit on running an
 * indexing file. PostgreSQL first, since PGlite's restart waits for its lock anyway (25 s from the stop).
 */
async function startIndexers() {
  // Not viem's cached number (4 s): the market may have mined since the last read.
  const head = await market.deployer.getBlockNumber({ cacheTime: 0 })
  for (const { name } of [...backends].reverse()) {
    const started = await startIndexer({
      rpcUrl: devnet.rpcUrl,
      deploymentFile,
      database: databaseOf(name),
      timeoutMs: 120_000,
    })
    indexers.set(name, started)
    await started.waitForBlock(head)
  }
}

/** The indexer of `backend`, for the checks that follow. */
function ask(backend: Backend) {
  const running = indexers.get(backend)
  if (running === undefined) throw new Error(`no indexer on ${backend}`)
  indexer = running
}

/** GET a path of the indexer: its status and JSON body. */
async function get(route: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${indexer.url}${route}`)
  return { status: response.status, body: await response.json() }
}

/** GET a route that must answer 200 with a body its OpenAPI schema describes exactly. */
// biome-ignore lint/suspicious/noExplicitAny: a JSON body, its shape checked against the document just before
async function answer(route: string, schemaName: string): Promise<any> {
  const { status, body } = await get(route)
  expect({ route, status }).toEqual({ route, status: 200 })
  expect(
    schemaProblems(body, { $ref: `#/components/schemas/${schemaName}` }, document.components.schemas),
  ).toEqual([])
  return body
}

const at = (unix: number) => ({ unix, iso: new Date(unix * 1000).toISOString() })
const task = (id: number) => {
  const record = market.tasks.get(BigInt(id))
  if (record === undefined) throw new Error(`no task ${id}`)
  return record
}

function statusOf(record: TaskRecord) {
  if (record.result !== undefined) return 'Completed'
  if (record.cancelled !== undefined) return 'Cancelled'
  if (record.claim !== undefined) return 'Claimed'
  return 'Open'
}

/** What GET /tasks says of a task, from what the market did. */
function summary(record: TaskRecord) {
  return {
    id: String(record.id),
    client: record.client,
    sourceId: record.sourceId,
    status: statusOf(record),
    inputCid: cids.input,
    replicas: 1,
    maxPayment: String(record.maxPayment),
    pricePerSecond: String(record.pricePerSecond),
    deadline: at(record.deadline),
    submittedAt: at(record.submitted.time),
    firstClaimAt: record.firstClaimTime === undefined ? null : at(record.firstClaimTime),
    finalizedAt:
      record.result !== undefined
        ? at(record.result.time)
        : record.cancelled !== undefined
          ? at(record.cancelled.time)
          : null,
    resultCid: record.result?.result ?? null,
    receiptCid: record.result === undefined ? null : cids.receipt,
    failure: record.result?.failure ?? null,
    paid: String(record.result?.payment ?? 0n),
    refund: String(record.result?.refund ?? record.cancelled?.refund ?? 0n),
  }
}

/** The summaries of tasks `ids`, in that order. */
const summaries = (...ids: number[]) => ids.map((id) => summary(task(id)))

/** Every page of a list, following nextCursor. */
async function allPages(route: string, schemaName: string) {
  const pages: { items: unknown[]; nextCursor: string | null }[] = []
  let cursor: string | null = null
  do {
    const separator = route.includes('?') ? '&' : '?'
    const page = await answer(cursor === null ? route : `${route}${separator}cursor=${cursor}`, schemaName)
    pages.push(page)
    cursor = page.nextCursor
  } while (cursor !== null && pages.length < 20)
  return pages
}

const sorted = (values: bigint[]) => [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))

/** The lower median (what percentile_disc(0.5) picks). */
function lowerMedian(values: bigint[]): bigint {
  return sorted(values)[Math.ceil(values.length / 2) - 1]!
}

if (!postgres.available) {
  // No skipping: `npm test` brings the server (scripts/setup.sh --test runs scripts/postgres.sh install).
  it('runs on PostgreSQL too', () => {
    throw new Error(`no PostgreSQL server here: ${postgres.reason}; run bash scripts/postgres.sh install`)
  })
}

describe.each(backends)('on $name', ({ name }) => {
  beforeAll(async () => {
    ask(name)
    document = (await get('/openapi.json')).body as typeof document
  })

  describe('GET /tasks', () => {
    it('lists every task, newest first', async () => {
      expect(await answer('/tasks', 'TaskPage')).toEqual({
        items: summaries(6, 5, 4, 3, 2, 1),
        nextCursor: null,
      })
    })

    it('filters by client, provider, source and status, and by several at once', async () => {
      const [c1, c2] = market.clients.map((client) => client.account.address)
      const [p1, p2] = market.providers.map((provider) => provider.account.address)
      const ids = async (query: string) =>
        ((await answer(`/tasks?${query}`, 'TaskPage')).items as { id: string }[]).map(({ id }) => Number(id))
      expect(await ids(`client=${c1}`)).toEqual([6, 5, 2, 1])
      expect(await ids(`client=${c2?.toLowerCase()}`)).toEqual([4, 3])
      expect(await ids(`provider=${p1}`)).toEqual([4, 1])
      expect(await ids(`provider=${p2}`)).toEqual([6, 2])
      expect(await ids(`source=${sourceB.sourceId}`)).toEqual([6, 5, 3])
      expect(await ids('status=Completed')).toEqual([4, 2, 1])
      expect(await ids('status=Open,Claimed')).toEqual([6, 5])
      expect(await ids(`client=${c2}&status=Cancelled`)).toEqual([3])
      expect(await ids(`provider=${p2}&source=${sourceA.sourceId}&status=Completed`)).toEqual([2])
      expect(await ids('status=Failed')).toEqual([])
    })

    it('pages with an opaque cursor until the last page', async () => {
      const pages = await allPages('/tasks?limit=4', 'TaskPage')
      expect(pages.map((page) => page.items)).toEqual([summaries(6, 5, 4, 3), summaries(2, 1)])
      expect(pages.at(-1)?.nextCursor).toBeNull()
      // Pages of two, filtered: the filter holds across pages.
      const completed = await allPages('/tasks?limit=2&status=Completed', 'TaskPage')
      expect(completed.map((page) => page.items)).toEqual([summaries(4, 2), summaries(1)])
    })
  })

  describe('GET /tasks/{id}', () => {
    it('answers a settled task with its terms, slot, settlement, audit and result', async () => {
      const record = task(1)
      const claim = record.claim!
      const result = record.result!
      const fee = (grid('5') * protocolFeeBps) / 10_000n
      expect(result).toMatchObject({ payment: grid('5'), fee, refund: 0n })
      expect(await answer('/tasks/1', 'Task')).toEqual({
        ...summary(record),
        resultKey: `0x${'0'.repeat(64)}`,
        escrow: String(grid('5')),
        submittedBlock: Number(record.submitted.block),
        submittedTx: record.submitted.hash,
        terms: {
          feeBps: 500,
          creatorFeeBps: 1_000,
          discountBps: 0,
          collateral: String(claim.collateral),
          requirements: {
            minGpus: 2,
            minVramMiB: 0,
            minComputeCapability: 0,
            maxRuntimeSec: 3_600,
            deterministic: false,
          },
          minSuccessBps: 0,
          minCompleted: 0,
          auditBps: 0,
        },
        result: {
          digest: result.digest,
          resultCid: cids.output,
          receiptCid: cids.receipt,
          runtimeSec: result.runtimeSec,
          failure: null,
        },
        revealDeadline: null,
        slots: [
          {
            slot: 0,
            role: 'replica',
            auditRound: null,
            provider: claim.provider,
            status: 'Submitted',
            claimedAt: at(claim.time),
            dueAt: at(claim.dueAt),
            collateral: String(claim.collateral),
            commitment: null,
            committedAt: null,
            resultDigest: result.digest,
            resultCid: cids.output,
            receiptCid: cids.receipt,
            runtimeSec: result.runtimeSec,
            submittedAt: at(result.time),
            failure: null,
            payment: String(result.payment),
            fee: String(fee),
            slashed: null,
            outvoted: null,
            endedAt: null,
          },
        ],
        settlement: {
          finalized: true,
          paid: String(grid('5')),
          refund: '0',
          fees: String(fee),
          slashed: '0',
          payments: [
            {
              provider: claim.provider,
              slot: 0,
              payment: String(grid('5')),
              fee: String(fee),
              runtimeSec: result.runtimeSec,
              paidAt: at(result.time),
            },
          ],
          slashes: [],
        },
        audit: { auditBps: 0, drawn: null, verdict: 'none', round: 0, resultDigest: null, rounds: [] },
      })
    })

    it('answers a failed run with its failure, paid the source’s failure fee', async () => {
      const body = await answer('/tasks/4', 'Task')
      const failure = { kind: 'exited', exitCode: 2 }
      expect(body).toMatchObject({
        status: 'Completed',
        failure,
        resultCid: cids.logs,
        paid: String(grid('1')),
        refund: String(grid('4')),
        result: { digest: task(4).result?.digest, resultCid: cids.logs, failure },
        settlement: { paid: String(grid('1')), refund: String(grid('4')), fees: String(grid('0.05')) },
      })
      expect(body.slots).toMatchObject([{ status: 'Submitted', failure, payment: String(grid('1')) }])
    })

    it('answers a cancelled task and an open one', async () => {
      expect(await answer('/tasks/3', 'Task')).toMatchObject({
        status: 'Cancelled',
        slots: [],
        result: null,
        settlement: { finalized: true, paid: '0', refund: String(grid('2')), payments: [] },
      })
      expect(await answer('/tasks/5', 'Task')).toMatchObject({
        status: 'Open',
        firstClaimAt: null,
        slots: [],
        settlement: { finalized: false, paid: '0', refund: '0' },
      })
    })
  })

  describe('bad requests', () => {
    it('answers 400 naming the parameter and what is allowed', async () => {
      const cases: [string, string, string][] = [
        ['/tasks?limit=0', 'limit', 'limit: expected a whole number from 1 to 100, got "0"'],
        ['/tasks?limit=101', 'limit', 'limit: expected a whole number from 1 to 100, got "101"'],
        [
          '/tasks?client=0x1234',
          'client',
          'client: expected an address (0x and 40 hex digits), got "0x1234"',
        ],
        [
          '/tasks?source=zero',
          'source',
          'source: expected a source id (a whole number from 1 to 4294967295), got "zero"',
        ],
        [
          '/tasks?status=Done',
          'status',
          'status: expected one or more of Open, Claimed, Revealing, Completed, Failed, Cancelled, Expired, Held, Auditing (comma-separated), got "Done"',
        ],
        [
          '/tasks?cursor=nope',
          'cursor',
          'cursor: expected the nextCursor of a previous page of tasks, got "nope"',
        ],
        [
          '/tasks?order=asc',
          'order',
          'order: unknown parameter: this route takes client, provider, source, status, limit, cursor',
        ],
        ['/tasks/abc', 'id', 'id: expected a task id (a whole number from 1), got "abc"'],
        ['/providers?paused=maybe', 'paused', 'paused: expected true or false, got "maybe"'],
        ['/providers/0xnope', 'address', 'address: expected an address (0x and 40 hex digits), got "0xnope"'],
        ['/sources/0', 'id', 'id: expected a source id (a whole number from 1 to 4294967295), got "0"'],
        ['/stats?window=2h', 'window', 'window: expected one of 1h, 24h, 7d, got "2h"'],
      ]
      for (const [route, parameter, message] of cases)
        expect({ route, ...(await get(route)) }).toEqual({
          route,
          status: 400,
          body: { error: { parameter, message } },
        })
      // A cursor of another list is refused too.
      const providers = await answer('/providers?limit=1', 'ProviderPage')
      expect(await get(`/tasks?cursor=${providers.nextCursor}`)).toMatchObject({
        status: 400,
        body: { error: { parameter: 'cursor' } },
      })
    })

    it('answers 404 for ids nothing answers to', async () => {
      expect(await get('/tasks/999')).toEqual({
        status: 404,
        body: { error: { parameter: 'id', message: 'no task 999 (not submitted, or not indexed yet)' } },
      })
      const nobody = `0x${'ab'.repeat(20)}`
      expect(await get(`/providers/${nobody}`)).toEqual({
        status: 404,
        body: {
          error: {
            parameter: 'address',
            message: `no provider ${nobody} (not registered, or not indexed yet)`,
          },
        },
      })
      expect(await get('/sources/99')).toEqual({
        status: 404,
        body: { error: { parameter: 'id', message: 'no source 99 (not published, or not indexed yet)' } },
      })
      expect(await get('/nothing')).toEqual({
        status: 404,
        body: { error: { message: 'no route GET /nothing: see /openapi.json for the routes' } },
      })
    })
  })

  describe('GET /providers', () => {
    it('answers a provider with its capabilities, profile, record, earnings and stake', async () => {
      const [p1] = market.providers
      const address = p1.account.address
      // Task 1 paid 5 GRID; task 4, a failed run, 20 % of 5.
      const paid = grid('5') + grid('1')
      const fees = (paid * protocolFeeBps) / 10_000n
      expect(await answer(`/providers/${address.toLowerCase()}`, 'ProviderDetail')).toEqual({
        address,
        registeredAt: at(registered[0]!.time),
        updatedAt: at(registered[0]!.time),
        paused: false,
        capabilities,
        profileCid: cids.input,
        priceFloor: String(PRICE_FLOOR),
        subscriptions: 2,
        tasksRun: 2,
        record: {
          claims: 2,
          audits: 0,
          completed: 1,
          failedRuns: 1,
          failed: 0,
          outvoted: 0,
          slashes: 0,
          slashedAmount: '0',
        },
        // Task 1 vouches (5 GRID ≥ minRecordPayment); task 4 was a failed run, which does not count.
        reputation: { completed: 1, failed: 0, outvoted: 0, successBps: 10_000 },
        earnings: {
          paid: String(paid),
          fees: String(fees),
          earned: String(paid - fees),
          runtimeSec: task(1).result!.runtimeSec + task(4).result!.runtimeSec,
        },
        leases: { accepted: 0, paid: '0', fees: '0', earned: '0', penalties: '0' },
        stake: {
          staked: String(grid('200')),
          locked: '0',
          unbonding: '0',
          unbondingReadyAt: null,
          withdrawn: '0',
          slashed: '0',
        },
        sources: [sourceA.sourceId, sourceB.sourceId],
      })
    })

    it('lists providers, latest registered first, filtered and paged', async () => {
      const [p1, p2] = market.providers.map((provider) => provider.account.address)
      const addresses = async (query: string) =>
        ((await answer(`/providers?${query}`, 'ProviderPage')).items as { address: string }[]).map(
          ({ address }) => address,
        )
      expect(await addresses('')).toEqual([p2, p1])
      expect(await addresses(`source=${sourceB.sourceId}&paused=false`)).toEqual([p2, p1])
      expect(await addresses('paused=true')).toEqual([])
      expect(await addresses('source=99')).toEqual([])
      const pages = await allPages('/providers?limit=1', 'ProviderPage')
      expect(pages.map((page) => page.items.map((item) => (item as { address: string }).address))).toEqual([
        [p2],
        [p1],
      ])
      // Task 6 holds 2.5 GRID of provider 2's stake as collateral, and lease 1 its penalty's worth (600 s of price).
      expect((await answer(`/providers/${p2}`, 'ProviderDetail')).stake).toMatchObject({
        locked: String(task(6).claim!.collateral + LEASE_PRICE * 600n),
      })
    })
  })

  describe('GET /quote and GET /tasks/{id}/quote', () => {
    /** `quoteTask`'s terms or task, without the deployment and the indexer. */
    type Asked = QuoteTaskParameters extends infer each
      ? each extends unknown
        ? Omit<each, 'deployment' | 'indexer'>
        : never
      : never

    /** The SDK's quote over RPC (the oracle) and through this indexer: they must agree exactly. */
    async function bothQuotes(parameters: Asked) {
      const fallbacks: string[] = []
      const through = createIndexerClient({
        url: indexer.url,
        onFallback: ({ error }) => fallbacks.push(error.shortMessage),
      })
      const asked = { deployment: devnet.deployment, ...parameters } as QuoteTaskParameters
      const [chain, indexed] = await Promise.all([
        quoteTask(market.deployer, asked),
        quoteTask(market.deployer, { ...asked, indexer: through }),
      ])
      expect(fallbacks).toEqual([])
      return { chain, indexed }
    }

    it('answers new terms as the SDK does from the chain: who could take it, who not and why, recent prices', async () => {
      const [p1, p2] = market.providers.map((provider) => provider.account.address)
      const plain = await bothQuotes({ sourceId: sourceA.sourceId, maxPayment: grid('5') })
      expect(plain.indexed).toEqual(plain.chain)
      expect(plain.indexed.eligible.providers).toEqual([p1, p2])
      expect(plain.indexed.history.tasks).toBe(3)
      // Below provider 1's floor, above what its 2 GPUs and its record offer, and a gate it passes alone.
      const picky = await bothQuotes({
        sourceId: sourceA.sourceId,
        maxPayment: 1_000_000n,
        requirements: { minGpus: 4 },
        minCompleted: 1,
      })
      expect(picky.indexed).toEqual(picky.chain)
      expect(picky.indexed.ineligible.byReason.priceFloor).toEqual([p1])
      expect(picky.indexed.ineligible.byReason.gpuCount).toEqual([p1, p2])
      const raw = await answer(
        `/quote?source=${sourceA.sourceId}&maxPayment=1000000&minGpus=4&minCompleted=1`,
        'Quote',
      )
      expect(raw.ineligible.providers[0].refusals).toContainEqual({
        reason: 'priceFloor',
        floor: String(PRICE_FLOOR),
        price: String(picky.indexed.terms.pricePerGpuSecond),
      })
    })

    it('answers why nobody takes an open task, and 409 for a task that is not open', async () => {
      const open = await bothQuotes({ taskId: 5n })
      expect(open.indexed).toEqual(open.chain)
      expect(open.indexed.eligible.count).toBe(2)
      await answer('/tasks/5/quote', 'Quote')
      expect(await get('/tasks/1/quote')).toEqual({
        status: 409,
        body: {
          error: {
            parameter: 'id',
            message: 'task 1 is Completed, not Open: no provider can claim it now',
            taskStatus: 'Completed',
          },
        },
      })
      await expect(
        quoteTask(market.deployer, { deployment: devnet.deployment, taskId: 1n, indexer: indexer.url }),
      ).rejects.toThrow(TaskNotOpenError)
    })

    it('refuses terms it cannot quote, naming the parameter', async () => {
      const refused = async (query: string) => (await get(`/quote?${query}`)).body
      expect(await refused('maxPayment=1')).toEqual({
        error: { parameter: 'source', message: 'source: missing: give a source id' },
      })
      expect(await refused(`source=${sourceA.sourceId}&maxPayment=0`)).toMatchObject({
        error: { parameter: 'maxPayment' },
      })
      expect(await refused(`source=${sourceA.sourceId}&maxPayment=1&replicas=2`)).toEqual({
        error: {
          parameter: 'replicas',
          message: `replicas: source ${sourceA.sourceId} is not deterministic: give 1 replica`,
        },
      })
      expect(await get('/quote?source=99&maxPayment=1')).toMatchObject({
        status: 404,
        body: { error: { parameter: 'source' } },
      })
    })

    it('keeps the reputation the registry checks gated claims against', async () => {
      for (const { account } of market.providers) {
        const chain = await getReputation(market.deployer, {
          deployment: devnet.deployment,
          provider: account.address,
        })
        const { reputation } = await answer(`/providers/${account.address}`, 'ProviderDetail')
        expect(reputation).toEqual({
          completed: chain.completed,
          failed: chain.failed,
          outvoted: chain.outvoted,
          successBps: chain.successBps,
        })
      }
    })
  })

  describe('GET /sources', () => {
    it('answers a source with its usage and tasks by status, as the chain accrued its creator fees', async () => {
      const payments = [1, 2, 4].map((id) => task(id).result!.payment)
      const paid = payments.reduce((sum, payment) => sum + payment, 0n)
      const creatorFees = payments.reduce(
        (sum, payment) => sum + (((payment * protocolFeeBps) / 10_000n) * 1_000n) / 10_000n,
        0n,
      )
      const onChain = await market.deployer.readContract({
        address: devnet.deployment.contracts.market,
        abi: taskMarketAbi,
        functionName: 'creatorFeesOf',
        args: [sourceA.sourceId],
      })
      expect(onChain).toBe(creatorFees)
      expect(await answer(`/sources/${sourceA.sourceId}`, 'SourceDetail')).toEqual({
        id: sourceA.sourceId,
        owner: market.owner.account.address,
        predecessor: 0,
        imageDigest: expect.stringMatching(/^0x[0-9a-f]{64}$/),
        metadataCid: cids.metadata,
        requirements: {
          minGpus: 2,
          minVramMiB: 0,
          minComputeCapability: 0,
          maxRuntimeSec: 3_600,
          deterministic: false,
        },
        creatorFeeBps: 1_000,
        failureFeeBps: 2_000,
        validator: 0,
        active: true,
        publishedAt: at(sourceA.time),
        usage: {
          tasks: 3,
          paid: String(paid),
          subscribers: 2,
          creatorFees: String(creatorFees),
          creatorFeesClaimed: '0',
          tasksByStatus: {
            Open: 0,
            Claimed: 0,
            Revealing: 0,
            Completed: 3,
            Failed: 0,
            Cancelled: 0,
            Expired: 0,
            Held: 0,
            Auditing: 0,
          },
        },
      })
    })

    it('lists sources, latest published first, filtered and paged', async () => {
      const owner = market.owner.account.address
      const ids = async (query: string) =>
        ((await answer(`/sources?${query}`, 'SourcePage')).items as { id: number }[]).map(({ id }) => id)
      expect(await ids('')).toEqual([sourceB.sourceId, sourceA.sourceId])
      expect(await ids(`owner=${owner}&active=true`)).toEqual([sourceB.sourceId, sourceA.sourceId])
      expect(await ids('active=false')).toEqual([])
      const pages = await allPages('/sources?limit=1', 'SourcePage')
      expect(pages.map((page) => page.items.map((item) => (item as { id: number }).id))).toEqual([
        [sourceB.sourceId],
        [sourceA.sourceId],
      ])
      expect((await answer('/sources?limit=1', 'SourcePage')).items[0].usage).toEqual({
        tasks: 3,
        paid: '0',
        subscribers: 2,
        creatorFees: '0',
        creatorFeesClaimed: '0',
      })
    })
  })

  describe('GET /stats', () => {
    it('counts tasks by status, the queue, the time to a first claim, prices per GPU-second and fees', async () => {
      const stats = await answer('/stats', 'Stats')
      const claimed = [...market.tasks.values()].filter((record) => record.firstClaimTime !== undefined)
      const paidTasks = [1, 2, 4].map(task)
      // Source A asks for 2 GPUs.
      const gpuSeconds = paidTasks.map((record) => BigInt(Math.max(record.result!.runtimeSec * 2, 1)))
      const prices = paidTasks.map((record, index) => record.result!.payment / gpuSeconds[index]!)
      const paid = paidTasks.reduce((sum, record) => sum + record.result!.payment, 0n)
      const fees = paidTasks.reduce((sum, record) => sum + record.result!.fee, 0n)
      const creatorFees = paidTasks.reduce((sum, record) => sum + (record.result!.fee * 1_000n) / 10_000n, 0n)
      const stakerFees = paidTasks.reduce(
        (sum, record) => sum + (record.result!.fee * stakerShareBps) / 10_000n,
        0n,
      )
      const refunded = [...market.tasks.values()].reduce(
        (sum, record) => sum + (record.result?.refund ?? record.cancelled?.refund ?? 0n),
        0n,
      )
      const gpuSecondsTotal = gpuSeconds.reduce((sum, value) => sum + value, 0n)
      expect(stats).toEqual({
        asOf: stats.asOf,
        window: { name: '24h', seconds: 86_400, from: at(stats.asOf.unix - 86_400) },
        tasks: {
          total: 6,
          byStatus: {
            Open: 1,
            Claimed: 1,
            Revealing: 0,
            Completed: 3,
            Failed: 0,
            Cancelled: 1,
            Expired: 0,
            Held: 0,
            Auditing: 0,
          },
          queueDepth: 1,
        },
        timeToFirstClaim: {
          tasks: 4,
          medianSec: Number(
            lowerMedian(claimed.map((record) => BigInt(record.firstClaimTime! - record.submitted.time))),
          ),
        },
        pricePerGpuSecond: [
          {
            sourceId: sourceA.sourceId,
            payments: 3,
            gpuSeconds: Number(gpuSecondsTotal),
            paid: String(paid),
            mean: String(paid / gpuSecondsTotal),
            median: String(lowerMedian(prices)),
            min: String(sorted(prices)[0]),
            max: String(sorted(prices).at(-1)),
          },
        ],
        providers: { registered: 2, active: 2 },
        totals: {
          paid: String(paid),
          refunded: String(refunded),
          fees: String(fees),
          feeRebates: '0',
          creatorFees: String(creatorFees),
          stakerFees: String(stakerFees),
          treasuryFees: String(fees - creatorFees - stakerFees),
          slashed: '0',
        },
      })
      // As of the last block indexed at least (the devnet's clock runs ahead of the wall's).
      expect(stats.asOf.unix).toBeGreaterThanOrEqual(task(6).claim!.time)
      // The fees as the market accrued them.
      const read = (functionName: 'pendingStakerFees' | 'treasuryAccrued') =>
        market.deployer.readContract({
          address: devnet.deployment.contracts.market,
          abi: taskMarketAbi,
          functionName,
        })
      expect(await read('pendingStakerFees')).toBe(stakerFees)
      expect(await read('treasuryAccrued')).toBe(fees - creatorFees - stakerFees)
      // Every payment is recent: a 1-hour window holds them all.
      expect((await answer('/stats?window=1h', 'Stats')).pricePerGpuSecond).toEqual(stats.pricePerGpuSecond)
    })
  })

  describe('GET /leases', () => {
    it('answers each lease as the chain has it, with what it served, paid and refunded', async () => {
      const [first, second, third] = leaseIds
      const [, p2] = market.providers
      const [c1, c2] = market.clients
      const deposit = LEASE_PRICE * 3_600n
      for (const id of leaseIds) {
        const body = await answer(`/leases/${id}`, 'Lease')
        const chain = await getLease(market.deployer, { deployment: devnet.deployment, leaseId: id })
        expect(body).toMatchObject({
          id: String(id),
          renter: chain.renter,
          provider: chain.provider === zeroAddress ? null : chain.provider,
          sourceId: chain.sourceId,
          ackSigner: chain.ackSigner,
          status: chain.status,
          reason: chain.reason,
          penaltySec: chain.penaltySec,
          minUptimeBps: chain.minUptimeBps,
          deposit: String(chain.deposit),
          servedSec: chain.servedSec,
          lastProofAt: chain.lastProofAt === 0 ? null : at(chain.lastProofAt),
          // Never accepted (requested, or cancelled before): no start, whatever the chain keeps there.
          startedAt: chain.provider === zeroAddress ? null : at(chain.startedAt),
        })
      }
      // Accepted, topped up, one acknowledgement redeemed, closed: its end is fixed and the renter refunded
      // what the provider can no longer claim; the rest waits for the provider's last acknowledgement.
      const firstChain = await getLease(market.deployer, { deployment: devnet.deployment, leaseId: first })
      const paid = LEASE_PRICE * BigInt(leaseServedSec)
      expect(await answer(`/leases/${first}`, 'Lease')).toMatchObject({
        renter: c1.account.address,
        provider: p2.account.address,
        status: 'Active',
        reason: 'ClosedByRenter',
        maxPricePerSec: String(LEASE_PRICE),
        pricePerSec: String(LEASE_PRICE),
        collateral: String(LEASE_PRICE * 600n),
        durationSec: 3_600,
        endsAt: at(firstChain.endsAt),
        endedAt: at(firstChain.endsAt),
        toppedUp: String(LEASE_TOP_UP),
        servedSec: leaseServedSec,
        redemptions: 1,
        paid: String(paid),
        fees: String((paid * 500n) / 10_000n),
        refunded: String(deposit + LEASE_TOP_UP - paid - firstChain.deposit),
        penalty: '0',
        offlineReport: null,
        settledAt: null,
        uptimeBps: null,
      })
      // Provider 2's record counts the lease and what it was paid for it.
      expect((await answer(`/providers/${p2.account.address}`, 'ProviderDetail')).leases).toEqual({
        accepted: 1,
        paid: String(paid),
        fees: String((paid * 500n) / 10_000n),
        earned: String(paid - (paid * 500n) / 10_000n),
        penalties: '0',
      })
      // Cancelled before anyone accepted it: settled, its whole deposit back.
      expect(await answer(`/leases/${second}`, 'Lease')).toMatchObject({
        renter: c2.account.address,
        provider: null,
        status: 'Settled',
        reason: 'Cancelled',
        deposit: '0',
        refunded: String(deposit),
        paid: '0',
        startedAt: null,
        endsAt: null,
        uptimeBps: null,
      })
      expect(await answer(`/leases/${third}`, 'Lease')).toMatchObject({
        status: 'Requested',
        reason: 'None',
        durationSec: 5_400,
        endsAt: null,
        deposit: String(deposit),
        pricePerSec: null,
        endedAt: null,
      })
    })

    it('lists leases newest first, filtered by renter, provider, source and status, and paged', async () => {
      const [first, second, third] = leaseIds.map(String)
      const [, p2] = market.providers
      const [, c2] = market.clients
      const ids = async (route: string) =>
        ((await answer(route, 'LeasePage')).items as { id: string }[]).map((lease) => lease.id)
      expect(await ids('/leases')).toEqual([third, second, first])
      expect(await ids(`/leases?renter=${c2.account.address}`)).toEqual([third, second])
      expect(await ids(`/leases?provider=${p2.account.address}`)).toEqual([first])
      expect(await ids(`/leases?source=${sourceB.sourceId}&status=Requested,Active`)).toEqual([third, first])
      expect(await ids(`/leases?source=${sourceA.sourceId}`)).toEqual([])
      expect(await ids('/leases?status=Settled')).toEqual([second])
      const pages = await allPages('/leases?limit=2', 'LeasePage')
      expect(pages.map((page) => page.items.map((lease) => (lease as { id: string }).id))).toEqual([
        [third, second],
        [first],
      ])
      expect(await get('/leases?status=Open')).toMatchObject({
        status: 400,
        body: { error: { parameter: 'status' } },
      })
      expect(await get('/leases/0')).toMatchObject({ status: 400, body: { error: { parameter: 'id' } } })
      expect(await get('/leases/999')).toMatchObject({ status: 404, body: { error: { parameter: 'id' } } })
    })
  })

  describe('GET /openapi.json', () => {
    it('describes every route, and every route answers', async () => {
      expect(document).toMatchObject({ openapi: '3.1.0', info: { title: 'Gridforge indexer' } })
      expect(Object.keys(document.paths)).toEqual([
        '/tasks',
        '/tasks/{id}',
        '/tasks/{id}/quote',
        '/quote',
        '/leases',
        '/leases/{id}',
        '/providers',
        '/providers/{address}',
        '/sources',
        '/sources/{id}',
        '/stats',
      ])
      const parameters = (route: string) =>
        ((document.paths[route] as { get: { parameters: { name: string }[] } }).get.parameters ?? []).map(
          ({ name }) => name,
        )
      expect(parameters('/tasks')).toEqual(['client', 'provider', 'source', 'status', 'limit', 'cursor'])
      expect(parameters('/stats')).toEqual(['window'])
      const examples: Record<string, string> = {
        '/tasks/{id}': '/tasks/1',
        '/leases/{id}': `/leases/${leaseIds[0]}`,
        '/providers/{address}': `/providers/${market.providers[0].account.address}`,
        '/sources/{id}': `/sources/${sourceA.sourceId}`,
        '/tasks/{id}/quote': '/tasks/5/quote',
        '/quote': `/quote?source=${sourceB.sourceId}&maxPayment=1`,
      }
      for (const route of Object.keys(document.paths)) {
        const schema = (
          document.paths[route] as {
            get: { responses: { 200: { content: { 'application/json': { schema: { $ref: string } } } } } }
          }
        ).get.responses[200].content['application/json'].schema.$ref.replace('#/components/schemas/', '')
        await answer(examples[route] ?? route, schema)
      }
    })
  })

  describe('Ponder’s own endpoints', () => {
    it('serve beside the REST routes: /health, /status, /graphql', async () => {
      expect((await fetch(`${indexer.url}/health`)).status).toBe(200)
      expect(await get('/status')).toMatchObject({ status: 200, body: { gridforge: { id: 31337 } } })
      const response = await fetch(`${indexer.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ task(id: "2") { status sourceId } }' }),
      })
      expect(await response.json()).toEqual({
        data: { task: { status: 'Completed', sourceId: sourceA.sourceId } },
      })
    })
  })
})

describe('a restart', () => {
  /** Task 6's first claim, by provider 2, who never delivers. */
  let noShow: NonNullable<TaskRecord['claim']>

  // Both indexers stop, the market moves on, and both start again on the same PGlite directory and database.
  beforeAll(async () => {
    await Promise.all([...indexers.values()].map((running) => running.stop()))
    const [p1] = market.providers
    const [, c2] = market.clients
    const t7 = await market.submit(c2, sourceB.sourceId, '3')
    expect(t7.id).toBe(7n)
    await market.claim(p1, 5n)
    await market.deliver(p1, 5n)
    // Provider 2 never delivers task 6: past its due time, provider 1 reopens the slot (slashing it) and claims it.
    noShow = task(6).claim!
    await market.timeTravelPast(noShow.dueAt)
    await market.reopen(p1, 6n, 0)
    await market.claim(p1, 6n)
    await startIndexers()
  }, 300_000)

  it.each(backends)('resumes on $name and shows what happened while it was stopped', async ({ name }) => {
    ask(name)
    const [p1, p2] = market.providers
    // It resumed (Ponder's crash recovery) instead of starting over.
    expect(indexer.output.some((line) => line.includes('Detected crash recovery'))).toBe(true)
    // Whether the restart first waited for the schema's lock is not checked: on PostgreSQL a clean stop releases
    // it, but a stop that outlasts the stop timeout on a loaded machine leaves it to expire (seen in CI), and the
    // restart then waits and resumes all the same — which is what this test is about.
    expect(await answer('/tasks', 'TaskPage')).toEqual({
      items: summaries(7, 6, 5, 4, 3, 2, 1),
      nextCursor: null,
    })
    // Task 6: the no-show's claim stays, reopened and slashed; the new claim holds the slot.
    const [slash] = task(6).reopened
    const claim = task(6).claim!
    expect(slash).toMatchObject({ provider: p2.account.address, slot: 0, slashed: expect.any(BigInt) })
    const t6 = await answer('/tasks/6', 'Task')
    expect(t6).toMatchObject({ status: 'Claimed', firstClaimAt: at(noShow.time) })
    expect(t6.slots).toEqual([
      expect.objectContaining({
        slot: 0,
        provider: p2.account.address,
        status: 'Reopened',
        claimedAt: at(noShow.time),
        slashed: String(slash!.slashed),
        outvoted: false,
        endedAt: at(slash!.time),
      }),
      expect.objectContaining({
        slot: 0,
        provider: p1.account.address,
        status: 'Claimed',
        claimedAt: at(claim.time),
      }),
    ])
    expect(t6.settlement).toMatchObject({
      finalized: false,
      slashed: String(slash!.slashed),
      slashes: [
        {
          provider: p2.account.address,
          slot: 0,
          amount: String(slash!.slashed),
          toClient: String(slash!.toClient),
          outvoted: false,
          slashedAt: at(slash!.time),
        },
      ],
    })
    const provider2 = await answer(`/providers/${p2.account.address}`, 'ProviderDetail')
    expect(provider2.record).toMatchObject({
      claims: 2,
      completed: 1,
      failed: 1,
      slashes: 1,
      slashedAmount: String(slash!.slashed),
    })
    expect(provider2.stake).toMatchObject({
      staked: String(grid('200') - slash!.slashed),
      // Lease 1, closed but not settled, still holds its collateral.
      locked: String(LEASE_PRICE * 600n),
      slashed: String(slash!.slashed),
    })
    expect((await answer('/stats', 'Stats')).tasks).toEqual({
      total: 7,
      byStatus: {
        Open: 1,
        Claimed: 1,
        Revealing: 0,
        Completed: 4,
        Failed: 0,
        Cancelled: 1,
        Expired: 0,
        Held: 0,
        Auditing: 0,
      },
      queueDepth: 1,
    })
  })
})
