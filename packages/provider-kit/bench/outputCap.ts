/**
 * How far past `maxOutputBytes` an output bomb gets before the runtime kills
 * it, in both runtimes, over several runs.
 *
 *   pnpm --filter @gridforge/provider-kit bench:output-cap
 *
 * Each run is `dd if=/dev/zero of=$GRIDFORGE_OUTPUT_DIR/bomb bs=1M count=4000`
 * (4 GB at the disk's speed) against a cap of CAP_MIB, with the runtimes'
 * default settings; after the run the output directory is measured. The
 * overshoot is that size minus the cap; read as time, at the run's own
 * average speed (size / (finish − start)), it is how long the task kept
 * writing past the cap. `at detection` is the size the watchdog measured when
 * it killed: the rest of the overshoot came while the kill landed. `late` is
 * the event loop's worst delay during the run: on a loaded host the watchdog
 * runs late by that much.
 *
 * Writes bench/results/output-cap.json at the repository root.
 * Options (environment): RUNS (default 5 per runtime), CAP_MIB (default 1024).
 */
import { randomUUID } from 'node:crypto'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { cpus, tmpdir, totalmem } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { containerLabels, type RunSpec } from '../src/runtime/ContainerRuntime.js'
import { directorySize } from '../src/runtime/directorySize.js'
import { dockerRuntime } from '../src/runtime/dockerRuntime.js'
import { processRuntime } from '../src/runtime/processRuntime.js'
import { removeContainers } from '../test/docker.js'
import { buildTestImage } from '../test/images.js'

const runs = Number(process.env.RUNS ?? 5)
const capBytes = Number(process.env.CAP_MIB ?? 1024) * 2 ** 20
const mib = 2 ** 20
const resultsFile = resolve(dirname(fileURLToPath(import.meta.url)), '../../../bench/results/output-cap.json')
const owner = `bench-output-cap-${randomUUID()}`
const bomb = 'dd if=/dev/zero of="$GRIDFORGE_OUTPUT_DIR/bomb" bs=1M count=4000'

const root = await mkdtemp(join(tmpdir(), 'gridforge-bench-output-cap-'))
const image = await buildTestImage({ tag: 'gridforge-test/busybox:runtime' })
let taskId = 0n

async function spec(script: string, maxOutputBytes: number): Promise<RunSpec> {
  const dir = join(root, `${++taskId}`)
  await mkdir(join(dir, 'input'), { recursive: true })
  await mkdir(join(dir, 'output'), { recursive: true })
  return {
    owner,
    taskId,
    slot: 0,
    image: image.id,
    command: ['sh', '-c', script],
    env: { GRIDFORGE_INPUT_DIR: '/in', GRIDFORGE_OUTPUT_DIR: '/out' },
    inputDir: join(dir, 'input'),
    inputPath: '/in',
    outputDir: join(dir, 'output'),
    outputPath: '/out',
    gpus: [],
    network: 'none',
    deadline: new Date(Date.now() + 120_000),
    limits: {
      memoryBytes: 256 * mib,
      cpus: 1,
      pids: 64,
      tmpBytes: mib,
      maxOutputBytes,
      maxLogBytes: 64 * 1024,
    },
  }
}

const round = (value: number) => Math.round(value * 10) / 10
const results: Record<string, unknown> = {}
for (const [name, runtime] of [
  ['docker', dockerRuntime()],
  ['process', processRuntime()],
] as const) {
  const overshoots: { mib: number; ms: number; detectedMib: number; lateMs: number }[] = []
  for (let run = 0; run < runs; run++) {
    const task = await spec(bomb, capBytes)
    const loopDelay = monitorEventLoopDelay({ resolution: 10 })
    loopDelay.enable()
    const result = await runtime.run(task)
    loopDelay.disable()
    const size = await directorySize(task.outputDir)
    await runtime.remove(result.containerId)
    await rm(dirname(task.outputDir), { recursive: true, force: true })
    if (result.outcome !== 'outputTooLarge') throw new Error(`${name}: ${result.outcome} ${result.reason}`)
    const bytesPerMs = size / (result.finishedAt.getTime() - result.startedAt.getTime())
    const detected = Number(/\((\d+) measured\)/.exec(result.reason ?? '')?.[1] ?? Number.NaN)
    const overshoot = {
      mib: round((size - capBytes) / mib),
      ms: Math.round((size - capBytes) / bytesPerMs),
      detectedMib: round((detected - capBytes) / mib),
      lateMs: Math.round(loopDelay.max / 1e6),
    }
    overshoots.push(overshoot)
    console.log(
      `${name} run ${run + 1}: ${round(size / mib)} MiB against a ${capBytes / mib} MiB cap: +${overshoot.mib} MiB = ${overshoot.ms} ms of writing at ${Math.round(bytesPerMs / 1e3)} MB/s (+${overshoot.detectedMib} MiB at detection; timers up to ${overshoot.lateMs} ms late)`,
    )
  }
  const sorted = (key: 'mib' | 'ms') => overshoots.map((overshoot) => overshoot[key]).sort((a, b) => a - b)
  results[name] = {
    overshoot_mib: overshoots.map((overshoot) => overshoot.mib),
    overshoot_ms: overshoots.map((overshoot) => overshoot.ms),
    overshoot_at_detection_mib: overshoots.map((overshoot) => overshoot.detectedMib),
    timers_late_ms: overshoots.map((overshoot) => overshoot.lateMs),
    overshoot_mib_median: sorted('mib')[Math.floor(runs / 2)],
    overshoot_mib_max: sorted('mib').at(-1),
    overshoot_ms_max: sorted('ms').at(-1),
  }
  await runtime[Symbol.asyncDispose]()
}
await removeContainers(`${containerLabels.owner}=${owner}`)
await rm(root, { recursive: true, force: true })

const report = {
  measured_at: new Date().toISOString(),
  host: { cpus: cpus().length, cpu: cpus()[0]?.model, memory_gib: Math.round(totalmem() / 2 ** 30) },
  cap_mib: capBytes / mib,
  runs,
  bomb,
  ...results,
}
await mkdir(dirname(resultsFile), { recursive: true })
await writeFile(resultsFile, `${JSON.stringify(report, null, 2)}\n`)
console.log(JSON.stringify(report, null, 2))
