import type { Account, Address, Chain, Client, Transport } from 'viem'
import {
  TreasuryWithdrawn,
  errors as taskMarketErrors,
  withdrawTreasury as withdrawTreasuryFunction,
} from '../abis/taskMarket.js'
import type { ContractRevertedErrorType } from '../errors/contract.js'
import { taskMarketHints } from '../errors/hints/taskMarket.js'
import type { TransactionRevertedErrorType } from '../errors/transaction.js'
import {
  findEvent,
  type WriteOptions,
  type WriteResult,
  writeAndWait,
  writeOptions,
} from '../internal/write.js'
import type { DeploymentParameter } from '../types/deployment.js'
import { gridToken } from '../utils/amount.js'

export type WithdrawTreasuryParameters = DeploymentParameter & WriteOptions

export type WithdrawTreasuryReturnType = WriteResult & {
  /** The treasury paid. */
  treasury: Address
  /** Tokens sent to it, in base units. */
  amount: bigint
}

export type WithdrawTreasuryErrorType = ContractRevertedErrorType | TransactionRevertedErrorType | Error

/**
 * Sends the treasury fees accrued in the market to the treasury. Anyone may
 * call it; the tokens always go to the treasury address.
 *
 * @example
 * import { withdrawTreasury } from '@gridforge/sdk'
 *
 * const { treasury, amount } = await withdrawTreasury(client, { deployment })
 */
export async function withdrawTreasury(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: WithdrawTreasuryParameters,
): Promise<WithdrawTreasuryReturnType> {
  const { deployment } = parameters
  const action = 'withdrawTreasury'
  const market = deployment.contracts.market
  const receipt = await writeAndWait(client, {
    action,
    hints: taskMarketHints,
    token: deployment.token ?? gridToken,
    address: market,
    abi: [withdrawTreasuryFunction, ...taskMarketErrors],
    functionName: 'withdrawTreasury',
    args: [],
    ...writeOptions(parameters),
  })
  const { args } = findEvent(action, receipt, market, TreasuryWithdrawn)
  return {
    treasury: args.treasury,
    amount: args.amount,
    hash: receipt.transactionHash,
    blockNumber: receipt.blockNumber,
  }
}
