import type { Account, Address, Chain, Client, Transport } from 'viem'
import * as z from 'zod/mini'
import { stakeOf } from '../abis/staking.js'
import { stakingHints } from '../errors/hints/staking.js'
import type { InvalidParametersErrorType } from '../errors/validation.js'
import * as s from '../internal/schemas.js'
import { validate } from '../internal/validate.js'
import { read } from '../internal/write.js'
import type { DeploymentParameter } from '../types/deployment.js'
import { accountAddress } from '../wallet/account.js'

export type GetStakeParameters = DeploymentParameter & {
  /** Whose stake to read (default: the client's account). */
  account?: Address | undefined
  /** Read at this block instead of the latest. */
  blockNumber?: bigint | undefined
}

/** An account's position in Staking; amounts in base units. */
export type GetStakeReturnType = {
  /** Staked, locked collateral included. Earns a share of protocol fees. */
  staked: bigint
  /** Part of `staked` locked as collateral of claimed tasks. */
  locked: bigint
  /** `staked − locked`: what can be unbonded or locked for new claims. */
  available: bigint
  /** Waiting for the unbonding period to end; earns nothing. */
  unbonding: bigint
  /** When `unbonding` can be withdrawn; `undefined` when nothing is unbonding. */
  unbondingReadyAt: Date | undefined
}

export type GetStakeErrorType = InvalidParametersErrorType | Error

const schema = /* @__PURE__ */ z.object({
  account: z.optional(s.address),
  blockNumber: z.optional(z.bigint()),
})

/**
 * Reads an account's stake: staked, locked as collateral, available, and what
 * is unbonding and since when it can be withdrawn.
 *
 * @example
 * import { formatAmount, getStake } from '@gridforge/sdk'
 *
 * const { available, unbonding, unbondingReadyAt } = await getStake(client, { deployment })
 * console.log(`available ${formatAmount(available)}`)
 * if (unbondingReadyAt) console.log(`${formatAmount(unbonding)} withdrawable after ${unbondingReadyAt.toISOString()}`)
 */
export async function getStake(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: GetStakeParameters,
): Promise<GetStakeReturnType> {
  const { deployment } = parameters
  const action = 'getStake'
  const params = validate(action, schema, parameters)
  const account = accountAddress(client, action, params.account)
  const info = await read<{ staked: bigint; locked: bigint; unbonding: bigint; unbondingReadyAt: number }>(
    client,
    {
      action,
      hints: stakingHints,
      address: deployment.contracts.staking,
      abi: [stakeOf],
      functionName: 'stakeOf',
      args: [account],
      blockNumber: params.blockNumber,
    },
  )
  return {
    staked: info.staked,
    locked: info.locked,
    available: info.staked - info.locked,
    unbonding: info.unbonding,
    unbondingReadyAt:
      info.unbonding === 0n || info.unbondingReadyAt === 0
        ? undefined
        : new Date(info.unbondingReadyAt * 1000),
  }
}
