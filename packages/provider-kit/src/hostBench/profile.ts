import type { Capabilities } from '@gridforge/sdk'
import { capabilitiesOf } from '../detect/capabilities.js'
import type { HostReport } from '../detect/HostReport.js'
import type { HostBenchmark } from './benchmarkHost.js'

/** The provider kit's version, written into profiles (a test keeps it equal to package.json). */
export const providerKitVersion = '0.1.0'

/**
 * The provider profile: the JSON document a provider uploads at registration
 * (its CID is the `profile` argument of `registerProvider`). It lets clients
 * and the market see what the on-chain capabilities summarise: the full
 * hardware report, the benchmark that measured it, and which software wrote it.
 *
 * - `format`, `version`: this document's format (version 1); readers refuse
 *   versions they do not know.
 * - `kit`: the package and version that detected and measured the host.
 * - `capabilities`: exactly what is registered on chain (`capabilitiesOf(host)`).
 * - `host`: `detectHost()`'s report (GPUs with UUIDs, driver, CUDA, CPU,
 *   memory, disk, Docker): the capabilities can be checked against it.
 * - `benchmark`: `benchmarkHost()`'s result, with `measuredAt`.
 */
export interface ProviderProfile {
  format: 'gridforge-provider-profile'
  version: 1
  kit: { name: '@gridforge/provider-kit'; version: string }
  capabilities: Capabilities
  host: HostReport
  benchmark: HostBenchmark
}

/**
 * The provider profile for `report` and `benchmark` (see {@link ProviderProfile}),
 * ready for `JSON.stringify` and upload.
 *
 * @example
 * import { benchmarkHost, detectHost, profileOf } from '@gridforge/provider-kit'
 *
 * const host = await detectHost()
 * const profile = profileOf(host, await benchmarkHost({ report: host }))
 * const cid = await store.putJson(profile) // then registerProvider(client, { capabilities: profile.capabilities, profile: cid, … })
 */
export function profileOf(report: HostReport, benchmark: HostBenchmark): ProviderProfile {
  return {
    format: 'gridforge-provider-profile',
    version: 1,
    kit: { name: '@gridforge/provider-kit', version: providerKitVersion },
    capabilities: capabilitiesOf(report),
    host: report,
    benchmark,
  }
}
