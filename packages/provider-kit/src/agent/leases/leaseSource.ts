import {
  type Deployment,
  getSource,
  type InvalidParametersError,
  imageDigestOf,
  type LeaseSourceMetadata,
  parseLeaseSourceMetadata,
} from '@gridforge/sdk'
import { type ContentStore, getBytes } from '@gridforge/sdk/storage'
import type { Account, Chain, Client, Transport } from 'viem'
import type { ContainerRuntime } from '../../runtime/ContainerRuntime.js'
import type { LeaseContainerSpec, LeaseLimits, LeaseNetwork } from '../../runtime/LeaseRuntime.js'
import { LeaseSourceRefusedError } from '../errors.js'

/**
 * A lease container's limits besides what its source's metadata sets (CPUs, memory, `diskMiB` for
 * its workdir): processes and `/tmp`, and the metadata schema's own defaults (1 CPU, 1 GiB, a 1 GiB
 * workdir).
 */
const leaseLimitDefaults = {
  memoryBytes: 1024 ** 3,
  cpus: 1,
  pids: 512,
  tmpBytes: 256 * 1024 ** 2,
  workdirBytes: 1024 ** 3,
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
  let metadata: LeaseSourceMetadata
  try {
    metadata = parseLeaseSourceMetadata(bytes)
  } catch (error) {
    const fields = (error as Partial<InvalidParametersError>).fields
    const why =
      fields?.map((field) => `${field.path}: ${field.message}`).join('; ') ?? (error as Error).message
    throw refuse(`its metadata is not a lease source's (${why})`, error)
  }
  if (imageDigestOf(metadata.image) !== source.imageDigest)
    throw refuse(`its metadata names ${metadata.image}, not the digest on chain`)
  const network: LeaseNetwork = metadata.network
  if (network === 'egress' && !parameters.allowEgress)
    throw refuse('it asks for egress, which the policy does not allow ([policy] allowEgress)')
  return { source, metadata, image: metadata.image, network }
}

/**
 * The container spec of a lease of `sourceId`: the source's image (checked against its on-chain
 * digest by the runtime), command, environment, port, workdir, network and resources from its
 * metadata (a lease source's, `parseLeaseSourceMetadata`; see templates/jupyter-lease/lease.json),
 * the schema's defaults where it says nothing; pinned to the GPUs held for the lease.
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
  return {
    leaseId,
    image: image.ref,
    command: metadata.command,
    // The source's own variables, then the provider's (GRIDFORGE_ names are the provider's alone).
    env: { ...metadata.env, GRIDFORGE_LEASE_ID: leaseId.toString() },
    port: metadata.port,
    workdir: metadata.workdir,
    gpus: [...parameters.gpus],
    network,
    limits: {
      ...leaseLimitDefaults,
      cpus: metadata.resources.cpus,
      memoryBytes: metadata.resources.memoryMiB * 1024 ** 2,
      ...(metadata.resources.diskMiB === undefined
        ? {}
        : { workdirBytes: metadata.resources.diskMiB * 1024 ** 2 }),
      ...parameters.limits,
    },
  }
}
