import type { Account, Address, Chain, Client, Transport } from 'viem'
import * as z from 'zod/mini'
import { earned } from '../abis/staking.js'
import { stakingHints } from '../errors/hints/staking.js'
import type { InvalidParametersErrorType } from '../errors/validation.js'
import * as s from '../internal/schemas.js'
import { validate } from '../internal/validate.js'
import { read } from '../internal/write.js'
import type { DeploymentParameter } from '../types/deployment.js'
import { accountAddress } from '../wallet/account.js'

export type GetRewardsParameters = DeploymentParameter & {
  /** Whose rewards to read (default: the client's account). */
  account?: Address | undefined
  /** Read at this block instead of the latest. */
  blockNumber?: bigint | undefined
}

/** The revenue share the account can claim now, in base units (fees still held by the market included). */
export type GetRewardsReturnType = bigint

export type GetRewardsErrorType = InvalidParametersErrorType | Error

const schema = /* @__PURE__ */ z.object({
  account: z.optional(s.address),
  blockNumber: z.optional(z.bigint()),
})

/**
 * Reads the share of protocol fees an account can claim now with `claimRewards`.
 *
 * @example
 * import { formatAmount, getRewards } from '@gridforge/sdk'
 *
 * const rewards = await getRewards(client, { deployment })
 * console.log(`claimable: ${formatAmount(rewards)}`)
 */
export async function getRewards(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: GetRewardsParameters,
): Promise<GetRewardsReturnType> {
  const { deployment } = parameters
  const action = 'getRewards'
  const params = validate(action, schema, parameters)
  const account = accountAddress(client, action, params.account)
  return read<bigint>(client, {
    action,
    hints: stakingHints,
    address: deployment.contracts.staking,
    abi: [earned],
    functionName: 'earned',
    args: [account],
    blockNumber: params.blockNumber,
  })
}
