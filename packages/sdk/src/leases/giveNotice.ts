import type { Account, Chain, Client, Transport } from 'viem'
import { giveNotice as giveNoticeFunction, NoticeGiven } from '../abis/leaseMarket.js'
import type { ContractRevertedErrorType } from '../errors/contract.js'
import type { TransactionRevertedErrorType } from '../errors/transaction.js'
import type { InvalidParametersErrorType } from '../errors/validation.js'
import { validateFields } from '../internal/validate.js'
import { findEvent, type WriteOptions, type WriteResult } from '../internal/write.js'
import type { DeploymentParameter } from '../types/deployment.js'
import { allLeaseErrors } from './allLeaseErrors.js'
import { leaseIdFields } from './leaseIdFields.js'
import { writeLease } from './write.js'

export type GiveNoticeParameters = DeploymentParameter & WriteOptions & { leaseId: number | bigint }

export type GiveNoticeReturnType = WriteResult & {
  leaseId: bigint
  /** When the lease ends now, in Unix seconds (`noticePeriod` from the notice, paid as usual until then). */
  endsAt: number
}

export type GiveNoticeErrorType =
  | InvalidParametersErrorType
  | ContractRevertedErrorType
  | TransactionRevertedErrorType
  | Error

/**
 * Gives notice on a lease (provider only): it ends `noticePeriod` from now
 * and is paid as usual until then.
 *
 * @example
 * import { giveNotice } from '@gridforge/sdk'
 *
 * const { endsAt } = await giveNotice(providerClient, { deployment, leaseId: 7n })
 */
export async function giveNotice(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: GiveNoticeParameters,
): Promise<GiveNoticeReturnType> {
  const action = 'giveNotice'
  const { leaseId } = validateFields(action, leaseIdFields, parameters)
  const receipt = await writeLease(client, parameters, {
    ...allLeaseErrors,
    action,
    abi: [giveNoticeFunction],
    functionName: 'giveNotice',
    args: [leaseId],
  })
  const { args } = findEvent(action, receipt, parameters.deployment.contracts.leases, NoticeGiven)
  return { leaseId, endsAt: args.endsAt, hash: receipt.transactionHash, blockNumber: receipt.blockNumber }
}
