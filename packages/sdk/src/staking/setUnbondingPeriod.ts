import type { Account, Chain, Client, Transport } from 'viem'
import * as z from 'zod/mini'
import {
  setUnbondingPeriod as setUnbondingPeriodFunction,
  errors as stakingErrors,
  UnbondingPeriodUpdated,
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
import type { Duration } from '../utils/duration.js'

/** Shortest unbonding period Staking accepts (its MIN_UNBONDING_PERIOD): 1 hour. */
export const minUnbondingPeriodSec = 3_600
/** Longest unbonding period Staking accepts (its MAX_UNBONDING_PERIOD): 60 days. */
export const maxUnbondingPeriodSec = 60 * 86_400

export type SetUnbondingPeriodParameters = DeploymentParameter &
  WriteOptions & {
    /** How long unbonding stake waits, e.g. `'7d'`: from `'1h'` to `'60d'`. */
    period: Duration
  }

export type SetUnbondingPeriodReturnType = WriteResult & {
  /** The new period, in seconds. */
  unbondingPeriodSec: number
}

export type SetUnbondingPeriodErrorType =
  | InvalidParametersErrorType
  | ContractRevertedErrorType
  | TransactionRevertedErrorType
  | EventNotFoundErrorType
  | Error

const schema = /* @__PURE__ */ z.object({
  period: z.pipe(
    s.duration,
    z
      .number()
      .check(
        z.gte(minUnbondingPeriodSec, { error: 'must be at least 1h' }),
        z.lte(maxUnbondingPeriodSec, { error: 'must be at most 60d' }),
      ),
  ),
})

/**
 * Owner only: sets how long unbonding stake waits before it can be withdrawn.
 * Requests already made keep their time.
 *
 * @example
 * import { setUnbondingPeriod } from '@gridforge/sdk'
 *
 * await setUnbondingPeriod(ownerClient, { deployment, period: '14d' })
 */
export async function setUnbondingPeriod(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: SetUnbondingPeriodParameters,
): Promise<SetUnbondingPeriodReturnType> {
  const { deployment } = parameters
  const action = 'setUnbondingPeriod'
  const params = validate(action, schema, parameters)
  const staking = deployment.contracts.staking
  const receipt = await writeAndWait(client, {
    action,
    hints: stakingHints,
    address: staking,
    abi: [setUnbondingPeriodFunction, ...stakingErrors],
    functionName: 'setUnbondingPeriod',
    args: [params.period],
    ...writeOptions(parameters),
  })
  const { args } = findEvent(action, receipt, staking, UnbondingPeriodUpdated)
  return {
    unbondingPeriodSec: args.unbondingPeriod,
    hash: receipt.transactionHash,
    blockNumber: receipt.blockNumber,
  }
}
