import type { Account, Chain, Client, Transport } from 'viem'
import * as z from 'zod/mini'
import {
  DiscountTiersUpdated,
  setDiscountTiers as setDiscountTiersFunction,
  errors as stakingErrors,
} from '../abis/staking.js'
import type { ContractRevertedErrorType } from '../errors/contract.js'
import { stakingHints } from '../errors/hints/staking.js'
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
import { type Amount, gridToken } from '../utils/amount.js'
import type { DiscountTier } from './getDiscountTiers.js'

/** Most discount tiers Staking accepts (its MAX_DISCOUNT_TIERS). */
export const maxDiscountTiers = 8
/** Largest discount a tier may give, in basis points of the protocol fee (its MAX_DISCOUNT_BPS). */
export const maxDiscountBps = 5_000

export type SetDiscountTiersParameters = DeploymentParameter &
  WriteOptions & {
    /**
     * The new tiers, replacing the old ones (`[]` removes every discount): by
     * strictly increasing `minStake` (above zero), with non-decreasing
     * `discountBps` of at most 5000, at most 8 tiers.
     */
    tiers: readonly { minStake: Amount; discountBps: number }[]
  }

export type SetDiscountTiersReturnType = WriteResult & {
  /** The tiers now in force. */
  tiers: DiscountTier[]
}

export type SetDiscountTiersErrorType =
  | InvalidParametersErrorType
  | ContractRevertedErrorType
  | TransactionRevertedErrorType
  | EventNotFoundErrorType
  | Error

const maxUint128 = 2n ** 128n - 1n

const schema = (decimals: number) =>
  z.object({
    tiers: z
      .array(
        z.object({
          minStake: z.pipe(
            s.positiveAmount(decimals),
            z.bigint().check(z.lte(maxUint128, { error: 'must fit in 128 bits' })),
          ),
          discountBps: s.uint(16, maxDiscountBps),
        }),
        { error: 'expected a list of { minStake, discountBps }' },
      )
      .check(
        z.maxLength(maxDiscountTiers, { error: `at most ${maxDiscountTiers} tiers` }),
        z.superRefine((tiers, context) => {
          for (const [index, tier] of tiers.entries()) {
            const previous = tiers[index - 1]
            if (previous === undefined) continue
            if (tier.minStake <= previous.minStake) {
              context.issues.push({
                code: 'custom',
                message: "must be above the previous tier's minStake",
                path: [index, 'minStake'],
                input: tier.minStake,
              })
            }
            if (tier.discountBps < previous.discountBps) {
              context.issues.push({
                code: 'custom',
                message: "must not be below the previous tier's discountBps",
                path: [index, 'discountBps'],
                input: tier.discountBps,
              })
            }
          }
        }),
      ),
  })

/**
 * Owner only: replaces the client fee-discount tiers. A client whose stake
 * reaches a tier's `minStake` gets its `discountBps` of the protocol fee back.
 *
 * @example
 * import { setDiscountTiers } from '@gridforge/sdk'
 *
 * await setDiscountTiers(ownerClient, {
 *   deployment,
 *   tiers: [
 *     { minStake: '1000', discountBps: 1000 },
 *     { minStake: '10000', discountBps: 2500 },
 *   ],
 * })
 */
export async function setDiscountTiers(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: SetDiscountTiersParameters,
): Promise<SetDiscountTiersReturnType> {
  const { deployment } = parameters
  const token = deployment.token ?? gridToken
  const action = 'setDiscountTiers'
  const params = validate(action, schema(token.decimals), parameters)
  const staking = deployment.contracts.staking
  const receipt = await writeAndWait(client, {
    action,
    hints: stakingHints,
    token,
    address: staking,
    abi: [setDiscountTiersFunction, ...stakingErrors],
    functionName: 'setDiscountTiers',
    args: [params.tiers],
    ...writeOptions(parameters),
  })
  const { args } = findEvent(action, receipt, staking, DiscountTiersUpdated)
  return {
    tiers: args.tiers.map(({ minStake, discountBps }) => ({ minStake, discountBps })),
    hash: receipt.transactionHash,
    blockNumber: receipt.blockNumber,
  }
}
