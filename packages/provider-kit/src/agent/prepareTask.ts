import { join } from 'node:path'
import {
  type Deployment,
  getSource,
  imageDigestOf,
  maxSourceMetadataBytes,
  parseSourceMetadata,
  type Source,
  type SourceMetadata,
  type Task,
} from '@gridforge/sdk'
import { type ContentStore, getBytes } from '@gridforge/sdk/storage'
import type { Account, Address, Chain, Client, Transport } from 'viem'
import { ImageDigestMismatchError, ImageUnavailableError } from '../errors.js'
import type { ContainerRuntime, PreparedImage, ResourceLimits, RunSpec } from '../runtime/ContainerRuntime.js'
import { errorKind, messageOf } from './errorKind.js'
import { TaskRefusedError } from './errors.js'
import { fetchInput } from './fetchInput.js'

/** What a task needs to run, checked before the agent claims it (nothing is on chain yet if this fails). */
export interface PreparedTask {
  source: Source
  metadata: SourceMetadata
  image: PreparedImage
  inputDir: string
  outputDir: string
}

export interface PrepareTaskParameters {
  client: Client<Transport, Chain, Account>
  deployment: Deployment
  store: ContentStore
  runtime: ContainerRuntime
  task: Task & { inputCID: string }
  /** The task's work directory (`input/` and `output/` go in it). */
  workDir: string
  maxInputBytes: number
  /** Refusals that depend on this host and policy (see policy.ts). */
  refusal: (metadata: SourceMetadata) => string | undefined
  /** Skip fetching the input when it is already there (resuming a claimed task). */
  fetch?: boolean | undefined
  signal?: AbortSignal | undefined
}

/**
 * Reads and checks everything a task depends on, in the order that costs the
 * least to refuse: the source on chain, its metadata (≤ 64 KiB, strict
 * schema, image pinned to the on-chain digest), the image (its digest checked
 * by the runtime), then the input (verified against its CID, capped). Any
 * hostile or broken part ends in a {@link TaskRefusedError} with the reason.
 */
export async function prepareTask(parameters: PrepareTaskParameters): Promise<PreparedTask> {
  const { client, deployment, store, runtime, task, workDir, signal } = parameters
  const taskId = task.taskId
  const refuse = (reason: string, cause?: unknown) => new TaskRefusedError({ taskId, reason, cause })

  const source = await getSource(client, { deployment, sourceId: task.sourceId })
  if (!source.active) throw refuse(`source ${task.sourceId} is deactivated`)

  let metadata: SourceMetadata
  try {
    const bytes = await getBytes(store, source.metadata, { maxBytes: maxSourceMetadataBytes, signal })
    metadata = parseSourceMetadata(bytes)
  } catch (error) {
    // Missing metadata may still arrive (postponed); broken or hostile metadata never gets better.
    if (errorKind(error) !== 'permanent') throw error
    throw refuse(`source ${task.sourceId} has unusable metadata: ${messageOf(error)}`, error)
  }
  if (imageDigestOf(metadata.image) !== source.imageDigest)
    throw refuse(
      `source ${task.sourceId} metadata names ${metadata.image}, not the image digest published on chain (${source.imageDigest})`,
    )
  const refusal = parameters.refusal(metadata)
  if (refusal !== undefined) throw refuse(refusal)

  let image: PreparedImage
  try {
    image = await runtime.prepareImage({ image: metadata.image, imageDigest: source.imageDigest, signal })
  } catch (error) {
    if (error instanceof ImageDigestMismatchError || error instanceof ImageUnavailableError)
      throw refuse(messageOf(error), error)
    throw error
  }

  const inputDir = join(workDir, 'input')
  const outputDir = join(workDir, 'output')
  if (parameters.fetch !== false)
    await fetchInput({
      store,
      taskId,
      cid: task.inputCID,
      dir: inputDir,
      maxBytes: parameters.maxInputBytes,
      signal,
    })
  return { source, metadata, image, inputDir, outputDir }
}

export interface RunSpecParameters {
  owner: string
  provider: Address
  task: Task
  slot: number
  prepared: PreparedTask
  gpus: readonly string[]
  limits: Omit<ResourceLimits, 'memoryBytes' | 'cpus'> & Partial<Pick<ResourceLimits, 'memoryBytes' | 'cpus'>>
  deadline: Date
}

/**
 * The container spec of a claimed task. The environment is the source's
 * defaults plus the `GRIDFORGE_*` variables (task, slot, source, provider, and
 * where the input and output are, which the process runtime rewrites to host
 * paths). Memory and CPUs are the source's unless the agent's limits say less.
 */
export function runSpecOf(parameters: RunSpecParameters): RunSpec {
  const { owner, provider, task, slot, prepared, gpus, limits, deadline } = parameters
  const { metadata } = prepared
  const env: Record<string, string> = {}
  for (const [name, spec] of Object.entries(metadata.env))
    if (spec.default !== undefined) env[name] = spec.default
  Object.assign(env, {
    GRIDFORGE_TASK_ID: task.taskId.toString(),
    GRIDFORGE_SLOT: String(slot),
    GRIDFORGE_SOURCE_ID: String(task.sourceId),
    GRIDFORGE_PROVIDER: provider,
    GRIDFORGE_INPUT_DIR: metadata.inputPath,
    GRIDFORGE_OUTPUT_DIR: metadata.outputPath,
  })
  const sourceMemory = metadata.resources.memoryMiB * 1024 * 1024
  return {
    owner,
    taskId: task.taskId,
    slot,
    image: prepared.image.ref,
    command: metadata.command,
    env,
    inputDir: prepared.inputDir,
    inputPath: metadata.inputPath,
    outputDir: prepared.outputDir,
    outputPath: metadata.outputPath,
    gpus,
    network: metadata.network,
    limits: {
      ...limits,
      memoryBytes: Math.min(sourceMemory, limits.memoryBytes ?? sourceMemory),
      cpus: Math.min(metadata.resources.cpus, limits.cpus ?? metadata.resources.cpus),
    },
    deadline,
  }
}
