/**
 * The lease gateway's overhead: the median latency of a GET straight to a
 * lease container's service against the same through the gateway (signed
 * in, bearer token), on this host's Docker engine. The issue's target: a
 * ratio of at most 1.5.
 *
 *   pnpm --filter @gridforge/provider-kit bench:lease-gateway
 *
 * Measured three ways, each against the same container:
 * - `gateway_overhead_ratio_nginx`: the gateway behind its nginx data path (`nginxDataPath`), as the
 *   agent runs it where nginx and its njs module are installed (`gateway.dataPath: 'auto'`);
 * - `gateway_overhead_ratio_node`: the gateway alone, in a process of its own, as the agent runs it
 *   without nginx;
 * - `tcp_relay_ratio`: a bare TCP relay in Node, no HTTP, no checks: the floor of any hop through Node here.
 * `gateway_overhead_ratio` is the first where nginx is installed, else the second (`gateway_data_path`
 * says which). The service is busybox httpd (the tests' image), which closes every connection: each
 * direct request pays a connection to the container, and so does the gateway's hop. Options
 * (environment): REQUESTS (default 500).
 *
 * Merges the figures into bench/results/lease.json; `pnpm bench:lease` at the root runs it with the gas figure.
 */
import { fork } from 'node:child_process'
import { randomBytes, randomUUID } from 'node:crypto'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { privateKeyToAccount } from 'viem/accounts'
import { freePort } from '../../contracts/scripts/devnet.js'
import { startLeaseGateway } from '../src/lease/leaseGateway.js'
import { type GatewayOverhead, measureGatewayOverhead } from '../src/lease/measureGatewayOverhead.js'
import { nginxAvailable, nginxDataPath } from '../src/lease/nginx/nginxDataPath.js'
import { containerLabels } from '../src/runtime/ContainerRuntime.js'
import { dockerLeaseRuntime } from '../src/runtime/dockerLeaseRuntime.js'
import { removeContainers } from '../test/docker.js'
import { fakeAuthority, httpdImage, signIn } from '../test/lease.js'

const requests = Number(process.env.REQUESTS ?? 500)
const renter = privateKeyToAccount(`0x${'11'.repeat(32)}`)
const leaseMarket = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const owner = `bench-lease-gateway-${randomUUID()}`
const runtime = dockerLeaseRuntime({ owner })

function report(what: string, overhead: GatewayOverhead) {
  console.log(
    `${what}: ${overhead.requests} requests each: direct median ${overhead.directMedianMs.toFixed(3)} ms, ` +
      `through it ${overhead.gatewayMedianMs.toFixed(3)} ms, ratio ${overhead.ratio.toFixed(2)} (target ≤ 1.5)`,
  )
}

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

const figures = (overhead: GatewayOverhead) => ({
  ratio: Number(overhead.ratio.toFixed(3)),
  direct_median_ms: Number(overhead.directMedianMs.toFixed(3)),
  through_median_ms: Number(overhead.gatewayMedianMs.toFixed(3)),
})

const image = await httpdImage()
const lease = await runtime.startLeaseContainer({
  leaseId: 1n,
  image: image.id,
  env: { LEASE: '1' },
  port: 8080,
  gpus: [],
  network: 'none',
  limits: { memoryBytes: 64 << 20, cpus: 1, pids: 64, tmpBytes: 1 << 20, workdirBytes: 1 << 20 },
})
try {
  const upstream = lease.upstream
  if (upstream === undefined) throw new Error('the lease container has no upstream')
  /** Signs in at `url` (host `1.<publicHost>`), then GETs through it against the same straight to the container. */
  const measureThrough = async (url: string, publicHost: string) => {
    const leaseHost = `1.${publicHost}`
    const login = await signIn(url, {
      host: leaseHost,
      account: renter,
      leaseMarket,
      chainId: 31337,
      leaseId: 1n,
    })
    if (login.token === undefined) throw new Error(`sign-in at ${url} failed: ${login.status} ${login.body}`)
    return measureGatewayOverhead({ upstream, gatewayUrl: url, leaseHost, token: login.token, requests })
  }

  // The gateway alone, in its own process, as the agent runs it without nginx.
  const { child, answer: apart } = await forkWith<{ url: string; publicHost: string }>(
    './gatewayProcess.ts',
    {
      renter: renter.address,
      leaseMarket,
      upstream,
    },
  )
  let node: GatewayOverhead
  try {
    node = await measureThrough(apart.url, apart.publicHost)
    report('gateway alone (Node), in its own process', node)
  } finally {
    child.disconnect()
  }

  // The floor of a hop through Node: a bare TCP relay in its own process.
  const { child: relay, answer: relayUrl } = await forkWith<string>('./tcpRelayProcess.ts', { upstream })
  let floor: GatewayOverhead
  try {
    // No HTTP, so no check either: the token is only carried along.
    floor = await measureGatewayOverhead({
      upstream,
      gatewayUrl: relayUrl,
      leaseHost: '1.localhost',
      token: 'unused',
      requests,
    })
    report('bare TCP relay (Node), in its own process: the floor of a hop through Node', floor)
  } finally {
    relay.disconnect()
  }

  // The gateway behind its nginx data path, where nginx and its njs module are installed.
  let nginx: GatewayOverhead | undefined
  if (await nginxAvailable()) {
    const dir = await mkdtemp(path.join(tmpdir(), 'gridforge-bench-nginx-'))
    const secret = randomBytes(32)
    const port = await freePort()
    const publicHost = `localhost:${port}`
    const authority = fakeAuthority()
    authority.leases.set(1n, { renter: renter.address, provider: renter.address, active: true })
    const dataPath = await nginxDataPath({ dir, secret, chainId: 31337, leaseMarket, port })
    const gateway = await startLeaseGateway({
      chainId: 31337,
      leaseMarket,
      authority,
      secret,
      publicHost,
      dataPath,
    })
    try {
      await dataPath.start(gateway)
      gateway.serveLease(1n, upstream)
      nginx = await measureThrough(dataPath.url, publicHost)
      report('gateway behind its nginx data path', nginx)
    } finally {
      // nginx writes its log of exchanges as it stops: the meter has them all after.
      await dataPath.stop()
      console.log(`  the gateway's meter counted ${gateway.usage(1n).requests} requests served by nginx`)
      await gateway.close()
      await rm(dir, { recursive: true, force: true })
    }
  } else console.log('nginx with its njs module is not installed: the nginx data path is not measured')

  const resultsFile = path.resolve(
    path.dirname(fileURLToPath(import.meta.url)),
    '../../../bench/results/lease.json',
  )
  const existing = await readFile(resultsFile, 'utf8')
    .then((text) => JSON.parse(text) as Record<string, unknown>)
    .catch(() => ({}) as Record<string, unknown>)
  // Figures of earlier versions of this bench, measured differently: not kept.
  for (const key of ['gateway_overhead_ratio_same_process', 'nginx_njs_ratio', 'gateway_latency_ms'])
    delete existing[key]
  const headline = nginx ?? node
  const results = {
    open_to_first_byte_ms: null,
    gas_per_lease_hour: null,
    ...existing,
    gateway_overhead_ratio: Number(headline.ratio.toFixed(3)),
    gateway_data_path: nginx === undefined ? 'node' : 'nginx',
    gateway_overhead_ratio_nginx: nginx === undefined ? null : Number(nginx.ratio.toFixed(3)),
    gateway_overhead_ratio_node: Number(node.ratio.toFixed(3)),
    tcp_relay_ratio: Number(floor.ratio.toFixed(3)),
    gateway_latency: {
      requests,
      nginx: nginx === undefined ? null : figures(nginx),
      node: figures(node),
      tcp_relay: figures(floor),
    },
  }
  await mkdir(path.dirname(resultsFile), { recursive: true })
  await writeFile(resultsFile, `${JSON.stringify(results, null, 2)}\n`)
  console.log(`Wrote ${path.relative(process.cwd(), resultsFile)}`)
} finally {
  await runtime.stopLeaseContainer(1n)
  await removeContainers(`${containerLabels.owner}=${owner}`)
}
