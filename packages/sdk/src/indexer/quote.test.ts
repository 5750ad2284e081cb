import { HttpResponse, http } from 'msw'
import { setupServer } from 'msw/node'
import { createPublicClient } from 'viem'
import { hardhat } from 'viem/chains'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { deployment, transport } from '../../test/chain.js'
import { SourceInactiveError, TaskNotOpenError } from '../errors/quote.js'
import { claimRefusalReasons } from '../tasks/claimRefusals.js'
import { quoteTask } from '../tasks/quoteTask.js'
import { IndexerParameterError } from './errors.js'

const URL = 'http://indexer.test'
const server = setupServer()
beforeAll(() => server.listen({ onUnhandledFrame: 'bypass' }))
afterEach(() => server.resetHandlers())
afterAll(() => server.close())

const reader = createPublicClient({ chain: hardhat, transport: transport() })
const p1 = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const p2 = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'
const at = (unix: number) => ({ unix, iso: new Date(unix * 1000).toISOString() })

/** What GET /tasks/7/quote answers: provider 1 could take it, provider 2 wants more per GPU-second. */
const answer = {
  blockNumber: 120,
  asOf: at(1_800_000_000),
  taskId: '7',
  terms: {
    sourceId: 2,
    maxPayment: '5000000000000000000',
    pricePerSecond: '0',
    replicas: 1,
    requirements: {
      minGpus: 1,
      minVramMiB: 0,
      minComputeCapability: 0,
      maxRuntimeSec: 600,
      deterministic: true,
    },
    gates: { minSuccessBps: 0, minCompleted: 0 },
    auditBps: 1_000,
    collateral: '45000000000000000000',
    pricePerGpuSecond: '8333333333333333',
  },
  closed: { reason: 'claimWindowTooShort', deadline: at(1_800_000_300), dueAt: at(1_800_000_660) },
  providers: 2,
  eligible: { count: 1, providers: [p1] },
  ineligible: {
    count: 1,
    byReason: Object.fromEntries(
      claimRefusalReasons.map((reason) => [reason, reason === 'priceFloor' ? [p2] : []]),
    ),
    providers: [
      {
        provider: p2,
        refusals: [{ reason: 'priceFloor', floor: '10000000000000000', price: '8333333333333333' }],
      },
    ],
  },
  history: {
    tasks: 0,
    pricePerGpuSecond: null,
    timeToClaimSec: null,
    reason: 'no task of source 2 was submitted yet',
  },
}

describe('quoteTask through an indexer', () => {
  it('reads GET /tasks/{id}/quote into the TaskQuote the chain path gives: bigints, unix times, undefined for null', async () => {
    const asked: string[] = []
    server.use(
      http.get(`${URL}/tasks/7/quote`, ({ request }) => {
        asked.push(new globalThis.URL(request.url).search)
        return HttpResponse.json(answer)
      }),
    )
    const quote = await quoteTask(reader, {
      deployment: deployment(),
      taskId: 7n,
      historySize: 5,
      indexer: URL,
    })
    expect(asked).toEqual(['?history=5'])
    expect(quote).toMatchObject({
      blockNumber: 120n,
      taskId: 7n,
      terms: {
        maxPayment: 5n * 10n ** 18n,
        collateral: 45n * 10n ** 18n,
        pricePerGpuSecond: 8_333_333_333_333_333n,
      },
      closed: { reason: 'claimWindowTooShort', deadline: 1_800_000_300, dueAt: 1_800_000_660 },
      eligible: { count: 1, providers: [p1] },
      history: { tasks: 0, pricePerGpuSecond: undefined, timeToClaimSec: undefined },
    })
    expect(quote.ineligible.providers[0]?.refusals).toEqual([
      { reason: 'priceFloor', floor: 10n ** 16n, price: 8_333_333_333_333_333n },
    ])
  })

  it('sends validated terms in base units to GET /quote', async () => {
    let search: URLSearchParams | undefined
    server.use(
      http.get(`${URL}/quote`, ({ request }) => {
        search = new globalThis.URL(request.url).searchParams
        return HttpResponse.json({ ...answer, taskId: null, closed: null })
      }),
    )
    await quoteTask(reader, {
      deployment: deployment(),
      sourceId: 2,
      maxPayment: '5',
      requirements: { minGpus: 1, maxRuntimeSec: 600 },
      indexer: URL,
    })
    expect(Object.fromEntries(search ?? [])).toEqual({
      source: '2',
      maxPayment: '5000000000000000000',
      minGpus: '1',
      maxRuntimeSec: '600',
      history: '20',
    })
  })

  it('throws what the chain path throws for a task not open or a source inactive, and the refused parameter', async () => {
    server.use(
      http.get(`${URL}/tasks/1/quote`, () =>
        HttpResponse.json(
          { error: { parameter: 'id', message: 'task 1 is Completed, not Open', taskStatus: 'Completed' } },
          { status: 409 },
        ),
      ),
      http.get(`${URL}/quote`, ({ request }) =>
        new globalThis.URL(request.url).searchParams.get('source') === '3'
          ? HttpResponse.json(
              { error: { parameter: 'source', message: 'source 3 is inactive' } },
              { status: 409 },
            )
          : HttpResponse.json(
              { error: { parameter: 'replicas', message: 'replicas: source 4 is not deterministic' } },
              { status: 400 },
            ),
      ),
    )
    await expect(
      quoteTask(reader, { deployment: deployment(), taskId: 1n, indexer: URL }),
    ).rejects.toMatchObject(new TaskNotOpenError({ taskId: 1n, status: 'Completed' }))
    await expect(
      quoteTask(reader, { deployment: deployment(), sourceId: 3, maxPayment: '1', indexer: URL }),
    ).rejects.toBeInstanceOf(SourceInactiveError)
    await expect(
      quoteTask(reader, {
        deployment: deployment(),
        sourceId: 4,
        maxPayment: '1',
        replicas: 2,
        indexer: URL,
      }),
    ).rejects.toBeInstanceOf(IndexerParameterError)
  })
})
