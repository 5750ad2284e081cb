import type { Account, Address, Chain, Client, Transport } from 'viem'
import * as z from 'zod/mini'
import {
  renounceOwnership as providersRenounceOwnership,
  OwnershipTransferred as providersTransferred,
  OwnableUnauthorizedAccount as providersUnauthorized,
} from '../abis/providerRegistry.js'
import {
  renounceOwnership as stakingRenounceOwnership,
  OwnershipTransferred as stakingTransferred,
  OwnableUnauthorizedAccount as stakingUnauthorized,
} from '../abis/staking.js'
import {
  renounceOwnership as marketRenounceOwnership,
  OwnershipTransferred as marketTransferred,
  OwnableUnauthorizedAccount as marketUnauthorized,
} from '../abis/taskMarket.js'
import type { ContractRevertedErrorType } from '../errors/contract.js'
import type { TransactionRevertedErrorType } from '../errors/transaction.js'
import type { InvalidParametersErrorType } from '../errors/validation.js'
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

export type RenounceOwnershipParameters = DeploymentParameter &
  WriteOptions & {
    /** Whose ownership to give up: `'market'`, `'staking'` or `'providers'`. */
    contract: OwnableContract
    /**
     * Must be `true`: the contract is left without an owner forever, so its
     * owner-only settings (fees, treasury, stake minimums, …) can never change again.
     */
    confirm: true
  }

export type RenounceOwnershipReturnType = WriteResult & {
  /** The owner until now. */
  previousOwner: Address
  /** The zero address. */
  newOwner: Address
}

export type RenounceOwnershipErrorType =
  | InvalidParametersErrorType
  | ContractRevertedErrorType
  | TransactionRevertedErrorType
  | Error

const items = {
  market: { fn: marketRenounceOwnership, event: marketTransferred, error: marketUnauthorized },
  staking: { fn: stakingRenounceOwnership, event: stakingTransferred, error: stakingUnauthorized },
  providers: { fn: providersRenounceOwnership, event: providersTransferred, error: providersUnauthorized },
} as const

const schema = /* @__PURE__ */ z.object({
  contract: contractSchema,
  confirm: z.literal(true, {
    error:
      'pass confirm: true to renounce: it leaves the contract without an owner forever, so its owner-only settings can never change again (to hand it over, use transferOwnership)',
  }),
})

/**
 * Gives up ownership of a Gridforge contract for good (owner only): the owner
 * becomes the zero address, any pending transfer is dropped, and no one can
 * call the contract's owner-only functions ever again. Refused unless
 * `confirm: true` is passed.
 *
 * @example
 * import { renounceOwnership } from '@gridforge/sdk'
 *
 * await renounceOwnership(ownerClient, { deployment, contract: 'providers', confirm: true })
 */
export async function renounceOwnership(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: RenounceOwnershipParameters,
): Promise<RenounceOwnershipReturnType> {
  const { deployment } = parameters
  const action = 'renounceOwnership'
  const { contract } = validate(action, schema, parameters)
  const address = contractAddress(deployment, contract)
  const { fn, event, error } = items[contract]
  const receipt = await writeAndWait(client, {
    action,
    hints: ownableHints,
    address,
    abi: [fn, error],
    functionName: 'renounceOwnership',
    args: [],
    ...writeOptions(parameters),
  })
  const { args } = findEvent(action, receipt, address, event)
  return { ...args, hash: receipt.transactionHash, blockNumber: receipt.blockNumber }
}
