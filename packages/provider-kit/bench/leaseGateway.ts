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
 * direct request pays a connection to the container, and so does the gateway's hop. Each ratio is the
 * median of ROUNDS rounds (default 5) of REQUESTS alternated GETs each way (default 500), the three taken
 * in turn in every round, so that the host's load touches them alike.
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
import { startLeaseGateway } from '../src/lease/leaseGateway.js'
import { type GatewayOverhead, measureGatewayOverhead } from '../src/lease/measureGatewayOverhead.js'
import { freePort } from '../src/lease/nginx/freePort.js'
import { nginxAvailable, nginxDataPath } from '../src/lease/nginx/nginxDataPath.js'
import { containerLabels } from '../src/runtime/ContainerRuntime.js'
import { dockerLeaseRuntime } from '../src/runtime/dockerLeaseRuntime.js'
import { removeContainers } from '../test/docker.js'
import { fakeAuthority, httpdImage, signIn } from '../test/lease.js'

const requests = Number(process.env.REQUESTS ?? 500)
const rounds = Number(process.env.ROUNDS ?? 5)
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

const labels: Record<string, string> = {
  nginx: 'gateway behind its nginx data path',
  node: 'gateway alone (Node), in its own process',
  tcp_relay: 'bare TCP relay (Node), in its own process',
}

const middle = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] as number
}
const round3 = (value: number) => Number(value.toFixed(3))
/** The rounds' median ratio (and the medians of their latencies), with the lowest and highest ratio. */
const summarize = (runs: GatewayOverhead[]) => ({
  ratio: round3(middle(runs.map((run) => run.ratio))),
  ratio_min: round3(Math.min(...runs.map((run) => run.ratio))),
  ratio_max: round3(Math.max(...runs.map((run) => run.ratio))),
  direct_median_ms: round3(middle(runs.map((run) => run.directMedianMs))),
  through_median_ms: round3(middle(runs.map((run) => run.gatewayMedianMs))),
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
  /** A way through to the container: where to send, as which host, with which token. */
  type Front = { name: string; url: string; leaseHost: string; token: string }
  const signedIn = async (name: string, url: string, publicHost: string): Promise<Front> => {
    const leaseHost = `1.${publicHost}`
    const login = await signIn(url, {
      host: leaseHost,
      account: renter,
      leaseMarket,
      chainId: 31337,
      leaseId: 1n,
    })
    if (login.token === undefined) throw new Error(`sign-in at ${url} failed: ${login.status} ${login.body}`)
    return { name, url, leaseHost, token: login.token }
  }
  const stops: (() => Promise<void> | void)[] = []
  try {
    const fronts: Front[] = []
    // The gateway behind its nginx data path, where nginx and its njs module are installed.
    let passedToGateway = 0
    if (await nginxAvailable()) {
      const dir = await mkdtemp(path.join(tmpdir(), 'gridforge-bench-nginx-'))
      const secret = randomBytes(32)
      const port = await freePort()
      const publicHost = `localhost:${port}`
      const authority = fakeAuthority()
      authority.leases.set(1n, { renter: renter.address, provider: renter.address, active: true })
      const dataPath = await nginxDataPath({ dir, port })
      const gateway = await startLeaseGateway({
        chainId: 31337,
        leaseMarket,
        authority,
        secret,
        publicHost,
        dataPath,
        onExchange: (exchange) => {
          if (exchange.via === 'gateway') passedToGateway++
        },
      })
      stops.push(async () => {
        // nginx writes its log of exchanges as it stops: the meter has them all after.
        await dataPath.stop()
        const served = gateway.usage(1n).requests
        console.log(
          `nginx served ${served - passedToGateway} of the ${served} requests, the gateway ${passedToGateway}`,
        )
        await gateway.close()
        await rm(dir, { recursive: true, force: true })
      })
      await dataPath.start(gateway)
      gateway.serveLease(1n, upstream)
      fronts.push(await signedIn('nginx', dataPath.url, publicHost))
    } else console.log('nginx with its njs module is not installed: the nginx data path is not measured')
    // The gateway alone, in its own process, as the agent runs it without nginx.
    const { child, answer: apart } = await forkWith<{ url: string; publicHost: string }>(
      './gatewayProcess.ts',
      {
        renter: renter.address,
        leaseMarket,
        upstream,
      },
    )
    stops.push(() => child.disconnect())
    fronts.push(await signedIn('node', apart.url, apart.publicHost))
    // The floor of a hop through Node: a bare TCP relay in its own process (no HTTP, so the token is only carried).
    const { child: relay, answer: relayUrl } = await forkWith<string>('./tcpRelayProcess.ts', { upstream })
    stops.push(() => relay.disconnect())
    fronts.push({ name: 'tcp_relay', url: relayUrl, leaseHost: '1.localhost', token: 'unused' })

    // Rounds, each through every front in turn: a change of the host's load touches them all alike.
    const measured = new Map<string, GatewayOverhead[]>(fronts.map((front) => [front.name, []]))
    for (let round = 1; round <= rounds; round++)
      for (const front of fronts) {
        const overhead = await measureGatewayOverhead({
          upstream,
          gatewayUrl: front.url,
          leaseHost: front.leaseHost,
          token: front.token,
          requests,
        })
        measured.get(front.name)?.push(overhead)
        report(`round ${round}, ${labels[front.name]}`, overhead)
      }
    const summary = new Map([...measured].map(([name, runs]) => [name, summarize(runs)]))
    for (const [name, figures] of summary)
      console.log(
        `${labels[name]}: median ratio of ${rounds} rounds ${figures.ratio} (${figures.ratio_min}–${figures.ratio_max}; target ≤ 1.5)`,
      )
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
    const nginx = summary.get('nginx')
    const node = summary.get('node') as ReturnType<typeof summarize>
    const results = {
      open_to_first_byte_ms: null,
      gas_per_lease_hour: null,
      ...existing,
      gateway_overhead_ratio: (nginx ?? node).ratio,
      gateway_data_path: nginx === undefined ? 'node' : 'nginx',
      gateway_overhead_ratio_nginx: nginx?.ratio ?? null,
      gateway_overhead_ratio_node: node.ratio,
      tcp_relay_ratio: summary.get('tcp_relay')?.ratio,
      gateway_latency: { requests, rounds, ...Object.fromEntries(summary) },
    }
    await mkdir(path.dirname(resultsFile), { recursive: true })
    await writeFile(resultsFile, `${JSON.stringify(results, null, 2)}\n`)
    console.log(`Wrote ${path.relative(process.cwd(), resultsFile)}`)
  } finally {
    for (const stop of stops.reverse()) await stop()
  }
} finally {
  await runtime.stopLeaseContainer(1n)
  await removeContainers(`${containerLabels.owner}=${owner}`)
}
