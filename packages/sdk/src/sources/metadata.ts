import type { Hex } from 'viem'
import * as z from 'zod/mini'
import { BaseError } from '../errors/base.js'
import {
  type InvalidField,
  InvalidParametersError,
  type InvalidParametersErrorType,
} from '../errors/validation.js'
import type { Requirements } from '../types/requirements.js'

/**
 * Source metadata: the JSON a source's `metadata` CID points to (DESIGN.md §2.1).
 *
 * The schema is strict, because providers run what it describes for strangers:
 * - unknown fields are **rejected**, not stripped (a typo such as `outputpath`
 *   fails instead of silently running with the default);
 * - every string, list and number is bounded, and the serialized document is at
 *   most {@link maxSourceMetadataBytes} (64 KiB);
 * - the image must be pinned by digest; env var names are checked and the
 *   `GRIDFORGE_` prefix is reserved for what the provider sets;
 * - paths are absolute, normalized, distinct and outside `/proc`, `/sys`, `/dev`.
 */

/** The largest metadata document accepted, in bytes of UTF-8 JSON. */
export const maxSourceMetadataBytes = 64 * 1024

/** The metadata version this SDK reads and writes. */
export const sourceMetadataVersion = 1

const domainComponent = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])'
const domain = `${domainComponent}(?:\\.${domainComponent})*(?::[0-9]+)?`
const pathComponent = '[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*'
const imagePattern = new RegExp(
  `^(?:${domain}/)?${pathComponent}(?:/${pathComponent})*(?::[\\w][\\w.-]{0,127})?@sha256:([a-f0-9]{64})$`,
)
const envNamePattern = /^[A-Za-z_][A-Za-z0-9_]*$/
const pathPattern = /^(?:\/[A-Za-z0-9._-]+)+$/
const tagPattern = /^[a-z0-9]+(?:[-_.][a-z0-9]+)*$/
const licensePattern = /^[A-Za-z0-9.+:()-]+(?: [A-Za-z0-9.+:()-]+)*$/
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this refuses
const controlPattern = /[\u0000-\u001f\u007f]/
// biome-ignore lint/suspicious/noControlCharactersInRegex: a NUL cannot be passed to a process
const nulPattern = /\u0000/

const text = (max: number) =>
  z.string({ error: 'expected a string' }).check(
    z.maxLength(max, { error: `at most ${max} characters` }),
    z.refine((value) => !nulPattern.test(value), { error: 'must not contain NUL characters' }),
  )

const line = (max: number) =>
  z.string({ error: 'expected a string' }).check(
    z.minLength(1, { error: 'must not be empty' }),
    z.maxLength(max, { error: `at most ${max} characters` }),
    z.refine((value) => !controlPattern.test(value), {
      error: 'must be one line without control characters',
    }),
  )

const int = (min: number, max: number) =>
  z
    .number({ error: 'expected a number' })
    .check(
      z.int({ error: 'expected a whole number' }),
      z.gte(min, { error: `expected at least ${min}` }),
      z.lte(max, { error: `expected at most ${max}` }),
    )

const mountPath = z.string({ error: 'expected an absolute path like /input' }).check(
  z.maxLength(255, { error: 'at most 255 characters' }),
  z.regex(pathPattern, {
    error: 'expected an absolute path like /input (letters, digits, . _ -; no trailing slash)',
  }),
  z.refine((value) => !value.split('/').some((part) => part === '.' || part === '..'), {
    error: 'must not contain . or .. segments',
  }),
  z.refine((value) => !/^\/(?:proc|sys|dev)(?:\/|$)/.test(value), {
    error: 'must not be under /proc, /sys or /dev',
  }),
)

/** One environment variable a task may set. */
const envVarSchema = z
  .strictObject({
    /** What the variable does. */
    description: z.optional(text(1_000)),
    /** Whether a task must set it (default false). */
    required: z._default(z.boolean({ error: 'expected true or false' }), false),
    /** Its value when a task does not set it. */
    default: z.optional(text(4_096)),
    /** The only values allowed, when the variable is an enumeration. */
    values: z.optional(
      z
        .array(text(256), { error: 'expected a list of strings' })
        .check(
          z.minLength(1, { error: 'list at least one value' }),
          z.maxLength(64, { error: 'at most 64 values' }),
        ),
    ),
  })
  .check(
    z.superRefine((spec, context) => {
      if (spec.default !== undefined && spec.values !== undefined && !spec.values.includes(spec.default)) {
        context.issues.push({
          code: 'custom',
          message: 'the default must be one of values',
          path: ['default'],
          input: spec.default,
        })
      }
    }),
  )

/** An environment variable's name: checked, and not `GRIDFORGE_…` (the provider's). */
const envName = z.string().check(
  z.maxLength(128, { error: 'variable names have at most 128 characters' }),
  z.regex(envNamePattern, {
    error: 'variable names are letters, digits and _, not starting with a digit',
  }),
  z.refine((name) => !name.toUpperCase().startsWith('GRIDFORGE_'), {
    error: 'the GRIDFORGE_ prefix is reserved for variables the provider sets',
  }),
)

/** An object of at most 64 environment variables, by name (no `__proto__`). */
const envRecord = <value extends z.ZodMiniType>(valueSchema: value, error: string) =>
  z.pipe(
    z.unknown().check(
      z.refine(
        (input) => !(typeof input === 'object' && input !== null && Object.hasOwn(input, '__proto__')),
        {
          error: '__proto__ is not a valid variable name',
        },
      ),
    ),
    z
      .record(envName, valueSchema, { error })
      .check(z.refine((env) => Object.keys(env).length <= 64, { error: 'at most 64 variables' })),
  )

const envSchema = envRecord(envVarSchema, 'expected an object of variable names to their description')

/** What every source declares of its resources; tasks and leases add their own. */
const sharedResources = {
  /** GPUs the source needs (default 0). */
  gpus: z._default(int(0, 255), 0),
  /** Memory per GPU, in MiB (default 0). */
  vramMiB: z._default(int(0, 2 ** 32 - 1), 0),
  /** Least CUDA compute capability × 10, e.g. 80 for sm_80 (default 0). */
  computeCapability: z._default(int(0, 255), 0),
  /** CPU cores, fractions allowed (default 1). */
  cpus: z._default(
    z
      .number({ error: 'expected a number' })
      .check(z.gt(0, { error: 'expected more than 0' }), z.lte(1_024, { error: 'expected at most 1024' })),
    1,
  ),
  /** Scratch and output disk space, in MiB (optional). */
  diskMiB: z.optional(int(1, 2 ** 32 - 1)),
}

const taskResourcesSchema = z.strictObject({
  ...sharedResources,
  /** Memory limit of the container, in MiB (default 2048). */
  memoryMiB: z._default(int(1, 2 ** 32 - 1), 2_048),
  /** Longest run, in seconds: 1 to 7 days (default 3600). */
  maxRuntimeSec: z._default(int(1, 7 * 86_400), 3_600),
})

/** GPU memory and compute capability mean nothing without a GPU: the issue, named at `resources.gpus`. */
function gpusIssue(resources: { gpus: number; vramMiB: number; computeCapability: number }) {
  return resources.gpus === 0 && (resources.vramMiB > 0 || resources.computeCapability > 0)
    ? {
        code: 'custom' as const,
        message: 'vramMiB and computeCapability need gpus ≥ 1',
        path: ['resources', 'gpus'],
        input: 0,
      }
    : undefined
}

/** The fields of every source: its schema version, name, image, command. */
const common = {
  /** Version of this schema; only 1 exists (default 1). */
  schemaVersion: z._default(
    z.literal(sourceMetadataVersion, {
      error: `this SDK reads schemaVersion ${sourceMetadataVersion}: upgrade @gridforge/sdk`,
    }),
    sourceMetadataVersion,
  ),
  /** A short human name. */
  name: line(100),
  /** What the source does, for listings (markdown allowed). */
  description: z.optional(text(4_000)),
  /**
   * The full image reference, pinned by digest: `registry/name[:tag]@sha256:<64 hex>`.
   * Its digest must equal the source's on-chain `imageDigest`.
   */
  image: z.string({ error: 'expected an image reference' }).check(
    z.maxLength(512, { error: 'at most 512 characters' }),
    z.regex(imagePattern, {
      error: 'expected a full image reference pinned by digest: registry/name[:tag]@sha256:<64 hex digits>',
    }),
  ),
  /**
   * The program and its arguments, replacing the image's ENTRYPOINT and CMD
   * (`command[0]` is the executable). Omitted: the image's own.
   */
  command: z.optional(
    z.array(text(4_096), { error: 'expected a list of strings (argv)' }).check(
      z.minLength(1, { error: 'list at least the executable' }),
      z.maxLength(256, { error: 'at most 256 arguments' }),
      z.refine((argv) => argv[0] !== '', { error: 'the executable (first item) must not be empty' }),
    ),
  ),
}

/** The fields every source ends with: its network, license and template. */
const tail = {
  /**
   * `'none'` (default): no network at all. `'egress'`: outbound connections
   * only, no published ports; providers may refuse such sources.
   */
  network: z._default(z.enum(['none', 'egress'], { error: "expected 'none' or 'egress'" }), 'none'),
  /** SPDX license expression of the source, e.g. `'MIT'` or `'Apache-2.0 OR MIT'`. */
  license: z.optional(
    z
      .string({ error: 'expected an SPDX expression' })
      .check(
        z.maxLength(128, { error: 'at most 128 characters' }),
        z.regex(licensePattern, { error: "expected an SPDX expression like 'MIT' or 'Apache-2.0 OR MIT'" }),
      ),
  ),
  /** The template the source was made from, e.g. `'pytorch'` (lowercase, digits, - _ .). */
  template: z.optional(
    z
      .string({ error: 'expected a tag' })
      .check(
        z.maxLength(64, { error: 'at most 64 characters' }),
        z.regex(tagPattern, { error: "expected a lowercase tag like 'pytorch' or 'llm-inference'" }),
      ),
  ),
}

/** The zod (`zod/mini`) schema of {@link SourceMetadata}. */
export const sourceMetadataSchema = z
  .strictObject({
    /** What the source is run as: a task (the default; a lease source says `'lease'`, see {@link leaseSourceMetadataSchema}). */
    kind: z.optional(
      z.literal('task', { error: "expected 'task': a lease source is read with parseLeaseSourceMetadata" }),
    ),
    ...common,
    /** The environment variables a task may set, by name. Others are refused. */
    env: z._default(envSchema, {}),
    /** Where the task's input is mounted, read-only (default `/input`). */
    inputPath: z._default(mountPath, '/input'),
    /** Where the source writes its output, collected after the run (default `/output`). */
    outputPath: z._default(mountPath, '/output'),
    /** What the container needs and is limited to. */
    resources: z._default(taskResourcesSchema, {
      gpus: 0,
      vramMiB: 0,
      computeCapability: 0,
      cpus: 1,
      memoryMiB: 2_048,
      maxRuntimeSec: 3_600,
    }),
    ...tail,
  })
  .check(
    z.superRefine((metadata, context) => {
      const { inputPath, outputPath } = metadata
      if (inputPath === outputPath || inputPath.startsWith(`${outputPath}/`)) {
        context.issues.push({
          code: 'custom',
          message: 'must not be the output path or inside it',
          path: ['inputPath'],
          input: inputPath,
        })
      } else if (outputPath.startsWith(`${inputPath}/`)) {
        context.issues.push({
          code: 'custom',
          message: 'must not be inside the input path',
          path: ['outputPath'],
          input: outputPath,
        })
      }
      const gpus = gpusIssue(metadata.resources)
      if (gpus !== undefined) context.issues.push(gpus)
    }),
  )

/**
 * The zod (`zod/mini`) schema of {@link LeaseSourceMetadata}: a lease source,
 * an interactive service (JupyterLab, an inference server) that a renter rents
 * by the second and reaches through the provider's lease gateway.
 */
export const leaseSourceMetadataSchema = z
  .strictObject({
    /** A lease source says so: documents without `kind` are task sources. */
    kind: z.literal('lease', { error: "expected 'lease'" }),
    ...common,
    /** The service's environment: variable names to their values, fixed by the source. */
    env: z._default(envRecord(text(4_096), 'expected an object of variable names to their values'), {}),
    /** The port the service listens on, on all of the container's addresses (default 8080). */
    port: z._default(int(1, 65_535), 8_080),
    /** The service's writable folder and HOME, kept while the lease runs (default `/workspace`). */
    workdir: z._default(mountPath, '/workspace'),
    /** What the container needs and is limited to. */
    resources: z._default(
      z.strictObject({
        ...sharedResources,
        /** Memory limit of the container, in MiB (default 1024). */
        memoryMiB: z._default(int(1, 2 ** 32 - 1), 1_024),
      }),
      { gpus: 0, vramMiB: 0, computeCapability: 0, cpus: 1, memoryMiB: 1_024 },
    ),
    ...tail,
  })
  .check(
    z.superRefine((metadata, context) => {
      const gpus = gpusIssue(metadata.resources)
      if (gpus !== undefined) context.issues.push(gpus)
    }),
  )

/** Lease source metadata as parsed: defaults filled in. */
export type LeaseSourceMetadata = z.output<typeof leaseSourceMetadataSchema>

/** Lease source metadata as written: optional fields may be left out. */
export type LeaseSourceMetadataInput = z.input<typeof leaseSourceMetadataSchema>

/** Source metadata as parsed: defaults filled in. */
export type SourceMetadata = z.output<typeof sourceMetadataSchema>

/** Source metadata as written: optional fields may be left out. */
export type SourceMetadataInput = z.input<typeof sourceMetadataSchema>

export type SourceMetadataTooLargeErrorType = SourceMetadataTooLargeError & {
  name: 'SourceMetadataTooLargeError'
}

/** The metadata document is over {@link maxSourceMetadataBytes}. */
export class SourceMetadataTooLargeError extends BaseError {
  override name = 'SourceMetadataTooLargeError' as const
  /** Size of the document, in bytes (at least this much when it was cut off while reading). */
  readonly size: number
  readonly max: number

  constructor({ size, max }: { size: number; max: number }) {
    super(`Source metadata is ${size} bytes, more than the ${max} allowed`, {
      metaMessages: ['Shorten the description, or link to longer documentation instead of inlining it.'],
    })
    this.size = size
    this.max = max
  }
}

export type ParseSourceMetadataErrorType =
  | InvalidParametersErrorType
  | SourceMetadataTooLargeErrorType
  | Error

/**
 * Parses and checks source metadata: a JSON string, its UTF-8 bytes, or an
 * already parsed object. Refuses documents over 64 KiB with
 * {@link SourceMetadataTooLargeError} before parsing them, and anything that
 * does not match {@link sourceMetadataSchema} with an
 * {@link InvalidParametersError} that names every bad field.
 *
 * @example
 * import { parseSourceMetadata } from '@gridforge/sdk'
 *
 * const metadata = parseSourceMetadata(`{
 *   "name": "Whisper large-v3",
 *   "image": "ghcr.io/gridforge/whisper:3@sha256:${'ab'.repeat(32)}",
 *   "command": ["python", "transcribe.py"],
 *   "resources": { "gpus": 1, "vramMiB": 16384, "maxRuntimeSec": 1800 }
 * }`)
 * metadata.outputPath // '/output'
 * metadata.network // 'none'
 */
export function parseSourceMetadata(input: unknown): SourceMetadata {
  return parseDocument(input, sourceMetadataSchema, 'parseSourceMetadata')
}

/**
 * Parses and checks a lease source's metadata (`"kind": "lease"`), as
 * {@link parseSourceMetadata} does a task source's: 64 KiB at most
 * ({@link SourceMetadataTooLargeError}), and {@link leaseSourceMetadataSchema}
 * ({@link InvalidParametersError} naming every bad field).
 *
 * @example
 * import { parseLeaseSourceMetadata } from '@gridforge/sdk'
 *
 * const metadata = parseLeaseSourceMetadata({
 *   kind: 'lease',
 *   name: 'JupyterLab',
 *   image: `ghcr.io/gridforge/jupyter-lease:0.1.0@sha256:${'ab'.repeat(32)}`,
 *   command: ['jupyter', 'lab', '--ip=0.0.0.0', '--port=8888'],
 *   port: 8888,
 * })
 * metadata.workdir // '/workspace'
 */
export function parseLeaseSourceMetadata(input: unknown): LeaseSourceMetadata {
  return parseDocument(input, leaseSourceMetadataSchema, 'parseLeaseSourceMetadata')
}

/** Whether a metadata document says it is a lease source's (`"kind": "lease"`), before it is checked. */
export function isLeaseSourceDocument(input: unknown): boolean {
  let value = input
  if (typeof input === 'string' || input instanceof Uint8Array) {
    try {
      value = JSON.parse(typeof input === 'string' ? input : new TextDecoder().decode(input))
    } catch {
      return false
    }
  }
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'lease'
}

/** A metadata document's size checked, its JSON parsed, and the result checked against `schema`. */
function parseDocument<output>(
  input: unknown,
  schema: {
    safeParse(
      value: unknown,
    ): { success: true; data: output } | { success: false; error: { issues: readonly unknown[] } }
  },
  action: string,
): output {
  let value = input
  if (typeof input === 'string' || input instanceof Uint8Array) {
    const size = typeof input === 'string' ? utf8Length(input) : input.byteLength
    if (size > maxSourceMetadataBytes)
      throw new SourceMetadataTooLargeError({ size, max: maxSourceMetadataBytes })
    let json: string
    try {
      json = typeof input === 'string' ? input : new TextDecoder('utf-8', { fatal: true }).decode(input)
      value = JSON.parse(json)
    } catch (error) {
      throw new InvalidParametersError({
        action,
        fields: [{ path: '(metadata)', message: `not JSON in UTF-8: ${(error as Error).message}` }],
      })
    }
  } else {
    let json: string | undefined
    try {
      json = JSON.stringify(input)
    } catch (error) {
      throw new InvalidParametersError({
        action,
        fields: [{ path: '(metadata)', message: `not serializable as JSON: ${(error as Error).message}` }],
      })
    }
    const size = json === undefined ? 0 : utf8Length(json)
    if (size > maxSourceMetadataBytes)
      throw new SourceMetadataTooLargeError({ size, max: maxSourceMetadataBytes })
  }
  const result = schema.safeParse(value)
  if (result.success) return result.data
  throw new InvalidParametersError({
    action,
    fields: result.error.issues.flatMap((issue) => toFields(issue as Issue)),
  })
}

/**
 * The on-chain image digest (`0x…`, for `publishSource`) of an image reference
 * pinned by digest, or `undefined` when it is not one.
 *
 * @example
 * import { imageDigestOf } from '@gridforge/sdk'
 *
 * imageDigestOf(`ghcr.io/gridforge/whisper:3@sha256:${'ab'.repeat(32)}`) // '0xabab…ab'
 */
export function imageDigestOf(image: string): Hex | undefined {
  const digest = image.length <= 512 ? imagePattern.exec(image)?.[1] : undefined
  return digest === undefined ? undefined : `0x${digest}`
}

/**
 * The on-chain requirements that match the metadata's resources, for
 * `publishSource` (add `deterministic` yourself: only you know whether
 * replicas of your source give identical outputs).
 *
 * @example
 * import { parseSourceMetadata, publishSource, requirementsOf, imageDigestOf } from '@gridforge/sdk'
 *
 * const metadata = parseSourceMetadata(json)
 * await publishSource(client, {
 *   deployment,
 *   imageDigest: imageDigestOf(metadata.image)!,
 *   metadata: cid,
 *   requirements: { ...requirementsOf(metadata), deterministic: true },
 * })
 */
export function requirementsOf(
  metadata: SourceMetadata | LeaseSourceMetadata,
): Omit<Requirements, 'deterministic'> {
  return {
    minGpus: metadata.resources.gpus,
    minVramMiB: metadata.resources.vramMiB,
    minComputeCapability: metadata.resources.computeCapability,
    // A lease runs as long as its renter pays: the task market's limit is its default, unused.
    maxRuntimeSec: 'maxRuntimeSec' in metadata.resources ? metadata.resources.maxRuntimeSec : 3_600,
  }
}

function utf8Length(value: string): number {
  return new TextEncoder().encode(value).byteLength
}

interface Issue {
  code: string
  path: readonly PropertyKey[]
  message: string
  input?: unknown
  keys?: readonly string[]
  issues?: readonly Issue[]
}

/** One or more named fields from a zod issue, with messages that say what to write instead. */
function toFields(issue: Issue, prefix: readonly PropertyKey[] = []): InvalidField[] {
  const path = [...prefix, ...issue.path]
  const at = (extra: readonly PropertyKey[] = []) =>
    [...path, ...extra].length === 0 ? '(metadata)' : [...path, ...extra].map(String).join('.')
  if (issue.code === 'unrecognized_keys') {
    return (issue.keys ?? []).map((key) => ({ path: at([key]), message: 'unknown field' }))
  }
  if (issue.code === 'invalid_key' && issue.issues !== undefined) {
    return issue.issues.map((inner) => ({ path: at(), message: inner.message }))
  }
  if (issue.code === 'invalid_type' && issue.input === undefined && path.length > 0) {
    return [{ path: at(), message: 'required' }]
  }
  if (issue.code === 'invalid_type' && path.length === 0) {
    return [{ path: at(), message: 'expected a JSON object' }]
  }
  return [{ path: at(), message: issue.message }]
}
