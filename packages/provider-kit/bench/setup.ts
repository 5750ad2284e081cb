import { cpus, totalmem } from 'node:os'
import { type Deployment, publishSource } from '@gridforge/sdk'
import type { ContentStore } from '@gridforge/sdk/storage'
import type { Account, Chain, Client, Hex, Transport } from 'viem'
import type { HostReport } from '../src/detect/HostReport.js'

/**
 * Publishes a CPU source running `command` in the benches' locally built image
 * (`repository@sha256:…`), its metadata on `store`; returns its id. Not
 * deterministic: a single-replica result is paid when it is submitted, which is
 * what the benches measure. (A deterministic source's result would be held for
 * its audit draw until two more blocks are mined, and the benches' devnet mines
 * only on transactions.)
 */
export async function publishBenchSource(parameters: {
  client: Client<Transport, Chain, Account>
  deployment: Deployment
  store: ContentStore
  name: string
  /** The image's repository, e.g. `gridforge-bench/provider`. */
  repository: string
  imageDigest: Hex
  command: string[]
  maxRuntimeSec: number
}): Promise<number> {
  const { client, deployment, store, name, repository, imageDigest, command, maxRuntimeSec } = parameters
  const metadata = await store.put(
    new TextEncoder().encode(
      JSON.stringify({
        name,
        image: `${repository}@sha256:${imageDigest.slice(2)}`,
        command,
        resources: { cpus: 1, memoryMiB: 256, maxRuntimeSec },
      }),
    ),
  )
  const { sourceId } = await publishSource(client, {
    deployment,
    imageDigest,
    metadata,
    requirements: { minGpus: 0, minVramMiB: 0, minComputeCapability: 0, maxRuntimeSec, deterministic: false },
  })
  return sourceId
}

/** This machine as the benches' agents see it: its CPUs and memory, no GPU, Docker reachable. */
export function benchHost(): HostReport {
  return {
    os: { platform: 'linux', distro: 'bench', release: '', kernel: '', arch: process.arch },
    cpu: { model: cpus()[0]?.model ?? 'unknown', cores: cpus().length },
    memoryMiB: Math.floor(totalmem() / 1024 ** 2),
    diskFreeMiB: 100_000,
    nvidia: { status: 'absent', gpus: [] },
    docker: { reachable: true, version: '', apiVersion: '', nvidiaRuntime: false, runtimes: ['runc'] },
  }
}
