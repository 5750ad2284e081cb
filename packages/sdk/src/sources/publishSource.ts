import type { Account, Address, Chain, Client, Hex, Transport } from 'viem'
import * as z from 'zod/mini'
import { publish, SourcePublished, errors as sourceRegistryErrors } from '../abis/sourceRegistry.js'
import type { ContractRevertedErrorType } from '../errors/contract.js'
import { sourceRegistryHints } from '../errors/hints/registries.js'
import type { EventNotFoundErrorType, TransactionRevertedErrorType } from '../errors/transaction.js'
import type { InvalidParametersErrorType } from '../errors/validation.js'
import * as s from '../internal/schemas.js'
import { validate } from '../internal/validate.js'
import {
  findEvent,
  type WriteOptions,
  type WriteResult,
  writeAndWait,
  writeOptions,
} from '../internal/write.js'
import type { DeploymentParameter } from '../types/deployment.js'
import type { Requirements } from '../types/requirements.js'
import type { Duration } from '../utils/duration.js'

/** Longest `maxRuntimeSec` a source may declare (the registry's MAX_RUNTIME_SEC): 7 days. */
export const maxSourceRuntimeSec = 7 * 86_400
/** Largest `creatorFeeBps` (the registry's MAX_CREATOR_FEE_BPS): half the protocol fee. */
export const maxCreatorFeeBps = 5_000
/** Largest `failureFeeBps`: the whole price. */
export const maxFailureFeeBps = 10_000

export type PublishSourceParameters = DeploymentParameter &
  WriteOptions & {
    /**
     * sha256 digest of the OCI image manifest: `0x` + 64 hex digits, or
     * `sha256:<64 hex>` as in `image@sha256:…` (see `imageDigestOf`).
     */
    imageDigest: Hex | `sha256:${string}`
    /** CID of the metadata JSON (checked by `parseSourceMetadata` before you upload it). */
    metadata: string
    /**
     * What a provider's host needs. `maxRuntimeSec` (default `'1h'`, at most
     * `'7d'`) also bounds each claim; `deterministic` (default false) allows
     * tasks with several replicas whose outputs are compared.
     */
    requirements?: Partial<Omit<Requirements, 'maxRuntimeSec'> & { maxRuntimeSec: Duration }> | undefined
    /** Share of the protocol fee paid to you, in basis points (default 0, at most 5000). */
    creatorFeeBps?: number | undefined
    /** The source this one is a new version of (you must own it). */
    predecessor?: number | bigint | undefined
    /**
     * What a failed run (non-zero exit, timeout at the runtime limit, out of
     * memory, output over the cap) is paid on a fixed-price task, in basis
     * points of its price (default 0, at most 10000). A metered task pays the
     * runtime used instead.
     */
    failureFeeBps?: number | undefined
    /**
     * A published deterministic source, with a runtime limit no longer than
     * this one's, that checks this source's results (default: none). A
     * single-replica task of this source is then auditable even when the
     * source is not deterministic: its auditors run the validator on the
     * task's input and the provider's result.
     */
    validator?: number | bigint | undefined
  }

export type PublishSourceReturnType = WriteResult & {
  /** The new source's id. */
  sourceId: number
  /** Its owner: the sender. */
  owner: Address
}

export type PublishSourceErrorType =
  | InvalidParametersErrorType
  | ContractRevertedErrorType
  | TransactionRevertedErrorType
  | EventNotFoundErrorType
  | Error

const imageDigest = /* @__PURE__ */ z.pipe(
  z.string({ error: 'expected 0x or sha256: followed by 64 hex digits' }),
  z.transform((value, context) => {
    const match = /^(?:0x|sha256:)([0-9a-fA-F]{64})$/.exec(value)
    if (match === null || /^0+$/.test(match[1] ?? '')) {
      context.issues.push({
        code: 'custom',
        message:
          match === null
            ? 'expected the image manifest digest: 0x or sha256: followed by 64 hex digits'
            : 'must not be zero: use the sha256 digest of the image manifest',
        input: value,
      })
      return z.NEVER
    }
    return `0x${(match[1] ?? '').toLowerCase()}` as Hex
  }),
)

const schema = /* @__PURE__ */ z.object({
  imageDigest,
  metadata: s.cid,
  requirements: z.optional(
    z.object({
      minGpus: z.optional(s.uint(8)),
      minVramMiB: z.optional(s.uint(32)),
      minComputeCapability: z.optional(s.uint(8)),
      maxRuntimeSec: z.optional(
        z.pipe(
          s.duration,
          z
            .number()
            .check(
              z.gte(1, { error: 'must be at least 1 second' }),
              z.lte(maxSourceRuntimeSec, { error: 'must be at most 7d' }),
            ),
        ),
      ),
      deterministic: z.optional(z.boolean({ error: 'expected true or false' })),
    }),
  ),
  creatorFeeBps: z.optional(s.uint(16, maxCreatorFeeBps)),
  predecessor: z.optional(s.uint(32)),
  failureFeeBps: z.optional(s.uint(16, maxFailureFeeBps)),
  validator: z.optional(s.uint(32)),
})

/**
 * Publishes a source: an OCI image pinned by digest, the CID of its metadata
 * and what hosts need to run it. Anyone may publish; the sender owns the
 * source. Returns the new source's id.
 *
 * @example
 * import { imageDigestOf, publishSource } from '@gridforge/sdk'
 *
 * const { sourceId } = await publishSource(client, {
 *   deployment,
 *   imageDigest: imageDigestOf('ghcr.io/acme/whisper:3@sha256:…')!,
 *   metadata: 'bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku',
 *   requirements: { minGpus: 1, minVramMiB: 16_384, maxRuntimeSec: '30m', deterministic: true },
 *   creatorFeeBps: 1_000,
 *   failureFeeBps: 2_000, // a failed fixed-price run is paid 20 % of the price
 * })
 */
export async function publishSource(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: PublishSourceParameters,
): Promise<PublishSourceReturnType> {
  const { deployment } = parameters
  const action = 'publishSource'
  const params = validate(action, schema, parameters)
  const sources = deployment.contracts.sources
  const requirements = params.requirements
  const receipt = await writeAndWait(client, {
    action,
    hints: sourceRegistryHints,
    address: sources,
    abi: [publish, ...sourceRegistryErrors],
    functionName: 'publish',
    args: [
      params.imageDigest,
      params.metadata,
      {
        minGpus: requirements?.minGpus ?? 0,
        minVramMiB: requirements?.minVramMiB ?? 0,
        minComputeCapability: requirements?.minComputeCapability ?? 0,
        maxRuntimeSec: requirements?.maxRuntimeSec ?? 3_600,
        deterministic: requirements?.deterministic ?? false,
      },
      params.creatorFeeBps ?? 0,
      params.predecessor ?? 0,
      params.failureFeeBps ?? 0,
      params.validator ?? 0,
    ],
    ...writeOptions(parameters),
  })
  const { args } = findEvent(action, receipt, sources, SourcePublished)
  return {
    sourceId: args.sourceId,
    owner: args.owner,
    hash: receipt.transactionHash,
    blockNumber: receipt.blockNumber,
  }
}
