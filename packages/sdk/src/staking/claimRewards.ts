import type { Account, Chain, Client, Transport } from 'viem'
import {
  claimRewards as claimRewardsFunction,
  RewardsClaimed,
  errors as stakingErrors,
} from '../abis/staking.js'
import type { ContractRevertedErrorType } from '../errors/contract.js'
import { stakingHints } from '../errors/hints/staking.js'
import type { EventNotFoundErrorType, TransactionRevertedErrorType } from '../errors/transaction.js'
import {
  findEvent,
  type WriteOptions,
  type WriteResult,
  writeAndWait,
  writeOptions,
} from '../internal/write.js'
import type { DeploymentParameter } from '../types/deployment.js'
import { gridToken } from '../utils/amount.js'

export type ClaimRewardsParameters = DeploymentParameter & WriteOptions

export type ClaimRewardsReturnType = WriteResult & {
  /** Paid to the account, in base units. */
  amount: bigint
}

export type ClaimRewardsErrorType =
  | ContractRevertedErrorType
  | TransactionRevertedErrorType
  | EventNotFoundErrorType
  | Error

/**
 * Claims the account's share of protocol fees (see `getRewards`). Reverts
 * with `StakingNoRewards` when there is nothing to claim.
 *
 * @example
 * import { claimRewards, formatAmount } from '@gridforge/sdk'
 *
 * const { amount } = await claimRewards(client, { deployment })
 * console.log(`claimed ${formatAmount(amount)}`)
 */
export async function claimRewards(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: ClaimRewardsParameters,
): Promise<ClaimRewardsReturnType> {
  const { deployment } = parameters
  const action = 'claimRewards'
  const staking = deployment.contracts.staking
  const receipt = await writeAndWait(client, {
    action,
    hints: stakingHints,
    token: deployment.token ?? gridToken,
    address: staking,
    abi: [claimRewardsFunction, ...stakingErrors],
    functionName: 'claimRewards',
    args: [],
    ...writeOptions(parameters),
  })
  const { args } = findEvent(action, receipt, staking, RewardsClaimed)
  return { amount: args.amount, hash: receipt.transactionHash, blockNumber: receipt.blockNumber }
}
