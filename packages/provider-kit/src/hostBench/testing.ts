// Test helpers (not published: `files` excludes src/**/testing*.ts).
import { Readable } from 'node:stream'
import type Docker from 'dockerode'
import type { HostBenchContainer, HostBenchDocker } from './gpuBenchmark.js'

/** Frames `text` the way Docker multiplexes a non-TTY container's stdout (stream 1). */
export function dockerFrames(text: string, stream: 1 | 2 = 1): Buffer {
  const payload = Buffer.from(text)
  const header = Buffer.alloc(8)
  header[0] = stream
  header.writeUInt32BE(payload.length, 4)
  return Buffer.concat([header, payload])
}

export interface RecordingDockerOptions {
  /** What each container prints (stdout) and its exit code; by default the same for every GPU. */
  run?: (options: Docker.ContainerCreateOptions) => { output: string; exitCode: number }
  imagePresent?: boolean
  /** Lines of the pull's progress stream. */
  pullStream?: string[]
  startError?: Error
  /** The container never exits (until removed). */
  hang?: boolean
}

/**
 * A fake Docker client that records what the benchmark asks of it: the create
 * options of each container, starts, removals and pulls.
 */
export function recordingDocker(options: RecordingDockerOptions = {}) {
  const created: Docker.ContainerCreateOptions[] = []
  const events: string[] = []
  const pulls: string[] = []
  let imagePresent = options.imagePresent ?? true
  const docker: HostBenchDocker = {
    getImage: (name) => ({
      inspect: async () => {
        if (!imagePresent) throw new Error(`(HTTP code 404) no such image - No such image: ${name}`)
        return { Id: 'sha256:8e5c1f' }
      },
    }),
    pull: async (name) => {
      pulls.push(name)
      const lines = options.pullStream ?? [
        `{"status":"Pulling from nvidia/k8s/cuda-sample","id":"nbody-cuda11.7.1"}`,
        `{"status":"Status: Downloaded newer image for ${name}"}`,
      ]
      if (!lines.some((line) => line.includes('"error"'))) imagePresent = true
      return Readable.from(lines.map((line) => `${line}\r\n`))
    },
    createContainer: async (createOptions) => {
      created.push(createOptions)
      const id = `c${created.length}`
      const { output, exitCode } = options.run?.(createOptions) ?? { output: '', exitCode: 0 }
      let removed: () => void = () => {}
      const container: HostBenchContainer = {
        id,
        start: async () => {
          events.push(`start ${id}`)
          if (options.startError !== undefined) throw options.startError
        },
        wait: () =>
          options.hang === true
            ? new Promise((resolve) => {
                removed = () => resolve({ StatusCode: 137 })
              })
            : Promise.resolve({ StatusCode: exitCode }),
        logs: async () => dockerFrames(output),
        remove: async (removeOptions) => {
          events.push(`remove ${id} force=${removeOptions.force}`)
          removed()
        },
      }
      return container
    },
  }
  return { docker, created, events, pulls }
}
