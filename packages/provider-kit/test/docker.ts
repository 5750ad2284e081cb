import type Docker from 'dockerode'
import { dockerClient } from '../src/runtime/docker/dockerClient.js'

let client: Docker | undefined

/** The Docker client the tests share: the runtime's default (`DOCKER_HOST` or `/var/run/docker.sock`). */
export function docker(): Docker {
  client ??= dockerClient()
  return client
}

/** Label every test puts on what it creates directly (the runtime's own labels cover the rest). */
export const testLabel = 'dev.gridforge.test'

/**
 * Force-removes every container (running or not) carrying `label` (`key` or
 * `key=value`); returns how many. Idempotent: call it in `afterAll`.
 *
 * @example
 * afterAll(() => removeContainers(`${containerLabels.owner}=${owner}`))
 */
export async function removeContainers(label: string): Promise<number> {
  const containers = await docker().listContainers({ all: true, filters: { label: [label] } })
  await Promise.all(
    containers.map((container) =>
      docker()
        .getContainer(container.Id)
        .remove({ force: true, v: true })
        .catch((error: { statusCode?: number }) => {
          if (error.statusCode !== 404 && error.statusCode !== 409) throw error
        }),
    ),
  )
  return containers.length
}

/** Ids of the containers (running or not) carrying `label`. */
export async function containersWithLabel(label: string): Promise<string[]> {
  const containers = await docker().listContainers({ all: true, filters: { label: [label] } })
  return containers.map((container) => container.Id)
}
