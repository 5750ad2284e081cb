import type { Account, Address, Chain, Client, Transport } from 'viem'
import * as z from 'zod/mini'
import {
  acceptOwnership as providersAcceptOwnership,
  OwnershipTransferred as providersTransferred,
  OwnableUnauthorizedAccount as providersUnauthorized,
} from '../abis/providerRegistry.js'
import {
  acceptOwnership as stakingAcceptOwnership,
  OwnershipTransferred as stakingTransferred,
  OwnableUnauthorizedAccount as stakingUnauthorized,
} from '../abis/staking.js'
import {
  acceptOwnership as marketAcceptOwnership,
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
import { acceptOwnershipHints } from './hints.js'

export type AcceptOwnershipParameters = DeploymentParameter &
  WriteOptions & {
    /** Whose ownership to accept: `'market'`, `'staking'` or `'providers'`. */
    contract: OwnableContract
  }

export type AcceptOwnershipReturnType = WriteResult & {
  /** The owner until now. */
  previousOwner: Address
  /** The new owner: the sender. */
  newOwner: Address
}

export type AcceptOwnershipErrorType =
  | InvalidParametersErrorType
  | ContractRevertedErrorType
  | TransactionRevertedErrorType
  | Error

const items = {
  market: { fn: marketAcceptOwnership, event: marketTransferred, error: marketUnauthorized },
  staking: { fn: stakingAcceptOwnership, event: stakingTransferred, error: stakingUnauthorized },
  providers: { fn: providersAcceptOwnership, event: providersTransferred, error: providersUnauthorized },
} as const

const schema = /* @__PURE__ */ z.object({ contract: contractSchema })

/**
 * Completes a two-step ownership transfer of a Gridforge contract: the
 * pending owner (set by {@link transferOwnership}) becomes the owner. Only the
 * pending owner may call it.
 *
 * @example
 * import { acceptOwnership } from '@gridforge/sdk'
 *
 * const { previousOwner, newOwner } = await acceptOwnership(newOwnerClient, { deployment, contract: 'staking' })
 */
export async function acceptOwnership(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: AcceptOwnershipParameters,
): Promise<AcceptOwnershipReturnType> {
  const { deployment } = parameters
  const action = 'acceptOwnership'
  const { contract } = validate(action, schema, parameters)
  const address = contractAddress(deployment, contract)
  const { fn, event, error } = items[contract]
  const receipt = await writeAndWait(client, {
    action,
    hints: acceptOwnershipHints,
    address,
    abi: [fn, error],
    functionName: 'acceptOwnership',
    args: [],
    ...writeOptions(parameters),
  })
  const { args } = findEvent(action, receipt, address, event)
  return { ...args, hash: receipt.transactionHash, blockNumber: receipt.blockNumber }
}
