/**
 * The agent's leases on the test chain and the test Docker engine: one lease market, one source
 * (the busybox httpd image), one provider; renters request leases with the ABI as any wallet would.
 */
import { leaseMarketAbi, stakingAbi } from '@gridforge/contracts'
import { getLease } from '@gridforge/sdk'
import { type Address, erc20Abi, type Hex, parseEventLogs } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest'
import { deployment, fundedClient, testClient } from '../../../sdk/test/chain.js'
import { usageTypedData } from '../../src/lease/usageAck.js'
import { containerLabels } from '../../src/runtime/ContainerRuntime.js'
import { dockerLeaseRuntime } from '../../src/runtime/dockerLeaseRuntime.js'
import { leaseLabels } from '../../src/runtime/LeaseRuntime.js'
import { devnetConfig, ensureBuilt, runCli, workspace } from '../cli/run.js'
import { docker } from '../docker.js'
import {
  publishTestImageSource,
  startTestAgent,
  type TestClient,
  testProviderClient,
  testStore,
  until,
} from '../harness.js'
import { httpdImage, send, signIn } from '../lease.js'

/** 0.000001 GRID a second. */
const price = 10n ** 12n
const penaltySec = 600
const leaseMarket = () => deployment().contracts.leases
const sessionKey = privateKeyToAccount(generatePrivateKey())
const stranger = privateKeyToAccount(generatePrivateKey())
/** The provider's key: `gridforge-provider lease notice` signs with it too. */
const providerKey = generatePrivateKey()

let store: Awaited<ReturnType<typeof testStore>>['store']
let sourceId: number
let provider: TestClient
let agent: Awaited<ReturnType<typeof startTestAgent>>
let dataDir: string

async function startLeaseAgent() {
  agent = await startTestAgent({
    client: provider,
    store,
    sources: [sourceId],
    ...(dataDir === undefined ? {} : { dataDir }),
    leases: {
      enabled: true,
      minPricePerSec: 1n,
      maxConcurrent: 4,
      redeemEveryMs: 500,
      maxPenaltySec: 3_600,
      // Renters' requests go through nginx, as on a provider host that has it (the gateway alone: leaseGateway.test.ts).
      gateway: { dataPath: 'nginx' },
    },
  })
  dataDir = agent.dataDir
}

async function chainTime(): Promise<number> {
  return Number((await provider.getBlock({ blockTag: 'latest' })).timestamp)
}

async function advance(seconds: number) {
  await testClient().increaseTime({ seconds })
  await testClient().mine({ blocks: 1 })
}

/** A renter requests a lease of the source; returns its id once the agent serves it. */
async function openLease(renter: TestClient, deposit: bigint): Promise<bigint> {
  await renter.waitForTransactionReceipt({
    hash: await renter.writeContract({
      address: deployment().contracts.token,
      abi: erc20Abi,
      functionName: 'approve',
      args: [leaseMarket(), 10n ** 24n],
    }),
  })
  const hash = await renter.writeContract({
    address: leaseMarket(),
    abi: leaseMarketAbi,
    functionName: 'requestLease',
    args: [
      {
        sourceId,
        maxPricePerSec: price,
        duration: 86_400,
        deposit,
        penaltySec,
        minUptimeBps: 0,
        ackSigner: sessionKey.address,
        acceptBy: (await chainTime()) + 3_600,
      },
    ],
  })
  const receipt = await renter.waitForTransactionReceipt({ hash })
  const [requested] = parseEventLogs({ abi: leaseMarketAbi, logs: receipt.logs, eventName: 'LeaseRequested' })
  const leaseId = requested?.args.leaseId as bigint
  await until(async () => (await lease(leaseId)).status === 'Active', 30_000, `lease ${leaseId} accepted`)
  return leaseId
}

const lease = (leaseId: bigint) => getLease(provider, { deployment: deployment(), leaseId })
const host = (leaseId: bigint) => `${leaseId}.${agent.leaseGateway?.publicHost}`
const gatewayUrl = () => agent.leaseGateway?.url as string

async function renterToken(renter: TestClient, leaseId: bigint): Promise<string> {
  const login = await signIn(gatewayUrl(), {
    host: host(leaseId),
    account: renter.account,
    leaseMarket: leaseMarket(),
    chainId: renter.chain.id,
    leaseId,
  })
  expect(login.status).toBe(200)
  return login.token as string
}

/** Posts an acknowledgement of all the time since the start, at the chain's time now. */
async function acknowledge(leaseId: bigint, token: string): Promise<{ servedSec: number; at: number }> {
  const at = await chainTime()
  const servedSec = at - (await lease(leaseId)).startedAt
  const signature: Hex = await sessionKey.signTypedData(
    usageTypedData({ chainId: provider.chain.id, leaseMarket: leaseMarket(), leaseId }, { servedSec, at }),
  )
  const answer = await send(gatewayUrl(), {
    host: host(leaseId),
    path: '/_gridforge/ack',
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ servedSec, at, signature }),
  })
  expect(answer.status, answer.body).toBe(204)
  return { servedSec, at }
}

async function marketBalance(account: Address): Promise<bigint> {
  return provider.readContract({
    address: leaseMarket(),
    abi: leaseMarketAbi,
    functionName: 'balanceOf',
    args: [account],
  })
}

function stakeOf(account: Address) {
  return provider.readContract({
    address: deployment().contracts.staking,
    abi: stakingAbi,
    functionName: 'stakeOf',
    args: [account],
  })
}

async function tokenBalance(account: Address): Promise<bigint> {
  return provider.readContract({
    address: deployment().contracts.token,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [account],
  })
}

async function leaseEnded(hash: Hex) {
  const receipt = await provider.waitForTransactionReceipt({ hash })
  return parseEventLogs({ abi: leaseMarketAbi, logs: receipt.logs, eventName: 'LeaseEnded' })[0]?.args
}

async function leaseSettled(hash: Hex) {
  const receipt = await provider.waitForTransactionReceipt({ hash })
  return parseEventLogs({ abi: leaseMarketAbi, logs: receipt.logs, eventName: 'LeaseSettled' })[0]?.args
}

/** The owner label of this test's agent's lease containers (the agent's owner, then `:leases`). */
const leaseOwner = () =>
  `${provider.chain.id}:${deployment().contracts.market}:${provider.account.address}:leases`.toLowerCase()

async function containerOf(leaseId: bigint) {
  const [found] = await docker().listContainers({
    all: true,
    filters: { label: [`${containerLabels.owner}=${leaseOwner()}`, `${leaseLabels.leaseId}=${leaseId}`] },
  })
  if (found === undefined) return undefined
  // Listed, then removed by the agent before the inspection (a full run hit this race): it is gone.
  const info = await docker()
    .getContainer(found.Id)
    .inspect()
    .catch((error: { statusCode?: number }) => {
      if (error.statusCode === 404) return undefined
      throw error
    })
  if (info === undefined) return undefined
  return { id: info.Id, startedAt: info.State.StartedAt, running: info.State.Running }
}

beforeAll(async () => {
  ;({ store } = await testStore())
  const image = await httpdImage()
  sourceId = await publishTestImageSource({
    store,
    imageDigest: image.digest,
    metadata: JSON.stringify({
      name: 'httpd lease',
      kind: 'lease',
      image: `gridforge-test/httpd@sha256:${image.digest.slice(2)}`,
      env: { LEASE: 'agent' },
      port: 8080,
      resources: { cpus: 0.5, memoryMiB: 64 },
      network: 'none',
    }),
  })
  provider = await testProviderClient([sourceId], { privateKey: providerKey })
  await startLeaseAgent()
}, 120_000)

afterAll(async () => {
  await agent?.stop()
  // This provider's lease containers and networks only (other tests share the engine).
  const leases = dockerLeaseRuntime({ owner: leaseOwner() })
  for (const container of await leases.listLeaseContainers())
    await leases.stopLeaseContainer(container.leaseId)
})

describe('leases', () => {
  let renter: TestClient
  let leaseId: bigint
  let token: string

  test('a request is accepted and served: the renter gets 200, another wallet 403, nobody 401', async () => {
    renter = await fundedClient()
    leaseId = await openLease(renter, price * 3_600n)
    token = await renterToken(renter, leaseId)
    await until(
      async () =>
        (await send(gatewayUrl(), { host: host(leaseId), headers: { authorization: `Bearer ${token}` } }))
          .status === 200,
      30_000,
      'the lease served',
    )
    const page = await send(gatewayUrl(), {
      host: host(leaseId),
      headers: { authorization: `Bearer ${token}` },
    })
    expect(page.body).toContain('page of lease agent')
    const strangerLogin = await signIn(gatewayUrl(), {
      host: host(leaseId),
      account: stranger,
      leaseMarket: leaseMarket(),
      chainId: renter.chain.id,
      leaseId,
    })
    expect(strangerLogin.status).toBe(403)
    expect((await send(gatewayUrl(), { host: host(leaseId) })).status).toBe(401)
  })

  test('acknowledgements: the renter posts them, the agent redeems the latest', async () => {
    await advance(30)
    const ack = await acknowledge(leaseId, token)
    await until(
      async () => (await lease(leaseId)).servedSec === ack.servedSec,
      20_000,
      'the acknowledgement redeemed',
    )
    expect((await lease(leaseId)).lastProofAt).toBe(ack.at)
    const usage = JSON.parse(
      (
        await send(gatewayUrl(), {
          host: host(leaseId),
          path: '/_gridforge/usage',
          headers: { authorization: `Bearer ${token}` },
        })
      ).body,
    )
    expect(usage).toMatchObject({ leaseId: leaseId.toString(), lastAck: ack })
  })

  test('a top-up grows the deposit', async () => {
    const before = (await lease(leaseId)).deposit
    await renter.waitForTransactionReceipt({
      hash: await renter.writeContract({
        address: leaseMarket(),
        abi: leaseMarketAbi,
        functionName: 'topUp',
        args: [leaseId, price * 600n],
      }),
    })
    expect((await lease(leaseId)).deposit).toBe(before + price * 600n)
  })

  test('a restarted agent re-attaches to the running container (same id, same start time)', async () => {
    const before = await containerOf(leaseId)
    expect(before?.running).toBe(true)
    await agent.stop()
    await startLeaseAgent()
    // The session outlives the restart (the gateway's key is in the data directory).
    await until(
      async () =>
        (await send(gatewayUrl(), { host: host(leaseId), headers: { authorization: `Bearer ${token}` } }))
          .status === 200,
      30_000,
      'the lease served again',
    )
    expect(await containerOf(leaseId)).toEqual(before)
  })

  test('closing early refunds exactly the deposit beyond the time since the last proof', async () => {
    const ack = await acknowledge(leaseId, token)
    await until(
      async () => (await lease(leaseId)).lastProofAt === ack.at,
      20_000,
      'the acknowledgement redeemed',
    )
    const { deposit, lastProofAt } = await lease(leaseId)
    const balance = await tokenBalance(renter.account.address)
    const hash = await renter.writeContract({
      address: leaseMarket(),
      abi: leaseMarketAbi,
      functionName: 'closeLease',
      args: [leaseId],
    })
    const ended = await leaseEnded(hash)
    const expected = deposit - price * BigInt(Number(ended?.endedAt) - lastProofAt)
    expect(ended?.refunded).toBe(expected)
    // The refund goes back to the wallet at once.
    expect(await tokenBalance(renter.account.address)).toBe(balance + expected)
    await until(async () => (await lease(leaseId)).status === 'Settled', 30_000, 'the lease settled')
    expect((await lease(leaseId)).reason).toBe('ClosedByRenter')
    await until(async () => (await containerOf(leaseId)) === undefined, 20_000, 'the container removed')
  })

  test('a lease whose deposit runs out ends OutOfDeposit', async () => {
    const poorRenter = await fundedClient()
    const id = await openLease(poorRenter, price * 400n)
    const poorToken = await renterToken(poorRenter, id)
    await advance(250)
    await acknowledge(id, poorToken)
    await advance(200)
    await until(async () => (await lease(id)).status === 'Settled', 30_000, 'the lease settled')
    expect((await lease(id)).reason).toBe('OutOfDeposit')
    await until(async () => (await containerOf(id)) === undefined, 20_000, 'the container removed')
  })

  test('an agent gone offline: reported, settled ProviderOffline, the renter refunded and paid the penalty', async () => {
    const offRenter = await fundedClient()
    const id = await openLease(offRenter, price * 3_600n)
    const offToken = await renterToken(offRenter, id)
    await advance(20)
    const ack = await acknowledge(id, offToken)
    await until(async () => (await lease(id)).lastProofAt === ack.at, 20_000, 'the acknowledgement redeemed')
    await agent.stop() // no cleanup: the container keeps running, the lease is not ended
    const params = await provider.readContract({
      address: leaseMarket(),
      abi: leaseMarketAbi,
      functionName: 'params',
    })
    await advance(params.offlineAfter + 1)
    await offRenter.waitForTransactionReceipt({
      hash: await offRenter.writeContract({
        address: leaseMarket(),
        abi: leaseMarketAbi,
        functionName: 'reportOffline',
        args: [id],
      }),
    })
    await advance(params.responseWindow + 1)
    const { deposit } = await lease(id)
    const balance = await marketBalance(offRenter.account.address)
    const staked = (await stakeOf(provider.account.address)).staked
    const hash = await offRenter.writeContract({
      address: leaseMarket(),
      abi: leaseMarketAbi,
      functionName: 'settleLease',
      args: [id],
    })
    const settled = await leaseSettled(hash)
    expect(settled?.reason).toBe(6) // ProviderOffline
    expect(settled?.endedAt).toBe(ack.at)
    expect(settled?.penalty).toBe(price * BigInt(penaltySec))
    expect(settled?.refunded).toBe(deposit)
    expect(await marketBalance(offRenter.account.address)).toBe(
      balance + deposit + price * BigInt(penaltySec),
    )
    // The penalty came out of the provider's stake.
    expect((await stakeOf(provider.account.address)).staked).toBe(staked - price * BigInt(penaltySec))
    // Restarted, the agent sees the lease settled and removes its container.
    await startLeaseAgent()
    await until(async () => (await containerOf(id)) === undefined, 20_000, 'the container removed')
  })

  test('`gridforge-provider lease notice`: served and paid through the notice, then ProviderNotice, settled and removed', async () => {
    await ensureBuilt()
    const space = await workspace()
    try {
      await space.write(devnetConfig(space, inject('devnet').rpcUrl))
      const env = { GRIDFORGE_PRIVATE_KEY: providerKey, GRIDFORGE_PROVIDER_CONFIG: space.config }
      const noticeRenter = await fundedClient()
      const id = await openLease(noticeRenter, price * 7_200n)
      await until(async () => (await containerOf(id))?.running === true, 20_000, 'the container running')
      // Only the lease's provider may: another account is told so before any transaction.
      const stranger = await runCli(['lease', 'notice', String(id)], {
        env: { ...env, GRIDFORGE_PRIVATE_KEY: generatePrivateKey() },
      })
      expect(stranger.code).not.toBe(0)
      expect(stranger.stderr).toContain('only its provider gives notice')

      const given = await runCli(['lease', 'notice', String(id), '--json'], { env, timeout: 60_000 })
      expect(given.code, given.stderr).toBe(0)
      const { endsAt } = JSON.parse(given.stdout) as { endsAt: number }
      const params = await provider.readContract({
        address: leaseMarket(),
        abi: leaseMarketAbi,
        functionName: 'params',
      })
      // The notice period from the notice's block (blocks since may have moved the clock on).
      expect(endsAt).toBeGreaterThan(await chainTime())
      expect(endsAt).toBeLessThanOrEqual((await chainTime()) + params.noticePeriod)
      expect((await lease(id)).endsAt).toBe(endsAt)
      await advance(params.noticePeriod + 1)
      await until(async () => (await lease(id)).status === 'Settled', 30_000, 'the lease settled')
      expect((await lease(id)).reason).toBe('ProviderNotice')
      await until(async () => (await containerOf(id)) === undefined, 20_000, 'the container removed')
    } finally {
      await space.cleanup()
    }
  })

  test('a renter that never acknowledges: the agent ends the lease for silence, RenterSilent', async () => {
    const silentRenter = await fundedClient()
    const id = await openLease(silentRenter, price * 3_600n)
    await until(async () => (await containerOf(id))?.running === true, 20_000, 'the container running')
    const params = await provider.readContract({
      address: leaseMarket(),
      abi: leaseMarketAbi,
      functionName: 'params',
    })
    await advance(params.ackGrace + 1)
    await until(async () => (await lease(id)).status === 'Settled', 30_000, 'the lease settled')
    expect((await lease(id)).reason).toBe('RenterSilent')
    await until(async () => (await containerOf(id)) === undefined, 20_000, 'the container removed')
  })
})
