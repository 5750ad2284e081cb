/**
 * `--indexer` and GRIDFORGE_INDEXER_URL: the list and stats commands ask the
 * indexer (here a stand-in on 127.0.0.1 answering what the test sets), read
 * the chain when it cannot answer and say so on stderr, and stop on a filter
 * it refuses.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort } from '../../../contracts/scripts/devnet.js'
import { deployment, fundedClient } from '../chain.js'
import { publishSource, submitFixtureTasks } from '../fixtures.js'
import { ensureBuilt, runCli, workspace } from './run.js'

/** What the stand-in answers, by path (status and JSON body). */
let answers: Record<string, { status: number; body: unknown }> = {}
let server: Server
let indexerUrl: string

beforeAll(async () => {
  server = createServer((request, response) => {
    const answer = answers[new URL(request.url ?? '/', 'http://x').pathname]
    response.writeHead(answer?.status ?? 404, { 'content-type': 'application/json' })
    response.end(JSON.stringify(answer?.body ?? { error: { message: 'no route' } }))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  indexerUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise((resolve) => server.close(resolve)))

describe('gridforge --indexer', () => {
  let space: Awaited<ReturnType<typeof workspace>>
  let client: `0x${string}`

  beforeAll(async () => {
    const wallet = await fundedClient()
    client = wallet.account.address
    ;[space] = await Promise.all([workspace(), ensureBuilt()])
    const sourceId = await publishSource(wallet, deployment())
    await submitFixtureTasks(wallet, deployment(), { sourceId, count: 2 })
  }, 180_000)
  afterAll(() => space.cleanup())

  it('lists from the chain when the indexer cannot be reached, and says so on stderr', async () => {
    const list = ['--json', 'task', 'list', '--client', client]
    const fromChain = await runCli([...space.globals, ...list])
    const unreachable = `http://127.0.0.1:${await freePort()}`
    const fallback = await runCli([...space.globals, '--indexer', unreachable, ...list])
    expect(fallback.code).toBe(0)
    expect(fallback.stdout).toBe(fromChain.stdout)
    expect(JSON.parse(fallback.stdout)).toHaveLength(2)
    expect(fallback.stderr).toBe(
      `warning: The indexer could not be reached: GET ${unreachable}/tasks?client=${client}&limit=100; read the chain instead (slower)\n`,
    )
  })

  it('prints the stats the indexer counts (GRIDFORGE_INDEXER_URL)', async () => {
    answers = {
      '/status': { status: 200, body: { gridforge: { id: 31337, block: { number: 7, timestamp: 0 } } } },
      '/stats': {
        status: 200,
        body: {
          tasks: { total: 3, byStatus: { Completed: 1, Failed: 0, Cancelled: 1, Expired: 0 } },
          providers: { registered: 2, active: 1 },
          totals: { paid: '5000000000000000000' },
        },
      },
    }
    const stats = await runCli([...space.globals, 'stats'], { env: { GRIDFORGE_INDEXER_URL: indexerUrl } })
    expect(stats.stderr).toBe('')
    expect(stats.code).toBe(0)
    expect(stats.stdout).toMatch(/^settled: +2 \(1 completed, 0 failed, 1 cancelled, 0 expired\)$/m)
    expect(stats.stdout).toMatch(/^total paid: +5 GRID$/m)
    expect(stats.stdout).toMatch(/^as of block: +7$/m)
  })

  it('stops on a filter the indexer refuses (exit 2), naming it', async () => {
    answers = {
      '/sources': {
        status: 400,
        body: { error: { parameter: 'owner', message: 'owner: expected an address' } },
      },
    }
    const refused = await runCli([...space.globals, '--indexer', indexerUrl, 'source', 'list'])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain('The indexer refused `owner`: owner: expected an address')
  })

  it('refuses an --indexer that is not an http(s) URL', async () => {
    const bad = await runCli([...space.globals, '--indexer', '127.0.0.1:42069', 'stats'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain("--indexer: '127.0.0.1:42069' is not an http(s) URL")
  })
})
