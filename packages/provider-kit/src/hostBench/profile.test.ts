import { readFile } from 'node:fs/promises'
import { encodeJson } from '@gridforge/sdk/storage'
import { describe, expect, test } from 'vitest'
import { capabilitiesOf } from '../detect/capabilities.js'
import { queryNvidia } from '../detect/nvidiaSmi.js'
import { hostReport, nvidiaSmiFixture } from '../detect/testing.js'
import type { HostBenchmark } from './benchmarkHost.js'
import { profileOf, providerKitVersion } from './profile.js'

const benchmark: HostBenchmark = {
  kind: 'gpu',
  score: 76_033.522,
  unit: 'GFLOP/s',
  details: { image: 'nvcr.io/nvidia/k8s/cuda-sample:nbody-cuda11.7.1', numBodies: 262_144, gpus: [] },
  measuredAt: '2026-11-21T10:00:00.000Z',
}

describe('profileOf', () => {
  test('format, kit version, on-chain capabilities, the full report and the benchmark', async () => {
    const host = hostReport({ nvidia: await queryNvidia({ exec: nvidiaSmiFixture('a100-mig') }) })
    const profile = profileOf(host, benchmark)
    expect(profile).toEqual({
      format: 'gridforge-provider-profile',
      version: 1,
      kit: { name: '@gridforge/provider-kit', version: providerKitVersion },
      capabilities: capabilitiesOf(host),
      host,
      benchmark,
    })
    expect(profile.capabilities.gpuCount).toBe(1)
  })

  test('encodes as deterministic JSON (what putJson stores) and reads back equal', async () => {
    const host = hostReport({ nvidia: await queryNvidia({ exec: nvidiaSmiFixture('rtx-4090') }) })
    const bytes = encodeJson(profileOf(host, benchmark))
    expect(JSON.parse(new TextDecoder().decode(bytes))).toEqual(
      JSON.parse(JSON.stringify(profileOf(host, benchmark))),
    )
  })

  test('the kit version is the package version', async () => {
    const manifest = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version: string
    }
    expect(providerKitVersion).toBe(manifest.version)
  })
})
