/**
 * The lease gateway's overhead: the median latency of a GET straight to a
 * lease container's service against the same through the gateway (signed
 * in, bearer token), on this host's Docker engine. The issue's target: a
 * ratio of at most 1.5.
 *
 *   pnpm --filter @gridforge/provider-kit bench:lease-gateway
 *
 * Measured twice: with the gateway in a process of its own, as the agent runs
 * it (`gateway_overhead_ratio`), and in this process, where the renter's
 * requests and the gateway share one event loop and every hop waits for the
 * other's work (`gateway_overhead_ratio_same_process`, the figure of earlier
 * runs), and against a bare TCP relay in its own process (`tcp_relay_ratio`): the floor of any userspace
 * hop on this host, before HTTP parsing and authentication; and, where nginx and its njs module are
 * installed, against nginx checking the same session token in njs (`nginx_njs_ratio`, bench/nginxRelay.ts):
 * what a native data path would cost. The service is busybox httpd (tests' image), which closes every
 * connection: each direct request pays a connection to the container, and so
 * does the gateway's hop. Options (environment): REQUESTS (default 500).
 *
 * Merges both ratios (and the medians, under `gateway_latency_ms`) into
 * bench/results/lease.json; `pnpm bench:lease` at the root runs it with the gas figure.
 */
import { fork } from 'node:child_process'
import { randomBytes, randomUUID } from 'node:crypto'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { privateKeyToAccount } from 'viem/accounts'
import { startLeaseGateway } from '../src/lease/leaseGateway.js'
import { measureGatewayOverhead } from '../src/lease/measureGatewayOverhead.js'
import { containerLabels } from '../src/runtime/ContainerRuntime.js'
import { dockerLeaseRuntime } from '../src/runtime/dockerLeaseRuntime.js'
import { removeContainers } from '../test/docker.js'
import { fakeAuthority, httpdImage, signIn } from '../test/lease.js'
import { nginxAvailable, startNginxRelay } from './nginxRelay.js'

const requests = Number(process.env.REQUESTS ?? 500)
const renter = privateKeyToAccount(`0x${'11'.repeat(32)}`)
const leaseMarket = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const owner = `bench-lease-gateway-${randomUUID()}`
const runtime = dockerLeaseRuntime({ owner })
const authority = fakeAuthority()
authority.leases.set(1n, { renter: renter.address, provider: renter.address, active: true })

function report(what: string, overhead: Awaited<ReturnType<typeof measureGatewayOverhead>>) {
  console.log(
    `${what}: ${overhead.requests} requests each: direct median ${overhead.directMedianMs.toFixed(3)} ms, ` +
      `through it ${overhead.gatewayMedianMs.toFixed(3)} ms, ratio ${overhead.ratio.toFixed(2)} (target ≤ 1.5)`,
  )
}

const image = await httpdImage()
/** Forks a bench process (TypeScript, through tsx), sends it `message`, and waits for its first answer. */
async function forkWith<answer>(file: string, message: unknown) {
  const child = fork(fileURLToPath(new URL(file, import.meta.url)), { execArgv: ['--import', 'tsx'] })
  const answer = await new Promise<answer>((resolve, reject) => {
    child.once('message', (reply) => resolve(reply as answer))
    child.once('error', reject)
    child.send(message as object)
  })
  return { child, answer }
}

/** The session key, as text: nginx's njs check (bench/nginxRelay.ts) takes the same bytes. */
const secretText = randomBytes(32).toString('hex')
const gateway = await startLeaseGateway({
  chainId: 31337,
  leaseMarket,
  authority,
  secret: new TextEncoder().encode(secretText),
})
try {
  const lease = await runtime.startLeaseContainer({
    leaseId: 1n,
    image: image.id,
    env: { LEASE: '1' },
    port: 8080,
    gpus: [],
    network: 'none',
    limits: { memoryBytes: 64 << 20, cpus: 1, pids: 64, tmpBytes: 1 << 20, workdirBytes: 1 << 20 },
  })
  if (lease.upstream === undefined) throw new Error('the lease container has no upstream')
  gateway.serveLease(1n, lease.upstream)
  const leaseHost = `1.${gateway.publicHost}`
  const { token } = await signIn(gateway.url, {
    host: leaseHost,
    account: renter,
    leaseMarket,
    chainId: 31337,
    leaseId: 1n,
  })
  if (token === undefined) throw new Error('sign-in failed')
  const { upstream } = lease
  /** GETs through `gatewayUrl` against the same straight to the container. */
  const measure = (gatewayUrl: string, host: string, bearer: string) =>
    measureGatewayOverhead({ upstream, gatewayUrl, leaseHost: host, token: bearer, requests })
  const sameProcess = await measure(gateway.url, leaseHost, token)
  report('gateway in this process', sameProcess)

  // The same gateway in its own process: sign in there (its own session secret), then measure.
  const { child, answer: apart } = await forkWith<{ url: string; publicHost: string }>(
    './gatewayProcess.ts',
    {
      renter: renter.address,
      leaseMarket,
      upstream,
    },
  )
  let overhead: Awaited<ReturnType<typeof measureGatewayOverhead>>
  try {
    const apartHost = `1.${apart.publicHost}`
    const apartLogin = await signIn(apart.url, {
      host: apartHost,
      account: renter,
      leaseMarket,
      chainId: 31337,
      leaseId: 1n,
    })
    if (apartLogin.token === undefined) throw new Error('sign-in failed (gateway process)')
    overhead = await measure(apart.url, apartHost, apartLogin.token)
    report('gateway in its own process', overhead)
  } finally {
    child.disconnect()
  }

  // The floor: a bare TCP relay in its own process (what any userspace hop costs here, before HTTP and auth).
  const { child: relay, answer: relayUrl } = await forkWith<string>('./tcpRelayProcess.ts', { upstream })
  let floor: Awaited<ReturnType<typeof measureGatewayOverhead>>
  try {
    floor = await measure(relayUrl, leaseHost, token)
    report('bare TCP relay in its own process (the floor of a hop)', floor)
  } finally {
    relay.disconnect()
  }
  // A native data path where nginx with njs is installed: the same token checked in njs, the bytes never in Node.
  let native: Awaited<ReturnType<typeof measureGatewayOverhead>> | undefined
  if (await nginxAvailable()) {
    const nginx = await startNginxRelay(upstream, secretText)
    try {
      native = await measure(nginx.url, leaseHost, token)
      report('nginx checking the session token in njs (a native data path)', native)
    } finally {
      await nginx.stop()
    }
  } else console.log('nginx with njs is not installed: no native data path measured')
  const resultsFile = path.resolve(
    path.dirname(fileURLToPath(import.meta.url)),
    '../../../bench/results/lease.json',
  )
  const existing = await readFile(resultsFile, 'utf8')
    .then((text) => JSON.parse(text) as Record<string, unknown>)
    .catch(() => ({}))
  const results = {
    open_to_first_byte_ms: null,
    gas_per_lease_hour: null,
    ...existing,
    gateway_overhead_ratio: Number(overhead.ratio.toFixed(3)),
    gateway_overhead_ratio_same_process: Number(sameProcess.ratio.toFixed(3)),
    tcp_relay_ratio: Number(floor.ratio.toFixed(3)),
    nginx_njs_ratio: native === undefined ? null : Number(native.ratio.toFixed(3)),
    gateway_latency_ms: {
      requests: overhead.requests,
      direct_median: Number(overhead.directMedianMs.toFixed(3)),
      gateway_median: Number(overhead.gatewayMedianMs.toFixed(3)),
      same_process: {
        direct_median: Number(sameProcess.directMedianMs.toFixed(3)),
        gateway_median: Number(sameProcess.gatewayMedianMs.toFixed(3)),
      },
      tcp_relay: {
        direct_median: Number(floor.directMedianMs.toFixed(3)),
        relay_median: Number(floor.gatewayMedianMs.toFixed(3)),
      },
      nginx_njs:
        native === undefined
          ? null
          : {
              direct_median: Number(native.directMedianMs.toFixed(3)),
              relay_median: Number(native.gatewayMedianMs.toFixed(3)),
            },
    },
  }
  await mkdir(path.dirname(resultsFile), { recursive: true })
  await writeFile(resultsFile, `${JSON.stringify(results, null, 2)}\n`)
  console.log(`Wrote ${path.relative(process.cwd(), resultsFile)}`)
} finally {
  await gateway.close()
  await runtime.stopLeaseContainer(1n)
  await removeContainers(`${containerLabels.owner}=${owner}`)
}
