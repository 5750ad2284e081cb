import type { Account, Address, Chain, Client, Transport } from 'viem'
import * as z from 'zod/mini'
import { errors as sourceRegistryErrors } from '../abis/sourceRegistry.js'
import {
  CreatorFeesClaimed,
  claimCreatorFees as claimCreatorFeesFunction,
  errors as taskMarketErrors,
} from '../abis/taskMarket.js'
import type { ContractRevertedErrorType } from '../errors/contract.js'
import { sourceRegistryHints } from '../errors/hints/registries.js'
import { taskMarketHints } from '../errors/hints/taskMarket.js'
import type { TransactionRevertedErrorType } from '../errors/transaction.js'
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
import { gridToken } from '../utils/amount.js'

export type ClaimCreatorFeesParameters = DeploymentParameter &
  WriteOptions & {
    /** A source the sender owns now (accrued fees follow a transferred source). */
    sourceId: number | bigint
  }

export type ClaimCreatorFeesReturnType = WriteResult & {
  sourceId: number
  owner: Address
  /** Moved to the owner's market balance, in base units (withdraw it with `withdraw`). */
  amount: bigint
}

export type ClaimCreatorFeesErrorType =
  | InvalidParametersErrorType
  | ContractRevertedErrorType
  | TransactionRevertedErrorType
  | Error

const schema = /* @__PURE__ */ z.object({ sourceId: s.uint(32) })

/**
 * Moves the creator fees a source has accrued (its `creatorFeeBps` share of
 * protocol fees) to its owner's market balance. Only the source's current
 * owner can claim.
 *
 * @example
 * import { claimCreatorFees } from '@gridforge/sdk'
 *
 * const { amount } = await claimCreatorFees(ownerClient, { deployment, sourceId: 3 })
 */
export async function claimCreatorFees(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: ClaimCreatorFeesParameters,
): Promise<ClaimCreatorFeesReturnType> {
  const { deployment } = parameters
  const action = 'claimCreatorFees'
  const { sourceId } = validate(action, schema, parameters)
  const market = deployment.contracts.market
  const receipt = await writeAndWait(client, {
    action,
    hints: { ...sourceRegistryHints, ...taskMarketHints },
    token: deployment.token ?? gridToken,
    address: market,
    abi: [claimCreatorFeesFunction, ...taskMarketErrors, ...sourceRegistryErrors],
    functionName: 'claimCreatorFees',
    args: [sourceId],
    ...writeOptions(parameters),
  })
  const { args } = findEvent(action, receipt, market, CreatorFeesClaimed)
  return {
    sourceId: args.sourceId,
    owner: args.owner,
    amount: args.amount,
    hash: receipt.transactionHash,
    blockNumber: receipt.blockNumber,
  }
}
