import type { Account, Chain, Client, Hash, Transport } from 'viem'
import * as z from 'zod/mini'
import {
  Deposited,
  deposit as depositFunction,
  depositWithPermit,
  errors as taskMarketErrors,
} from '../abis/taskMarket.js'
import type { ContractRevertedErrorType } from '../errors/contract.js'
import { tokenHints } from '../errors/hints/staking.js'
import { taskMarketHints } from '../errors/hints/taskMarket.js'
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
import { accountAddress } from './account.js'
import {
  approveIfShort,
  checkFunding,
  type FundingOptions,
  fundingSchema,
  permitFor,
  tokenPullErrors,
} from './funding.js'
import type { PermitNotSupportedErrorType, PermitSignature } from './signPermit.js'

export type DepositParameters = DeploymentParameter &
  WriteOptions &
  FundingOptions & {
    /** How much to move into the market balance, e.g. `'50'` (token units) or a bigint (base units). */
    amount: Amount
  }

export type DepositReturnType = WriteResult & {
  /** Deposited, in base units. */
  amount: bigint
  /** The approval sent first with `approve: true` when the allowance was short. */
  approveHash?: Hash | undefined
}

export type DepositErrorType =
  | InvalidParametersErrorType
  | PermitNotSupportedErrorType
  | ContractRevertedErrorType
  | TransactionRevertedErrorType
  | EventNotFoundErrorType
  | Error

const schema = (decimals: number) => z.object({ amount: s.positiveAmount(decimals), ...fundingSchema })

/**
 * Moves tokens from the account into its market balance (the "cloud wallet"
 * that tasks are paid from). The market pulls them, so it needs an allowance:
 * pass `approve: true` to send an `approve` first when the allowance is short
 * (two transactions), or `permit: true` to sign an EIP-2612 permit and deposit
 * in one transaction.
 *
 * @example
 * import { deposit } from '@gridforge/sdk'
 *
 * const { amount, hash } = await deposit(client, { deployment, amount: '50', permit: true })
 */
export async function deposit(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: DepositParameters,
): Promise<DepositReturnType> {
  const { deployment, account, confirmations } = parameters
  const token = deployment.token ?? gridToken
  const action = 'deposit'
  const params = validate(action, schema(token.decimals), parameters)
  checkFunding(action, params)
  const owner = accountAddress(client, action, account)
  const spender = deployment.contracts.market
  const funding = { action, deployment, owner, spender, amount: params.amount, account, confirmations }
  const hints = { ...tokenHints, ...taskMarketHints }
  const abi = [...taskMarketErrors, ...tokenPullErrors]
  let approveHash: Hash | undefined
  let receipt: Awaited<ReturnType<typeof writeAndWait>>
  if (params.permit !== undefined && params.permit !== false) {
    const permit = await permitFor(client, parameters.permit as true | PermitSignature, funding)
    receipt = await writeAndWait(client, {
      action,
      hints,
      token,
      address: spender,
      abi: [depositWithPermit, ...abi],
      functionName: 'depositWithPermit',
      args: [params.amount, permit.deadline, permit.v, permit.r, permit.s],
      ...writeOptions(parameters),
    })
  } else {
    if (params.approve === true) approveHash = await approveIfShort(client, funding)
    receipt = await writeAndWait(client, {
      action,
      hints,
      token,
      address: spender,
      abi: [depositFunction, ...abi],
      functionName: 'deposit',
      args: [params.amount],
      ...writeOptions(parameters),
    })
  }
  const { args } = findEvent(action, receipt, spender, Deposited)
  return {
    amount: args.amount,
    ...(approveHash === undefined ? {} : { approveHash }),
    hash: receipt.transactionHash,
    blockNumber: receipt.blockNumber,
  }
}
