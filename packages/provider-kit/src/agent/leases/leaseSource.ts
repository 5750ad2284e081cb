import { type Deployment, getSource, imageDigestOf } from '@gridforge/sdk'
import { type ContentStore, getBytes } from '@gridforge/sdk/storage'
import type { Account, Chain, Client, Transport } from 'viem'
import type { ContainerRuntime } from '../../runtime/ContainerRuntime.js'
import type { LeaseContainerSpec, LeaseLimits, LeaseNetwork } from '../../runtime/LeaseRuntime.js'
import { LeaseSourceRefusedError } from '../errors.js'

/**
 * What a lease container runs when its source's metadata does not say: the service listens on 8080,
 * the container has no network beyond the gateway, 1 CPU and 1 GiB, its files in `/workspace`.
 */
export const leaseDefaults = {
  port: 8080,
  network: 'none' as LeaseNetwork,
  workdir: '/workspace',
  limits: { memoryBytes: 1024 ** 3, cpus: 1, pids: 512, tmpBytes: 256 * 1024 ** 2, workdirBytes: 1024 ** 3 },
} as const

/**
 * A lease source's metadata as this agent would run it: the source on chain, its metadata document, the
 * image it names (pinned to the digest on chain) and its network.
 *
 * @throws {LeaseSourceRefusedError} when the agent can never serve it (see the class); a store or node
 * that does not answer throws its own error, which a retry may cure.
 */
export async function readLeaseSource(parameters: {
  client: Client<Transport, Chain, Account>
  deployment: Deployment
  store: ContentStore
  sourceId: number
  allowEgress: boolean
  signal?: AbortSignal | undefined
}) {
  const { client, deployment, store, sourceId, signal } = parameters
  const refuse = (reason: string, cause?: unknown) => new LeaseSourceRefusedError({ sourceId, reason, cause })
  const source = await getSource(client, { deployment, sourceId })
  const bytes = await getBytes(store, source.metadata, { maxBytes: 64 * 1024, signal })
  let metadata: Record<string, unknown>
  try {
    const parsed: unknown = JSON.parse(new TextDecoder().decode(bytes))
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      throw new Error('not an object')
    metadata = parsed as Record<string, unknown>
  } catch (error) {
    throw refuse('its metadata is not a JSON object', error)
  }
  if (typeof metadata.image !== 'string') throw refuse('its metadata names no image')
  if (imageDigestOf(metadata.image) !== source.imageDigest)
    throw refuse(`its metadata names ${metadata.image}, not the digest on chain`)
  const network: LeaseNetwork = metadata.network === 'egress' ? 'egress' : leaseDefaults.network
  if (network === 'egress' && !parameters.allowEgress)
    throw refuse('it asks for egress, which the policy does not allow ([policy] allowEgress)')
  return { source, metadata, image: metadata.image, network }
}

/**
 * The container spec of a lease of `sourceId`: the source's image (checked against its on-chain
 * digest by the runtime), command, port, network and resources from its metadata (`kind: "lease"`
 * documents, see templates/jupyter-lease/lease.json), else {@link leaseDefaults}; pinned to the GPUs
 * held for the lease.
 */
export async function leaseContainerSpec(parameters: {
  client: Client<Transport, Chain, Account>
  deployment: Deployment
  store: ContentStore
  runtime: ContainerRuntime
  leaseId: bigint
  sourceId: number
  /** The GPUs held for the lease (device ids): its container is pinned to them. */
  gpus: readonly string[]
  limits?: Partial<LeaseLimits> | undefined
  allowEgress: boolean
  signal?: AbortSignal | undefined
}): Promise<LeaseContainerSpec> {
  const { runtime, leaseId, signal } = parameters
  const { source, metadata, image: reference, network } = await readLeaseSource(parameters)
  const image = await runtime.prepareImage({ image: reference, imageDigest: source.imageDigest, signal })
  const resources = (metadata.resources ?? {}) as { cpus?: unknown; memoryMiB?: unknown }
  const env: Record<string, string> = { GRIDFORGE_LEASE_ID: leaseId.toString() }
  for (const [name, value] of Object.entries((metadata.env ?? {}) as Record<string, unknown>))
    if (typeof value === 'string') env[name] = value
  return {
    leaseId,
    image: image.ref,
    command: Array.isArray(metadata.command) ? metadata.command.map(String) : undefined,
    env,
    port: typeof metadata.port === 'number' ? metadata.port : leaseDefaults.port,
    workdir: typeof metadata.workdir === 'string' ? metadata.workdir : leaseDefaults.workdir,
    gpus: [...parameters.gpus],
    network,
    limits: {
      ...leaseDefaults.limits,
      ...(typeof resources.cpus === 'number' ? { cpus: resources.cpus } : {}),
      ...(typeof resources.memoryMiB === 'number' ? { memoryBytes: resources.memoryMiB * 1024 ** 2 } : {}),
      ...parameters.limits,
    },
  }
}
