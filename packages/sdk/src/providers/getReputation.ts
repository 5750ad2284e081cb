import type { Account, Address, Chain, Client, Transport } from 'viem'
import * as z from 'zod/mini'
import { getReputation as getReputationFunction } from '../abis/providerRegistry.js'
import { providerRegistryHints } from '../errors/hints/registries.js'
import type { InvalidParametersErrorType } from '../errors/validation.js'
import * as s from '../internal/schemas.js'
import { validate } from '../internal/validate.js'
import { read } from '../internal/write.js'
import type { DeploymentParameter } from '../types/deployment.js'
import { accountAddress } from '../wallet/account.js'

/** A provider's track record, kept by the market; tasks may gate on `completed` and `successBps`. */
export interface Reputation {
  /** Slots claimed. */
  claimed: number
  /**
   * Slots completed and paid at least the registry's `minRecordPayment`
   * (`getProviderRegistryParams`): smaller work is paid but not counted.
   * Failed runs are counted in `failedRuns`, not here.
   */
  completed: number
  /** Slots not delivered in time (no-shows, missed reveals). */
  failed: number
  /** Slots whose result lost a consensus vote. */
  outvoted: number
  /** Sum of paid runtimes, in seconds. */
  totalRuntimeSec: number
  /** Sum of collateral slashed, in base units. */
  slashedAmount: bigint
  /**
   * completed / (completed + failed + outvoted) in basis points; 0 without
   * history (no record is not a perfect record). Failed runs do not count.
   */
  successBps: number
  /**
   * Slots delivered as a failure report (non-zero exit, timeout, out of
   * memory, output too large): paid the source's failure terms, never
   * slashed, not counted in `completed` nor against `successBps`.
   */
  failedRuns: number
}

/** The contract's `Reputation` struct. */
export interface ReputationStruct {
  claimed: number
  completed: number
  failed: number
  outvoted: number
  totalRuntimeSec: bigint
  slashedAmount: bigint
  failedRuns: number
}

export type GetReputationParameters = DeploymentParameter & {
  /** The provider (default: the client's account). */
  provider?: Address | undefined
  /** Read at this block instead of the latest. */
  blockNumber?: bigint | undefined
}

export type GetReputationReturnType = Reputation

export type GetReputationErrorType = InvalidParametersErrorType | Error

const schema = /* @__PURE__ */ z.object({
  provider: z.optional(s.address),
  blockNumber: z.optional(z.bigint()),
})

/**
 * Reads a provider's reputation counters and success rate (all zero for an
 * address with no history, its success rate included: no record yet).
 *
 * @example
 * import { getReputation } from '@gridforge/sdk'
 *
 * const { completed, successBps } = await getReputation(client, { deployment, provider: '0x…' })
 * console.log(`${completed} tasks, ${successBps / 100}% success`)
 */
export async function getReputation(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: GetReputationParameters,
): Promise<GetReputationReturnType> {
  const action = 'getReputation'
  const params = validate(action, schema, parameters)
  const provider = accountAddress(client, action, params.provider, 'provider')
  const struct = await read<ReputationStruct>(client, {
    action,
    hints: providerRegistryHints,
    address: parameters.deployment.contracts.providers,
    abi: [getReputationFunction],
    functionName: 'getReputation',
    args: [provider],
    blockNumber: params.blockNumber,
  })
  return toReputation(struct)
}

/**
 * A {@link Reputation} from the contract's struct, with the success rate
 * computed as the registry's `successBps` does.
 */
export function toReputation(struct: ReputationStruct): Reputation {
  const finished = struct.completed + struct.failed + struct.outvoted
  return {
    claimed: struct.claimed,
    completed: struct.completed,
    failed: struct.failed,
    outvoted: struct.outvoted,
    totalRuntimeSec: Number(struct.totalRuntimeSec),
    slashedAmount: struct.slashedAmount,
    successBps: finished === 0 ? 0 : Math.floor((struct.completed * 10_000) / finished),
    failedRuns: struct.failedRuns,
  }
}
