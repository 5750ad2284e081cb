import { existsSync, readFileSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { ContainerEngineError } from '../errors.js'
import type { RunSpec } from './ContainerRuntime.js'
import type { Clock } from './clock.js'
import { processRuntime } from './processRuntime.js'

const runtime = processRuntime({ pollIntervalMs: 50 })
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes)
const mib = 1 << 20

let root: string
let taskIds = 0n

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'gridforge-process-runtime-'))
})

afterAll(async () => {
  await runtime[Symbol.asyncDispose]()
  await rm(root, { recursive: true, force: true })
})

async function spec(
  overrides: Omit<Partial<RunSpec>, 'limits'> & { limits?: Partial<RunSpec['limits']> } = {},
): Promise<RunSpec> {
  const taskId = ++taskIds
  const inputDir = path.join(root, `${taskId}`, 'input')
  const outputDir = path.join(root, `${taskId}`, 'output')
  await mkdir(inputDir, { recursive: true })
  await mkdir(outputDir, { recursive: true })
  await writeFile(path.join(inputDir, 'greeting'), 'hello from the input\n')
  return {
    owner: 'test-process-runtime',
    taskId,
    slot: 0,
    image: 'ignored',
    command: ['sh', '-c', 'true'],
    // What the agent sets for a container; the process runtime must point them at the host directories.
    env: {
      GRIDFORGE_INPUT_DIR: '/gridforge/input',
      GRIDFORGE_OUTPUT_DIR: '/gridforge/output',
      TASK_NAME: 'seven',
    },
    inputDir,
    inputPath: '/gridforge/input',
    outputDir,
    outputPath: '/gridforge/output',
    gpus: [],
    network: 'none',
    deadline: new Date(Date.now() + 30_000),
    ...overrides,
    limits: {
      memoryBytes: 64 * mib,
      cpus: 1,
      pids: 32,
      tmpBytes: mib,
      maxOutputBytes: mib,
      maxLogBytes: 64 * 1024,
      ...overrides.limits,
    },
  }
}

describe('processRuntime', () => {
  test('says it is not isolated and that it verified nothing', async () => {
    expect(runtime).toMatchObject({ kind: 'process', isolated: false })
    const prepared = await runtime.prepareImage({
      image: 'acme/app@sha256:00',
      imageDigest: `0x${'ab'.repeat(32)}`,
    })
    expect(prepared).toMatchObject({ ref: 'acme/app@sha256:00', digest: `0x${'ab'.repeat(32)}` })
    expect(prepared.warning).toMatch(/unisolated/)
  })

  test('runs the command without a shell, in the output directory, with the input and output dirs overridden', async () => {
    const task = await spec({
      gpus: ['GPU-1', 'GPU-2'],
      command: [
        'sh',
        '-c',
        'cat "$GRIDFORGE_INPUT_DIR/greeting"; echo "$TASK_NAME $CUDA_VISIBLE_DEVICES"; pwd; echo out > "$GRIDFORGE_OUTPUT_DIR/result"; exit 4',
        'ignored-$0',
      ],
    })
    const result = await runtime.run(task)
    expect(result).toMatchObject({ outcome: 'exited', exitCode: 4, logsTruncated: false })
    expect(text(result.logs)).toBe(`hello from the input\nseven GPU-1,GPU-2\n${task.outputDir}\n`)
    expect(await readFile(path.join(task.outputDir, 'result'), 'utf8')).toBe('out\n')
    expect(result.startedAt.getTime()).toBeLessThanOrEqual(result.finishedAt.getTime())
    // argv is not re-parsed by a shell: `$(...)` in an argument stays text.
    const literal = await runtime.run(await spec({ command: ['echo', '$(id)', '; true'] }))
    expect(text(literal.logs)).toBe('$(id) ; true\n')
  })

  test('no command, or one that does not exist (exit code 127, as a shell says): failedToStart', async () => {
    const none = await runtime.run(await spec({ command: undefined }))
    expect(none).toMatchObject({ outcome: 'failedToStart', containerId: '', exitCode: undefined })
    expect(none.reason).toMatch(/command/)
    const missing = await runtime.run(await spec({ command: ['/no/such/executable'] }))
    expect(missing).toMatchObject({ outcome: 'failedToStart', exitCode: 127 })
    expect(missing.reason).toMatch(/ENOENT/)
    expect(new TextDecoder().decode(missing.logs)).toBe(`${missing.reason}\n`)
  })

  test('killed at the deadline with everything it forked: timeout', async () => {
    const task = await spec({
      command: ['sh', '-c', 'sleep 60 & echo $! > "$GRIDFORGE_OUTPUT_DIR/child"; wait'],
      deadline: new Date(Date.now() + 1_500),
    })
    const result = await runtime.run(task)
    expect(result).toMatchObject({ outcome: 'timeout', exitCode: undefined })
    const child = Number((await readFile(path.join(task.outputDir, 'child'), 'utf8')).trim())
    expect(isAlive(child)).toBe(false)
  })

  test('background processes die when the command exits, as in a container', async () => {
    const task = await spec({ command: ['sh', '-c', 'sleep 60 & echo $! > "$GRIDFORGE_OUTPUT_DIR/child"'] })
    const result = await runtime.run(task)
    expect(result).toMatchObject({ outcome: 'exited', exitCode: 0 })
    const child = Number((await readFile(path.join(task.outputDir, 'child'), 'utf8')).trim())
    expect(isAlive(child)).toBe(false)
  })

  test('the deadline timer runs on the injected clock', async () => {
    let fire: (() => void) | undefined
    const clock: Clock = {
      now: () => 0,
      setTimeout(callback, ms) {
        if (ms === 1_000) fire = callback // the deadline, 1 s after "now"
        return () => {}
      },
    }
    const manual = processRuntime({ clock, pollIntervalMs: 60_000 })
    const running = manual.run(await spec({ command: ['sleep', '60'], deadline: new Date(1_000) }))
    while (fire === undefined) await new Promise((resolve) => setTimeout(resolve, 10))
    fire()
    expect(await running).toMatchObject({
      outcome: 'timeout',
      startedAt: new Date(0),
      finishedAt: new Date(0),
    })
  })

  test('an output bomb is killed: outputTooLarge', async () => {
    const task = await spec({
      command: ['sh', '-c', 'while true; do head -c 65536 /dev/zero >> "$GRIDFORGE_OUTPUT_DIR/bomb"; done'],
      limits: { maxOutputBytes: mib },
    })
    expect(await runtime.run(task)).toMatchObject({ outcome: 'outputTooLarge', exitCode: undefined })
    expect(existsSync(path.join(task.outputDir, 'bomb'))).toBe(true)
  })

  test('logs are capped at maxLogBytes, stdout and stderr interleaved', async () => {
    const capped = await runtime.run(
      await spec({
        command: ['sh', '-c', 'head -c 1000000 /dev/zero | tr "\\0" a; echo done'],
        limits: { maxLogBytes: 10 * 1024 },
      }),
    )
    expect(capped).toMatchObject({ outcome: 'exited', exitCode: 0, logsTruncated: true })
    expect(capped.logs.length).toBe(10 * 1024)
    const both = await runtime.run(
      await spec({ command: ['sh', '-c', 'echo one; sleep 0.2; echo two >&2; sleep 0.2; echo three'] }),
    )
    expect(text(both.logs)).toBe('one\ntwo\nthree\n')
  })

  test('aborting kills the process: aborted', async () => {
    const controller = new AbortController()
    const running = runtime.run(await spec({ command: ['sleep', '60'], signal: controller.signal }))
    setTimeout(() => controller.abort(), 300)
    expect(await running).toMatchObject({ outcome: 'aborted', exitCode: undefined })
  })

  test('remove kills a running task; nothing survives to list or attach', async () => {
    const running = runtime.run(await spec({ command: ['sleep', '60'] }))
    let containerId: string | undefined
    // The id is `process:<pid>`; find the sleep among this process's children.
    const { execFileSync } = await import('node:child_process')
    while (containerId === undefined) {
      await new Promise((resolve) => setTimeout(resolve, 20))
      try {
        const pids = execFileSync('pgrep', ['-P', String(process.pid), '-x', 'sleep'], { encoding: 'utf8' })
        containerId = `process:${pids.trim().split('\n')[0]}`
      } catch {
        // pgrep exits 1 until the sleep has started.
      }
    }
    await runtime.remove(containerId)
    await runtime.remove(containerId)
    const result = await running
    expect(result).toMatchObject({ containerId, outcome: 'exited', exitCode: 137 })
    expect(await runtime.listTaskContainers('test-process-runtime')).toEqual([])
    await expect(runtime.attach(containerId, await spec())).rejects.toBeInstanceOf(ContainerEngineError)
  })
})

/** Whether `pid` runs; a zombie (killed, not yet reaped by whoever inherited it) does not. */
function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z'
  } catch {
    return false
  }
}
