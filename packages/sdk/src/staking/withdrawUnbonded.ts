import type { Account, Chain, Client, Transport } from 'viem'
import {
  errors as stakingErrors,
  UnbondedWithdrawn,
  withdrawUnbonded as withdrawUnbondedFunction,
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

export type WithdrawUnbondedParameters = DeploymentParameter & WriteOptions

export type WithdrawUnbondedReturnType = WriteResult & {
  /** Sent back to the account, in base units. */
  amount: bigint
}

export type WithdrawUnbondedErrorType =
  | ContractRevertedErrorType
  | TransactionRevertedErrorType
  | EventNotFoundErrorType
  | Error

/**
 * Withdraws everything unbonding once the unbonding period has ended
 * (`getStake` tells when: `unbondingReadyAt`). Before that it reverts with
 * `StakingUnbondingNotReady`, whose hint gives the time.
 *
 * @example
 * import { withdrawUnbonded } from '@gridforge/sdk'
 *
 * const { amount } = await withdrawUnbonded(client, { deployment })
 */
export async function withdrawUnbonded(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: WithdrawUnbondedParameters,
): Promise<WithdrawUnbondedReturnType> {
  const { deployment } = parameters
  const action = 'withdrawUnbonded'
  const staking = deployment.contracts.staking
  const receipt = await writeAndWait(client, {
    action,
    hints: stakingHints,
    token: deployment.token ?? gridToken,
    address: staking,
    abi: [withdrawUnbondedFunction, ...stakingErrors],
    functionName: 'withdrawUnbonded',
    args: [],
    ...writeOptions(parameters),
  })
  const { args } = findEvent(action, receipt, staking, UnbondedWithdrawn)
  return { amount: args.amount, hash: receipt.transactionHash, blockNumber: receipt.blockNumber }
}
