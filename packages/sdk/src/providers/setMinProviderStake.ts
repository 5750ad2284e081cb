import type { Account, Chain, Client, Transport } from 'viem'
import * as z from 'zod/mini'
import {
  MinProviderStakeUpdated,
  MinRecordPaymentUpdated,
  errors as providerRegistryErrors,
  setMinProviderStake as setMinProviderStakeFunction,
} from '../abis/providerRegistry.js'
import type { ContractRevertedErrorType } from '../errors/contract.js'
import { providerRegistryHints } from '../errors/hints/registries.js'
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
import { type Amount, formatAmount, gridToken } from '../utils/amount.js'

/** Largest `minProviderStake` the registry accepts (its MAX_MIN_PROVIDER_STAKE), in base units. */
export const maxMinProviderStake = 10n ** 27n

export type SetMinProviderStakeParameters = DeploymentParameter &
  WriteOptions & {
    /** Available stake needed to register, e.g. `'100'` (token units) or a bigint (base units). */
    amount: Amount
  }

export type SetMinProviderStakeReturnType = WriteResult & {
  /** The new minimum, in base units. */
  minProviderStake: bigint
  /**
   * The least payment a completion needs to count in a provider's record,
   * reset to a thousandth of the new minimum (`setMinRecordPayment` sets it
   * apart), in base units.
   */
  minRecordPayment: bigint
}

export type SetMinProviderStakeErrorType =
  | InvalidParametersErrorType
  | ContractRevertedErrorType
  | TransactionRevertedErrorType
  | EventNotFoundErrorType
  | Error

/** An owner-set amount of the registry: token units or base units, at most {@link maxMinProviderStake}. */
export const registryAmountSchema = (decimals: number) =>
  z.object({
    amount: z.pipe(
      s.amount(decimals),
      z.bigint().check(
        z.lte(maxMinProviderStake, {
          error: `must be at most ${maxMinProviderStake} base units (${formatAmount(maxMinProviderStake, { symbol: '', decimals })}token units)`,
        }),
      ),
    ),
  })

/**
 * Owner only: sets the available stake a provider needs to register.
 * Providers already registered are unaffected. It also resets
 * `minRecordPayment` to a thousandth of the new minimum: call
 * `setMinRecordPayment` after it to keep another value.
 *
 * @example
 * import { setMinProviderStake } from '@gridforge/sdk'
 *
 * await setMinProviderStake(ownerClient, { deployment, amount: '500' })
 */
export async function setMinProviderStake(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: SetMinProviderStakeParameters,
): Promise<SetMinProviderStakeReturnType> {
  const { deployment } = parameters
  const token = deployment.token ?? gridToken
  const action = 'setMinProviderStake'
  const params = validate(action, registryAmountSchema(token.decimals), parameters)
  const providers = deployment.contracts.providers
  const receipt = await writeAndWait(client, {
    action,
    hints: providerRegistryHints,
    token,
    address: providers,
    abi: [setMinProviderStakeFunction, ...providerRegistryErrors],
    functionName: 'setMinProviderStake',
    args: [params.amount],
    ...writeOptions(parameters),
  })
  const { args } = findEvent(action, receipt, providers, MinProviderStakeUpdated)
  const recordPayment = findEvent(action, receipt, providers, MinRecordPaymentUpdated).args
  return {
    minProviderStake: args.minProviderStake,
    minRecordPayment: recordPayment.minRecordPayment,
    hash: receipt.transactionHash,
    blockNumber: receipt.blockNumber,
  }
}
