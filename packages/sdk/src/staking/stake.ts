import type { Account, Chain, Client, Hash, Transport } from 'viem'
import * as z from 'zod/mini'
import { Staked, stake as stakeFunction, stakeWithPermit, errors as stakingErrors } from '../abis/staking.js'
import type { ContractRevertedErrorType } from '../errors/contract.js'
import { stakingHints, tokenHints } from '../errors/hints/staking.js'
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
import { accountAddress } from '../wallet/account.js'
import {
  approveIfShort,
  checkFunding,
  type FundingOptions,
  fundingSchema,
  permitFor,
  tokenPullErrors,
} from '../wallet/funding.js'
import type { PermitNotSupportedErrorType, PermitSignature } from '../wallet/signPermit.js'

export type StakeParameters = DeploymentParameter &
  WriteOptions &
  FundingOptions & {
    /** How much to stake, e.g. `'100'` (token units) or a bigint (base units). */
    amount: Amount
  }

export type StakeReturnType = WriteResult & {
  /** Staked, in base units. */
  amount: bigint
  /** The approval sent first with `approve: true` when the allowance was short. */
  approveHash?: Hash | undefined
}

export type StakeErrorType =
  | InvalidParametersErrorType
  | PermitNotSupportedErrorType
  | ContractRevertedErrorType
  | TransactionRevertedErrorType
  | EventNotFoundErrorType
  | Error

const schema = (decimals: number) => z.object({ amount: s.positiveAmount(decimals), ...fundingSchema })

/**
 * Stakes tokens from the account. Stake earns a share of protocol fees, gives
 * a client fee discount by tier, and backs a provider's claims as collateral.
 * Staking pulls the tokens, so it needs an allowance: pass `approve: true` to
 * send an `approve` first when the allowance is short (two transactions), or
 * `permit: true` to sign an EIP-2612 permit and stake in one transaction.
 *
 * @example
 * import { stake } from '@gridforge/sdk'
 *
 * const { amount } = await stake(client, { deployment, amount: '100', permit: true })
 */
export async function stake(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: StakeParameters,
): Promise<StakeReturnType> {
  const { deployment, account, confirmations } = parameters
  const token = deployment.token ?? gridToken
  const action = 'stake'
  const params = validate(action, schema(token.decimals), parameters)
  checkFunding(action, params)
  const owner = accountAddress(client, action, account)
  const staking = deployment.contracts.staking
  const funding = {
    action,
    deployment,
    owner,
    spender: staking,
    amount: params.amount,
    account,
    confirmations,
  }
  const hints = { ...tokenHints, ...stakingHints }
  const abi = [...stakingErrors, ...tokenPullErrors]
  let approveHash: Hash | undefined
  let receipt: Awaited<ReturnType<typeof writeAndWait>>
  if (params.permit !== undefined && params.permit !== false) {
    const permit = await permitFor(client, parameters.permit as true | PermitSignature, funding)
    receipt = await writeAndWait(client, {
      action,
      hints,
      token,
      address: staking,
      abi: [stakeWithPermit, ...abi],
      functionName: 'stakeWithPermit',
      args: [params.amount, permit.deadline, permit.v, permit.r, permit.s],
      ...writeOptions(parameters),
    })
  } else {
    if (params.approve === true) approveHash = await approveIfShort(client, funding)
    receipt = await writeAndWait(client, {
      action,
      hints,
      token,
      address: staking,
      abi: [stakeFunction, ...abi],
      functionName: 'stake',
      args: [params.amount],
      ...writeOptions(parameters),
    })
  }
  const { args } = findEvent(action, receipt, staking, Staked)
  return {
    amount: args.amount,
    ...(approveHash === undefined ? {} : { approveHash }),
    hash: receipt.transactionHash,
    blockNumber: receipt.blockNumber,
  }
}
