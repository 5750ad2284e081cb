import { type Account, type Address, type Chain, type Client, type Transport, zeroAddress } from 'viem'
import * as z from 'zod/mini'
import {
  OwnableInvalidOwner as providersInvalidOwner,
  transferOwnership as providersTransferOwnership,
  OwnershipTransferStarted as providersTransferStarted,
  OwnableUnauthorizedAccount as providersUnauthorized,
} from '../abis/providerRegistry.js'
import {
  OwnableInvalidOwner as stakingInvalidOwner,
  transferOwnership as stakingTransferOwnership,
  OwnershipTransferStarted as stakingTransferStarted,
  OwnableUnauthorizedAccount as stakingUnauthorized,
} from '../abis/staking.js'
import {
  OwnableInvalidOwner as marketInvalidOwner,
  transferOwnership as marketTransferOwnership,
  OwnershipTransferStarted as marketTransferStarted,
  OwnableUnauthorizedAccount as marketUnauthorized,
} from '../abis/taskMarket.js'
import type { ContractRevertedErrorType } from '../errors/contract.js'
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
import { contractAddress, contractSchema, type OwnableContract } from './contracts.js'
import { ownableHints } from './hints.js'

export type TransferOwnershipParameters = DeploymentParameter &
  WriteOptions & {
    /** Whose ownership to hand over: `'market'`, `'staking'` or `'providers'`. */
    contract: OwnableContract
    /** The account that may then accept ownership (not the zero address). */
    newOwner: Address
  }

export type TransferOwnershipReturnType = WriteResult & {
  /** The owner, who stays the owner until `newOwner` accepts. */
  previousOwner: Address
  /** The pending owner. */
  newOwner: Address
}

export type TransferOwnershipErrorType =
  | InvalidParametersErrorType
  | ContractRevertedErrorType
  | TransactionRevertedErrorType
  | Error

const items = {
  market: {
    fn: marketTransferOwnership,
    event: marketTransferStarted,
    errors: [marketUnauthorized, marketInvalidOwner],
  },
  staking: {
    fn: stakingTransferOwnership,
    event: stakingTransferStarted,
    errors: [stakingUnauthorized, stakingInvalidOwner],
  },
  providers: {
    fn: providersTransferOwnership,
    event: providersTransferStarted,
    errors: [providersUnauthorized, providersInvalidOwner],
  },
} as const

const schema = /* @__PURE__ */ z.object({
  contract: contractSchema,
  newOwner: s.address.check(
    z.refine(
      (address) => address?.toLowerCase() !== zeroAddress,
      'must not be the zero address (it would only cancel a pending transfer; to give up ownership use renounceOwnership)',
    ),
  ),
})

/**
 * Starts a two-step ownership transfer of a Gridforge contract (owner only):
 * `newOwner` becomes the pending owner, and the owner stays in charge until
 * `newOwner` calls {@link acceptOwnership}. A later call replaces the pending
 * owner.
 *
 * @example
 * import { acceptOwnership, transferOwnership } from '@gridforge/sdk'
 *
 * await transferOwnership(ownerClient, { deployment, contract: 'market', newOwner: timelock })
 * // then, from the new owner:
 * await acceptOwnership(newOwnerClient, { deployment, contract: 'market' })
 */
export async function transferOwnership(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: TransferOwnershipParameters,
): Promise<TransferOwnershipReturnType> {
  const { deployment } = parameters
  const action = 'transferOwnership'
  const { contract, newOwner } = validate(action, schema, parameters)
  const address = contractAddress(deployment, contract)
  const { fn, event, errors } = items[contract]
  const receipt = await writeAndWait(client, {
    action,
    hints: ownableHints,
    address,
    abi: [fn, ...errors],
    functionName: 'transferOwnership',
    args: [newOwner],
    ...writeOptions(parameters),
  })
  const { args } = findEvent(action, receipt, address, event)
  return { ...args, hash: receipt.transactionHash, blockNumber: receipt.blockNumber }
}
