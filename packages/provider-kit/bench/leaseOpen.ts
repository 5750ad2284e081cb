/**
 * From the lease request to the first proxied byte: a renter sends
 * `requestLease` for an httpd lease source on a fresh devnet; the provider
 * agent (leases enabled, the local Docker engine) accepts it, starts the
 * container and serves it behind its gateway; the renter signs in and asks
 * for the page until the gateway answers 200. The time counted runs from
 * sending the request transaction to the first byte of that answer: the
 * acceptance, the container's start and the sign-in are all in it, as a
 * renter waits through them.
 *
 *   pnpm --filter @gridforge/provider-kit bench:lease-open
 *
 * Options (environment): LEASES (default 5), run one after another.
 * Merges `open_to_first_byte_ms` (the median) and each lease's figure (under
 * `open_to_first_byte`) into bench/results/lease.json; `pnpm bench:lease` at
 * the root runs it with the gas and gateway figures.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  approveLeaseMarket,
  getProviderRegistryParams,
  publishSource,
  registerProvider,
  requestLease,
  stake,
  subscribeSources,
} from '@gridforge/sdk'
import { fsStore } from '@gridforge/sdk/storage'
import { createWalletClient, erc20Abi, type Hex, http, parseUnits, publicActions } from 'viem'
import { nonceManager, privateKeyToAccount } from 'viem/accounts'
import { hardhat } from 'viem/chains'
import { startDevnet } from '../../contracts/scripts/devnet.js'
import { startAgent } from '../src/agent/agent.js'
import { capabilitiesOf } from '../src/detect/capabilities.js'
import { jsonLogger } from '../src/logger.js'
import { dockerLeaseRuntime } from '../src/runtime/dockerLeaseRuntime.js'
import { dockerRuntime } from '../src/runtime/dockerRuntime.js'
import { httpdImage, send, signIn } from '../test/lease.js'
import { benchHost } from './setup.js'

const leaseCount = Number(process.env.LEASES ?? 5)
const resultsFile = resolve(dirname(fileURLToPath(import.meta.url)), '../../../bench/results/lease.json')
const now = () => performance.now()
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms))
/** 0.000001 GRID a second: an hour of deposit is 0.0036 GRID. */
const pricePerSec = 10n ** 12n

console.log('starting a devnet and building the httpd image…')
await using devnet = await startDevnet()
const { deployment } = devnet
const walletOf = (index: number) => {
  const key = devnet.privateKeys[index] as Hex | undefined
  if (key === undefined) throw new Error(`devnet: no account ${index}`)
  return createWalletClient({
    account: privateKeyToAccount(key, { nonceManager }),
    chain: hardhat,
    transport: http(devnet.rpcUrl),
    pollingInterval: 100,
  }).extend(publicActions)
}
const deployer = walletOf(0)
const provider = walletOf(1)
const renter = walletOf(2)
const image = await httpdImage()
const scratch = await mkdtemp(join(tmpdir(), 'gridforge-bench-lease-'))
const store = fsStore({ root: join(scratch, 'store') })

// ── The lease source and the provider ──────────────────────────────────────
const metadata = await store.put(
  new TextEncoder().encode(
    JSON.stringify({
      name: 'httpd lease',
      kind: 'lease',
      image: `gridforge-test/httpd@sha256:${image.digest.slice(2)}`,
      env: { LEASE: 'bench' },
      port: 8080,
      resources: { cpus: 0.5, memoryMiB: 64 },
      network: 'none',
    }),
  ),
)
const { sourceId } = await publishSource(deployer, {
  deployment,
  imageDigest: image.digest,
  metadata,
  requirements: {
    minGpus: 0,
    minVramMiB: 0,
    minComputeCapability: 0,
    maxRuntimeSec: 3_600,
    deterministic: false,
  },
})
const sendGrid = async (to: Hex, amount: bigint) =>
  deployer.waitForTransactionReceipt({
    hash: await deployer.writeContract({
      address: deployment.contracts.token,
      abi: erc20Abi,
      functionName: 'transfer',
      args: [to, amount],
    }),
  })
const { minProviderStake } = await getProviderRegistryParams(provider, { deployment })
await sendGrid(provider.account.address, minProviderStake + parseUnits('100', 18))
await stake(provider, { deployment, amount: minProviderStake + parseUnits('50', 18), approve: true })
const host = benchHost()
await registerProvider(provider, {
  deployment,
  capabilities: capabilitiesOf(host),
  profile: await store.put(new TextEncoder().encode(JSON.stringify(host))),
})
await subscribeSources(provider, { deployment, sourceIds: [sourceId] })
await sendGrid(renter.account.address, parseUnits('100', 18))
await approveLeaseMarket(renter, { deployment, amount: parseUnits('100', 18) })

const agentOwner =
  `${hardhat.id}:${deployment.contracts.market}:${provider.account.address}:leases`.toLowerCase()
await using agent = await startAgent({
  client: provider,
  deployment,
  store,
  runtime: dockerRuntime(),
  host,
  dataDir: join(scratch, 'agent'),
  policy: { sources: [sourceId] },
  pollingInterval: 100,
  rescanInterval: 600_000,
  logger: jsonLogger({ level: 'warn', write: (line) => process.stderr.write(`${line}\n`) }),
  leases: { enabled: true, minPricePerSec: 1n, maxConcurrent: leaseCount, redeemEveryMs: 3_600_000 },
})
const gateway = agent.leaseGateway
if (gateway === undefined) throw new Error('the agent started without its lease gateway')

// ── Leases, one after another ──────────────────────────────────────────────
const figures: number[] = []
try {
  for (let i = 0; i < leaseCount; i++) {
    const sent = now()
    const { leaseId } = await requestLease(renter, {
      deployment,
      sourceId,
      maxPricePerSec: pricePerSec,
      duration: '1h',
      deposit: pricePerSec * 3_600n,
    })
    const leaseHost = `${leaseId}.${gateway.publicHost}`
    let token: string | undefined
    let firstByte: number | undefined
    while (firstByte === undefined) {
      if (now() - sent > 120_000) throw new Error(`lease ${leaseId}: no page after 120 s`)
      // Sign-in needs the lease accepted: until then the gateway refuses it.
      token ??= (
        await signIn(gateway.url, {
          host: leaseHost,
          account: renter.account,
          leaseMarket: deployment.contracts.leases,
          chainId: hardhat.id,
          leaseId,
        })
      ).token
      if (token !== undefined) {
        const answer = await send(gateway.url, {
          host: leaseHost,
          headers: { authorization: `Bearer ${token}` },
        })
        if (answer.status === 200) firstByte = answer.firstByteAt
      }
      if (firstByte === undefined) await sleep(25)
    }
    figures.push(firstByte - sent)
    console.log(`lease ${leaseId}: first byte ${(firstByte - sent).toFixed(0)} ms after the request was sent`)
  }
} finally {
  const leases = dockerLeaseRuntime({ owner: agentOwner })
  for (const container of await leases.listLeaseContainers())
    await leases.stopLeaseContainer(container.leaseId)
  await rm(scratch, { recursive: true, force: true })
}

const sorted = [...figures].sort((a, b) => a - b)
const median = sorted[Math.floor((sorted.length - 1) / 2)] as number
console.log(`open → first byte: median ${median.toFixed(0)} ms over ${figures.length} leases`)

await mkdir(dirname(resultsFile), { recursive: true })
const previous = await readFile(resultsFile, 'utf8').then(
  (text) => JSON.parse(text) as Record<string, unknown>,
  () => ({}),
)
await writeFile(
  resultsFile,
  `${JSON.stringify(
    {
      ...previous,
      open_to_first_byte_ms: Math.round(median),
      open_to_first_byte: {
        leases: figures.length,
        each_ms: figures.map((ms) => Math.round(ms)),
        counted: 'requestLease sent → acceptance, container start, sign-in → first byte of the 200',
        block_time: 'automine: a block per transaction',
      },
    },
    null,
    2,
  )}\n`,
)
console.log(`wrote ${resultsFile}`)
