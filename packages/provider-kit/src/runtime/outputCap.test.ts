/**
 * The output cap against real output bombs, in both runtimes with their
 * default settings: the run ends `outputTooLarge`, and the output directory
 * ends within the cap plus the overshoot `watchRun` documents: what the task
 * writes between crossing the cap and the watchdog seeing it (at most
 * `minOutputPollMs` plus one walk of the directory, budgeted here at 150 ms
 * for the speed estimate below, plus however late this process's timers ran:
 * a watchdog cannot act while the host does not schedule it, measured per run
 * as the event loop's worst delay), plus what it writes while the kill lands
 * (measured per run: from the kill request to the exit). Bytes are turned into time at the run's own average write speed
 * (lower than its peak: the estimate errs long), so the bound holds on a slow
 * disk and a fast one alike. Before the watchdog measured faster near the
 * cap (one measurement every 500 ms), the dd bombs wrote for 450–700 ms past it.
 */
import { randomUUID } from 'node:crypto'
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { removeContainers } from '../../test/docker.js'
import { buildTestImage, type TestImage } from '../../test/images.js'
import { jsonLogger, type Logger } from '../logger.js'
import { type ContainerRuntime, containerLabels, type RunSpec } from './ContainerRuntime.js'
import { directorySize } from './directorySize.js'
import { dockerRuntime } from './dockerRuntime.js'
import { processRuntime } from './processRuntime.js'

const mib = 2 ** 20
const maxOutputBytes = 64 * mib
/** From crossing the cap to the watchdog's kill request (`minOutputPollMs` + a walk + timer lateness). */
const detectionBudgetMs = 150
const owner = `test-output-cap-${randomUUID()}`
const bombs = [
  'dd if=/dev/zero of="$GRIDFORGE_OUTPUT_DIR/bomb" bs=1M count=4000',
  'dd if=/dev/zero of="$GRIDFORGE_OUTPUT_DIR/bomb" bs=1M count=4000',
  'yes > "$GRIDFORGE_OUTPUT_DIR/bomb"',
]

let root: string
let image: TestImage
let taskIds = 0n

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'gridforge-output-cap-'))
  image = await buildTestImage({ tag: 'gridforge-test/busybox:runtime' })
})

afterAll(async () => {
  await removeContainers(`${containerLabels.owner}=${owner}`)
  await rm(root, { recursive: true, force: true })
})

async function bombSpec(script: string): Promise<RunSpec> {
  const taskId = ++taskIds
  const dir = path.join(root, `${taskId}`)
  await mkdir(path.join(dir, 'input'), { recursive: true })
  await mkdir(path.join(dir, 'output'), { recursive: true })
  return {
    owner,
    taskId,
    slot: 0,
    image: image.id,
    command: ['sh', '-c', script],
    env: { GRIDFORGE_INPUT_DIR: '/in', GRIDFORGE_OUTPUT_DIR: '/out' },
    inputDir: path.join(dir, 'input'),
    inputPath: '/in',
    outputDir: path.join(dir, 'output'),
    outputPath: '/out',
    gpus: [],
    network: 'none',
    deadline: new Date(Date.now() + 60_000),
    limits: {
      memoryBytes: 256 * mib,
      cpus: 1,
      pids: 32,
      tmpBytes: mib,
      maxOutputBytes,
      maxLogBytes: 64 * 1024,
    },
  }
}

describe.each([
  ['docker', (logger: Logger) => dockerRuntime({ logger })],
  ['process', (logger: Logger) => processRuntime({ logger })],
] as const)('the %s runtime against output bombs (64 MiB cap, default settings)', (name, makeRuntime) => {
  test('each is killed as outputTooLarge, its output within the cap + the documented overshoot', async () => {
    for (const script of bombs) {
      const killRequests: number[] = []
      const runtime: ContainerRuntime = makeRuntime(
        jsonLogger({
          write: (line) => {
            const { msg, time } = JSON.parse(line) as { msg: string; time: string }
            if (msg === 'killing container' || msg === 'killing process') killRequests.push(Date.parse(time))
          },
        }),
      )
      const task = await bombSpec(script)
      const loopDelay = monitorEventLoopDelay({ resolution: 10 })
      loopDelay.enable()
      const result = await runtime.run(task)
      loopDelay.disable()
      const lateMs = Math.round(loopDelay.max / 1e6)
      const size = await directorySize(task.outputDir)
      await runtime.remove(result.containerId)
      await runtime[Symbol.asyncDispose]()
      await rm(path.dirname(task.outputDir), { recursive: true, force: true })

      expect(result, result.reason).toMatchObject({ outcome: 'outputTooLarge', exitCode: undefined })
      const bytesPerMs = size / Math.max(1, result.finishedAt.getTime() - result.startedAt.getTime())
      const killMs = Math.max(0, result.finishedAt.getTime() - (killRequests[0] ?? Number.NaN))
      const overshootMs = (size - maxOutputBytes) / bytesPerMs
      console.log(
        `${name}: ${script.split(' ')[0]}: ${(size / mib).toFixed(1)} MiB against ${maxOutputBytes / mib} MiB: ` +
          `+${((size - maxOutputBytes) / mib).toFixed(1)} MiB = ${overshootMs.toFixed(0)} ms of writing at ` +
          `${(bytesPerMs / 1e3).toFixed(0)} MB/s; the kill took ${killMs} ms, timers ran up to ${lateMs} ms late`,
      )
      expect(size).toBeGreaterThan(maxOutputBytes)
      expect(overshootMs).toBeLessThanOrEqual(detectionBudgetMs + lateMs + killMs)
    }
  })
})
