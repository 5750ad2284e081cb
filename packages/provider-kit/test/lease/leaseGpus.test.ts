/**
 * Leases of a source that needs a GPU, on a host with one (a recorded RTX 4090): the lease holds the
 * GPU from its acceptance until its container is gone, its container is pinned to it, a restarted
 * agent holds it again, and no other lease (nor task) gets it meanwhile. This machine has no GPU, so
 * the lease runtime records each spec and starts the container without the device request Docker
 * could not satisfy here; `dockerLeaseRuntime.test.ts` checks the DeviceRequests a pinned spec creates.
 */
import { leaseMarketAbi } from '@gridforge/contracts'
import { getLease } from '@gridforge/sdk'
import { erc20Abi, parseEventLogs } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { deployment, fundedClient } from '../../../sdk/test/chain.js'
import type { HostReport } from '../../src/detect/HostReport.js'
import { rtx4090 } from '../../src/detect/testing.js'
import { dockerLeaseRuntime } from '../../src/runtime/dockerLeaseRuntime.js'
import type { LeaseContainerSpec, LeaseRuntime } from '../../src/runtime/LeaseRuntime.js'
import {
  publishTestImageSource,
  startTestAgent,
  type TestClient,
  testHost,
  testProviderClient,
  testStore,
  until,
} from '../harness.js'
import { httpdImage } from '../lease.js'

const price = 10n ** 12n
const leaseMarket = () => deployment().contracts.leases
const gpuHost: HostReport = {
  ...testHost,
  nvidia: { status: 'ok', gpus: [rtx4090], driver: rtx4090.driver, cuda: '12.4' },
}

let store: Awaited<ReturnType<typeof testStore>>['store']
let sourceId: number
/** A lease source that asks for egress, which the agent's policy does not allow. */
let egressSourceId: number
let provider: TestClient
let renter: TestClient
let agent: Awaited<ReturnType<typeof startTestAgent>>
let dataDir: string | undefined
const owner = `lease-gpus-${process.pid}`
const docker = dockerLeaseRuntime({ owner })
/** The spec of every lease container the agent started, by lease. */
const specs = new Map<bigint, LeaseContainerSpec>()
const recording: LeaseRuntime = {
  ...docker,
  startLeaseContainer(spec) {
    specs.set(spec.leaseId, spec)
    return docker.startLeaseContainer({ ...spec, gpus: [] })
  },
}

async function startGpuAgent() {
  agent = await startTestAgent({
    client: provider,
    store,
    sources: [sourceId, egressSourceId],
    host: gpuHost,
    ...(dataDir === undefined ? {} : { dataDir }),
    leases: { enabled: true, minPricePerSec: 1n, maxConcurrent: 4, maxPenaltySec: 3_600, runtime: recording },
  })
  dataDir = agent.dataDir
}

const lease = (leaseId: bigint) => getLease(provider, { deployment: deployment(), leaseId })

/** Requests a lease of `source` (default the GPU source); returns its id (not waiting for anyone to accept it). */
async function requestLease(source = sourceId): Promise<bigint> {
  const chainTime = Number((await renter.getBlock({ blockTag: 'latest' })).timestamp)
  const hash = await renter.writeContract({
    address: leaseMarket(),
    abi: leaseMarketAbi,
    functionName: 'requestLease',
    args: [
      {
        sourceId: source,
        maxPricePerSec: price,
        duration: 86_400,
        deposit: price * 3_600n,
        penaltySec: 600,
        minUptimeBps: 0,
        ackSigner: renter.account.address,
        acceptBy: chainTime + 3_600,
      },
    ],
  })
  const receipt = await renter.waitForTransactionReceipt({ hash })
  const [requested] = parseEventLogs({ abi: leaseMarketAbi, logs: receipt.logs, eventName: 'LeaseRequested' })
  return requested?.args.leaseId as bigint
}

/**
 * Waits for the agent to log that it refused `leaseId` (or, `waits`, that the request waits for room);
 * returns why.
 */
async function refusalOf(leaseId: bigint, msg = 'lease request refused'): Promise<string> {
  let refusal: string | undefined
  await until(
    async () => {
      const line = agent.lines.find((line) => line.msg === msg && String(line.leaseId) === String(leaseId))
      refusal = line?.refusal as string | undefined
      return refusal !== undefined
    },
    20_000,
    `lease ${leaseId} refused`,
  )
  return refusal as string
}

beforeAll(async () => {
  ;({ store } = await testStore())
  const image = await httpdImage()
  sourceId = await publishTestImageSource({
    store,
    imageDigest: image.digest,
    minGpus: 1,
    metadata: JSON.stringify({
      name: 'httpd lease on a GPU',
      kind: 'lease',
      image: `gridforge-test/httpd@sha256:${image.digest.slice(2)}`,
      port: 8080,
      resources: { cpus: 0.5, memoryMiB: 64 },
      network: 'none',
    }),
  })
  egressSourceId = await publishTestImageSource({
    store,
    imageDigest: image.digest,
    metadata: JSON.stringify({
      name: 'httpd lease with egress',
      kind: 'lease',
      image: `gridforge-test/httpd@sha256:${image.digest.slice(2)}`,
      port: 8080,
      network: 'egress',
    }),
  })
  // The fixture provider registers one GPU: the market lets it accept leases of this source.
  provider = await testProviderClient([sourceId, egressSourceId])
  renter = await fundedClient()
  await renter.waitForTransactionReceipt({
    hash: await renter.writeContract({
      address: deployment().contracts.token,
      abi: erc20Abi,
      functionName: 'approve',
      args: [leaseMarket(), 10n ** 24n],
    }),
  })
  await startGpuAgent()
}, 120_000)

afterAll(async () => {
  await agent?.stop()
  for (const container of await docker.listLeaseContainers())
    await docker.stopLeaseContainer(container.leaseId)
})

test('a request for a source the policy cannot serve (egress) is refused before acceptance, not accepted and left', async () => {
  const id = await requestLease(egressSourceId)
  expect(await refusalOf(id)).toBe(
    'it asks for egress, which the policy does not allow ([policy] allowEgress)',
  )
  expect((await lease(id)).status).toBe('Requested')
  expect(specs.has(id)).toBe(false)
})

describe('a lease of a source that needs a GPU', () => {
  let first: bigint
  let third: bigint

  test('holds the host GPU: its container is pinned to it, and a second request waits for it', async () => {
    first = await requestLease()
    await until(async () => specs.has(first), 30_000, `lease ${first} started`)
    expect(specs.get(first)?.gpus).toEqual([rtx4090.uuid])
    expect((await lease(first)).status).toBe('Active')

    const second = await requestLease()
    expect(await refusalOf(second, 'lease request waits for room')).toBe('its source needs 1 GPU, 0 free')
    expect((await lease(second)).status).toBe('Requested')
    expect(specs.has(second)).toBe(false)
  })

  test('a restarted agent holds it again: the lease is re-attached and a new request waits', async () => {
    await agent.stop()
    await startGpuAgent()
    await until(
      async () =>
        agent.lines.some(
          (line) => line.msg === 'lease re-attached' && String(line.leaseId) === String(first),
        ),
      30_000,
      `lease ${first} re-attached`,
    )
    third = await requestLease()
    expect(await refusalOf(third, 'lease request waits for room')).toBe('its source needs 1 GPU, 0 free')
  })

  test('once the lease ends and its container is gone, the GPU goes to the request that waited', async () => {
    await renter.waitForTransactionReceipt({
      hash: await renter.writeContract({
        address: leaseMarket(),
        abi: leaseMarketAbi,
        functionName: 'closeLease',
        args: [first],
      }),
    })
    // Nobody asks again: the agent takes the waiting request as soon as the GPU is back in its pool.
    await until(async () => specs.has(third), 30_000, `lease ${third} started`)
    expect(specs.get(third)?.gpus).toEqual([rtx4090.uuid])
    expect(await docker.findLeaseContainer(first)).toBeUndefined()
    expect((await lease(third)).status).toBe('Active')
  })
})
