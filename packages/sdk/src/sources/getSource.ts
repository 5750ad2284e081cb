import type { Account, Address, Chain, Client, Hex, Transport } from 'viem'
import * as z from 'zod/mini'
import { getSource as getSourceFunction, SourceRegistryUnknownSource } from '../abis/sourceRegistry.js'
import type { ContractRevertedErrorType } from '../errors/contract.js'
import { sourceRegistryHints } from '../errors/hints/registries.js'
import type { InvalidParametersErrorType } from '../errors/validation.js'
import * as s from '../internal/schemas.js'
import { validate } from '../internal/validate.js'
import { read } from '../internal/write.js'
import type { DeploymentParameter } from '../types/deployment.js'
import type { Requirements } from '../types/requirements.js'

/** A published source, as the SourceRegistry holds it. */
export interface Source {
  sourceId: number
  /** Who may deactivate, reactivate and transfer it, and receives its creator fees. */
  owner: Address
  /** Whether it takes new tasks. */
  active: boolean
  publishedAt: Date
  /** sha256 digest of the OCI image manifest (`image@sha256:<this without 0x>`). */
  imageDigest: Hex
  /** CID of the metadata JSON (see `parseSourceMetadata`). */
  metadata: string
  /** What a provider's host needs to run it. */
  requirements: Requirements
  /** Share of the protocol fee paid to the owner, in basis points. */
  creatorFeeBps: number
  /** The source this one is a new version of, if any. */
  predecessor: number | undefined
  /**
   * What a failed run is paid on a fixed-price task, in basis points of its
   * price (metered tasks pay the runtime used).
   */
  failureFeeBps: number
  /** The deterministic source that checks this one's results (audits run it), if any. */
  validator: number | undefined
}

/** The contract's `Source` struct. */
export interface SourceStruct {
  owner: Address
  publishedAt: number
  active: boolean
  creatorFeeBps: number
  predecessor: number
  imageDigest: Hex
  requirements: Requirements
  failureFeeBps: number
  validator: number
  metadataCID: string
}

export type GetSourceParameters = DeploymentParameter & {
  sourceId: number | bigint
  /** Read at this block instead of the latest. */
  blockNumber?: bigint | undefined
}

export type GetSourceReturnType = Source

export type GetSourceErrorType = InvalidParametersErrorType | ContractRevertedErrorType | Error

const schema = /* @__PURE__ */ z.object({ sourceId: s.uint(32), blockNumber: z.optional(z.bigint()) })

/**
 * Reads a source. An unknown id rejects with a `ContractRevertedError`
 * (`SourceRegistryUnknownSource`).
 *
 * @example
 * import { getSource } from '@gridforge/sdk'
 *
 * const source = await getSource(client, { deployment, sourceId: 1 })
 * console.log(source.metadata, source.requirements.maxRuntimeSec, source.active)
 */
export async function getSource(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: GetSourceParameters,
): Promise<GetSourceReturnType> {
  const action = 'getSource'
  const params = validate(action, schema, parameters)
  const struct = await read<SourceStruct>(client, {
    action,
    hints: sourceRegistryHints,
    address: parameters.deployment.contracts.sources,
    abi: [getSourceFunction, SourceRegistryUnknownSource],
    functionName: 'getSource',
    args: [params.sourceId],
    blockNumber: params.blockNumber,
  })
  return toSource(params.sourceId, struct)
}

/** A {@link Source} from the contract's struct. */
export function toSource(sourceId: number, struct: SourceStruct): Source {
  const { minGpus, minVramMiB, minComputeCapability, maxRuntimeSec, deterministic } = struct.requirements
  return {
    sourceId,
    owner: struct.owner,
    active: struct.active,
    publishedAt: new Date(struct.publishedAt * 1000),
    imageDigest: struct.imageDigest,
    metadata: struct.metadataCID,
    requirements: { minGpus, minVramMiB, minComputeCapability, maxRuntimeSec, deterministic },
    creatorFeeBps: struct.creatorFeeBps,
    predecessor: struct.predecessor === 0 ? undefined : struct.predecessor,
    failureFeeBps: struct.failureFeeBps,
    validator: struct.validator === 0 ? undefined : struct.validator,
  }
}
