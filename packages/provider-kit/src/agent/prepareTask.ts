import { rm } from 'node:fs/promises'
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
  /** The source that runs: the task's, or its validator's (see {@link PrepareTaskParameters.validator}). */
  source: Source
  metadata: SourceMetadata
  image: PreparedImage
  inputDir: string
  outputDir: string
  /**
   * The runtime limit on chain of this run, seconds: the task's, or for a validator its own source's.
   * A run killed at it has timed out by its own doing (a failure to hand in); one killed sooner has not.
   */
  maxRuntimeSec: number
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
  /**
   * An audit of a result of a source with a validator: prepare the validator source
   * (`sourceId`) instead, and lay its input out as {@link validatorInputLayout} says, with the
   * result under audit (`resultCID`) beside the task's input.
   */
  validator?: { sourceId: number; resultCID: string } | undefined
  signal?: AbortSignal | undefined
}

/**
 * Where a validator finds what it checks, in its input folder (its metadata's `inputPath`,
 * `$GRIDFORGE_INPUT_DIR`, read-only):
 * - `input/`: the task's input, as the task itself sees it (a directory CID as its tree, a file
 *   CID as the file `input/input`);
 * - `result/`: the provider's result (the result CID of its `ResultSubmitted` event), likewise:
 *   an output folder as its tree, a file CID as the file `result/result`.
 *
 * It exits 0 when the result passes and anything else when it does not; its output folder is
 * not collected (its logs are the auditor's result CID).
 */
export const validatorInputLayout = { input: 'input', result: 'result' } as const

/**
 * Reads and checks everything a task depends on, in the order that costs the
 * least to refuse: the source on chain, its metadata (≤ 64 KiB, strict
 * schema, image pinned to the on-chain digest), the image (its digest checked
 * by the runtime), then the input (verified against its CID, capped). Any
 * hostile or broken part ends in a {@link TaskRefusedError} with the reason.
 */
export async function prepareTask(parameters: PrepareTaskParameters): Promise<PreparedTask> {
  const { client, deployment, store, runtime, task, workDir, validator, signal } = parameters
  const taskId = task.taskId
  const refuse = (reason: string, cause?: unknown) => new TaskRefusedError({ taskId, reason, cause })

  const sourceId = validator?.sourceId ?? task.sourceId
  const source = await getSource(client, { deployment, sourceId })
  // A deactivated source takes no new tasks; as a validator it still checks the results it was named for.
  if (!source.active && validator === undefined) throw refuse(`source ${sourceId} is deactivated`)

  let metadata: SourceMetadata
  try {
    const bytes = await getBytes(store, source.metadata, { maxBytes: maxSourceMetadataBytes, signal })
    metadata = parseSourceMetadata(bytes)
  } catch (error) {
    // Missing metadata may still arrive (postponed); broken or hostile metadata never gets better.
    if (errorKind(error) !== 'permanent') throw error
    throw refuse(`source ${sourceId} has unusable metadata: ${messageOf(error)}`, error)
  }
  if (imageDigestOf(metadata.image) !== source.imageDigest)
    throw refuse(
      `source ${sourceId} metadata names ${metadata.image}, not the image digest published on chain (${source.imageDigest})`,
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
  if (parameters.fetch !== false) {
    const fetch = (cid: string, dir: string, fileName?: string) =>
      fetchInput({ store, taskId, cid, dir, fileName, maxBytes: parameters.maxInputBytes, signal })
    if (validator === undefined) await fetch(task.inputCID, inputDir)
    else {
      await rm(inputDir, { recursive: true, force: true })
      await fetch(task.inputCID, join(inputDir, validatorInputLayout.input))
      await fetch(
        validator.resultCID,
        join(inputDir, validatorInputLayout.result),
        validatorInputLayout.result,
      )
    }
  }
  const maxRuntimeSec =
    validator === undefined ? task.requirements.maxRuntimeSec : source.requirements.maxRuntimeSec
  return { source, metadata, image, inputDir, outputDir, maxRuntimeSec }
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
