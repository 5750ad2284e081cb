/**
 * The local network's providers: this host's profile in the provider kit's format (what
 * `gridforge-provider register` uploads), then stake, registration and subscriptions per account.
 */
import {
  benchmarkHost,
  capabilitiesOf,
  GpuBenchmarkError,
  type HostBenchmark,
  type HostReport,
  profileOf,
} from '@gridforge/provider-kit'
import { type Deployment, registerProvider, stake, subscribeSources } from '@gridforge/sdk'
import type { ContentStore } from '@gridforge/sdk/storage'
import type { LocalWallet } from './localChain.js'

/**
 * Benchmarks this host and stores its provider profile (`profileOf`: the capabilities registered on
 * chain, the host report, the benchmark, the kit's version) the way `gridforge-provider register`
 * does, and returns its CID. The GPU benchmark's image is not pulled (a local network needs no
 * registry): when it cannot run, the profile carries a CPU benchmark that says why.
 *
 * @example
 * const profile = await storeLocalProfile({ host: await detectHost(), store, log, warn })
 */
export async function storeLocalProfile(parameters: {
  host: HostReport
  store: ContentStore
  log: (line: string) => void
  warn: (message: string) => void
}): Promise<string> {
  const { host, store, log, warn } = parameters
  const benchmark = await benchmarkLocalHost(host, warn)
  const cid = await store.putJson(profileOf(host, benchmark))
  log(`profile ${cid} (${benchmark.kind} benchmark: ${benchmark.score} ${benchmark.unit})`)
  return cid
}

async function benchmarkLocalHost(host: HostReport, warn: (message: string) => void): Promise<HostBenchmark> {
  try {
    return await benchmarkHost({ report: host, gpu: { pull: false } })
  } catch (error) {
    if (!(error instanceof GpuBenchmarkError)) throw error
    warn(`the GPUs could not be benchmarked (${error.shortMessage}): the profile carries a CPU benchmark`)
    const cpu = await benchmarkHost({ report: { ...host, nvidia: { status: 'absent', gpus: [] } } })
    return cpu.kind === 'cpu' ? { ...cpu, details: { ...cpu.details, gpuSkipped: error.shortMessage } } : cpu
  }
}

/**
 * Stakes 200 GRID, registers `provider` with this host's capabilities and `profile`, and subscribes
 * it to `sourceIds`.
 *
 * @example
 * await registerLocalProvider(provider, { deployment, host, profile, sourceIds: [1, 2] })
 */
export async function registerLocalProvider(
  provider: LocalWallet,
  parameters: { deployment: Deployment; host: HostReport; profile: string; sourceIds: readonly number[] },
): Promise<void> {
  const { deployment, host, profile, sourceIds } = parameters
  await stake(provider, { deployment, amount: '200', approve: true })
  await registerProvider(provider, { deployment, capabilities: capabilitiesOf(host), profile })
  await subscribeSources(provider, { deployment, sourceIds: [...sourceIds] })
}
