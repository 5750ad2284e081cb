import type { Account, Address, Chain, Client, Transport } from 'viem'
import { multicall } from 'viem/actions'
import { getAction } from 'viem/utils'
import * as z from 'zod/mini'
import { allowance, balanceOf as tokenBalanceOf } from '../abis/gridToken.js'
import { balanceOf as marketBalanceOf } from '../abis/taskMarket.js'
import type { InvalidParametersErrorType } from '../errors/validation.js'
import * as s from '../internal/schemas.js'
import { validate } from '../internal/validate.js'
import type { DeploymentParameter } from '../types/deployment.js'
import { accountAddress } from './account.js'

export type GetWalletBalanceParameters = DeploymentParameter & {
  /** Whose balances to read (default: the client's account). */
  account?: Address | undefined
  /** Read at this block instead of the latest. */
  blockNumber?: bigint | undefined
}

export type GetWalletBalanceReturnType = {
  /** Market balance: free to withdraw or to pay tasks with, in base units. */
  balance: bigint
  /** Tokens in the account itself, in base units. */
  token: bigint
  /** What the market may still pull from the account, in base units. */
  allowance: bigint
}

export type GetWalletBalanceErrorType = InvalidParametersErrorType | Error

const schema = z.object({ account: z.optional(s.address), blockNumber: z.optional(z.bigint()) })

/**
 * Reads an account's money in one call: its market balance, its token balance
 * and the market's allowance on it.
 *
 * @example
 * import { formatAmount, getWalletBalance } from '@gridforge/sdk'
 *
 * const { balance, token, allowance } = await getWalletBalance(client, { deployment })
 * console.log(`market ${formatAmount(balance)}, wallet ${formatAmount(token)}`)
 */
export async function getWalletBalance(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: GetWalletBalanceParameters,
): Promise<GetWalletBalanceReturnType> {
  const { deployment } = parameters
  const action = 'getWalletBalance'
  const params = validate(action, schema, parameters)
  const account = accountAddress(client, action, params.account)
  const [balance, token, allowed] = await getAction(
    client,
    multicall,
    'multicall',
  )({
    contracts: [
      {
        address: deployment.contracts.market,
        abi: [marketBalanceOf],
        functionName: 'balanceOf',
        args: [account],
      },
      {
        address: deployment.contracts.token,
        abi: [tokenBalanceOf],
        functionName: 'balanceOf',
        args: [account],
      },
      {
        address: deployment.contracts.token,
        abi: [allowance],
        functionName: 'allowance',
        args: [account, deployment.contracts.market],
      },
    ],
    allowFailure: false,
    deployless: client.chain?.contracts?.multicall3 === undefined,
    blockNumber: params.blockNumber,
  })
  return { balance, token, allowance: allowed }
}
