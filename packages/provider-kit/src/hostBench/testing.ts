// Test helpers (not published: `files` excludes src/**/testing*.ts).
import { Readable } from 'node:stream'
import type Docker from 'dockerode'

/** Frames `text` the way Docker multiplexes a non-TTY container's stdout (stream 1) or stderr (2). */
export function dockerFrames(text: string, stream: 1 | 2 = 1): Buffer {
  const payload = Buffer.from(text)
  const header = Buffer.alloc(8)
  header[0] = stream
  header.writeUInt32BE(payload.length, 4)
  return Buffer.concat([header, payload])
}

/** An error as dockerode rejects with when the engine answers with an HTTP error. */
export function engineError(statusCode: number, message: string): Error {
  return Object.assign(new Error(`(HTTP code ${statusCode}) server error - ${message}`), {
    statusCode,
    json: { message },
  })
}

export interface RecordingDockerOptions {
  /** What each container prints (stdout, and stderr) and its exit code; by default the same for every GPU. */
  run?: (options: Docker.ContainerCreateOptions) => { output: string; stderr?: string; exitCode: number }
  imagePresent?: boolean
  /** Lines of the pull's progress stream. */
  pullStream?: string[]
  /** What the engine answers `POST /containers/{id}/start` with. */
  startError?: Error
  /** The container never exits (until killed or removed). */
  hang?: boolean
}

/**
 * A fake Docker engine client, the calls the Docker runtime's one-off runs
 * make (inspect and pull the image; create, start, wait, kill, read the logs
 * of and remove a container), answering as dockerode does and recording what
 * it was asked: the create options of each container, starts, kills,
 * removals and pulls. Hand it to `dockerRuntime({ docker })`.
 */
export function recordingDocker(options: RecordingDockerOptions = {}) {
  const created: Docker.ContainerCreateOptions[] = []
  const events: string[] = []
  const pulls: string[] = []
  let imagePresent = options.imagePresent ?? true
  const fake = {
    getImage: (name: string) => ({
      inspect: async () => {
        if (!imagePresent) throw engineError(404, `No such image: ${name}`)
        return { Id: 'sha256:8e5c1f', RepoDigests: [] }
      },
    }),
    pull: async (name: string) => {
      pulls.push(name)
      const lines = options.pullStream ?? [
        `{"status":"Pulling from nvidia/k8s/cuda-sample","id":"nbody-cuda11.7.1"}`,
        `{"status":"Status: Downloaded newer image for ${name}"}`,
      ]
      if (!lines.some((line) => line.includes('"error"'))) imagePresent = true
      return Readable.from(lines.map((line) => `${line}\r\n`))
    },
    createContainer: async (createOptions: Docker.ContainerCreateOptions) => {
      created.push(createOptions)
      const id = `c${created.length}`
      const { output, stderr, exitCode } = options.run?.(createOptions) ?? { output: '', exitCode: 0 }
      let stop: (status: { StatusCode: number }) => void = () => {}
      const exited = new Promise<{ StatusCode: number }>((resolve) => {
        stop = resolve
        if (options.hang !== true) resolve({ StatusCode: exitCode })
      })
      return {
        id,
        start: async () => {
          events.push(`start ${id}`)
          if (options.startError !== undefined) throw options.startError
        },
        wait: () => exited,
        kill: async () => {
          events.push(`kill ${id}`)
          stop({ StatusCode: 137 })
        },
        logs: async () =>
          Buffer.concat([dockerFrames(output), ...(stderr === undefined ? [] : [dockerFrames(stderr, 2)])]),
        remove: async (removeOptions: { force?: boolean }) => {
          events.push(`remove ${id} force=${removeOptions.force}`)
          stop({ StatusCode: 137 })
        },
      }
    },
  }
  // Only the calls above exist: a runtime path that needs another one fails the test loudly.
  const docker = fake as unknown as Docker
  return { docker, created, events, pulls }
}
