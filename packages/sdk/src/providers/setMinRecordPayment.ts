import type { Account, Chain, Client, Transport } from 'viem'
import {
  MinRecordPaymentUpdated,
  errors as providerRegistryErrors,
  setMinRecordPayment as setMinRecordPaymentFunction,
} from '../abis/providerRegistry.js'
import type { ContractRevertedErrorType } from '../errors/contract.js'
import { providerRegistryHints } from '../errors/hints/registries.js'
import type { EventNotFoundErrorType, TransactionRevertedErrorType } from '../errors/transaction.js'
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
import { type Amount, gridToken } from '../utils/amount.js'
import { registryAmountSchema } from './setMinProviderStake.js'

export type SetMinRecordPaymentParameters = DeploymentParameter &
  WriteOptions & {
    /**
     * The least payment a completed slot needs to count in a provider's
     * `completed` record, e.g. `'0.5'` (token units) or a bigint (base units);
     * at most `maxMinProviderStake`.
     */
    amount: Amount
  }

export type SetMinRecordPaymentReturnType = WriteResult & {
  /** The new minimum, in base units. */
  minRecordPayment: bigint
}

export type SetMinRecordPaymentErrorType =
  | InvalidParametersErrorType
  | ContractRevertedErrorType
  | TransactionRevertedErrorType
  | EventNotFoundErrorType
  | Error

/**
 * Owner only: sets the least payment a completed slot needs to count in a
 * provider's `completed` record, and so in the reputation gates of tasks
 * (`minCompleted`). A record of N completions then costs whoever builds it at
 * least N × the protocol fee on this much work: self-dealt dust tasks no
 * longer farm a reputation. Completions already counted stay. Setting
 * `minProviderStake` resets it to a thousandth of that minimum.
 *
 * @example
 * import { setMinRecordPayment } from '@gridforge/sdk'
 *
 * await setMinRecordPayment(ownerClient, { deployment, amount: '0.5' })
 */
export async function setMinRecordPayment(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: SetMinRecordPaymentParameters,
): Promise<SetMinRecordPaymentReturnType> {
  const { deployment } = parameters
  const token = deployment.token ?? gridToken
  const action = 'setMinRecordPayment'
  const params = validate(action, registryAmountSchema(token.decimals), parameters)
  const providers = deployment.contracts.providers
  const receipt = await writeAndWait(client, {
    action,
    hints: providerRegistryHints,
    token,
    address: providers,
    abi: [setMinRecordPaymentFunction, ...providerRegistryErrors],
    functionName: 'setMinRecordPayment',
    args: [params.amount],
    ...writeOptions(parameters),
  })
  const { args } = findEvent(action, receipt, providers, MinRecordPaymentUpdated)
  return {
    minRecordPayment: args.minRecordPayment,
    hash: receipt.transactionHash,
    blockNumber: receipt.blockNumber,
  }
}
