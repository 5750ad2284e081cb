import { type Account, type Address, type Chain, type Client, type Transport, zeroAddress } from 'viem'
import * as z from 'zod/mini'
import {
  setTreasury as setTreasuryFunction,
  TreasuryUpdated,
  errors as taskMarketErrors,
} from '../abis/taskMarket.js'
import type { ContractRevertedErrorType } from '../errors/contract.js'
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

export type SetTreasuryParameters = DeploymentParameter &
  WriteOptions & {
    /** The new recipient of treasury fees and slashes (not the zero address). */
    treasury: Address
  }

export type SetTreasuryReturnType = WriteResult & { treasury: Address }

export type SetTreasuryErrorType =
  | InvalidParametersErrorType
  | ContractRevertedErrorType
  | TransactionRevertedErrorType
  | Error

const schema = /* @__PURE__ */ z.object({
  treasury: s.address.check(
    z.refine((address) => address?.toLowerCase() !== zeroAddress, 'must not be the zero address'),
  ),
})

/**
 * Changes where treasury fees and the treasury's part of slashes go (owner
 * only). Fees already accrued go to the new treasury at the next
 * `withdrawTreasury`.
 *
 * @example
 * import { setTreasury } from '@gridforge/sdk'
 *
 * await setTreasury(ownerClient, { deployment, treasury: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' })
 */
export async function setTreasury(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: SetTreasuryParameters,
): Promise<SetTreasuryReturnType> {
  const { deployment } = parameters
  const action = 'setTreasury'
  const { treasury } = validate(action, schema, parameters)
  const market = deployment.contracts.market
  const receipt = await writeAndWait(client, {
    action,
    hints: taskMarketHints,
    address: market,
    abi: [setTreasuryFunction, ...taskMarketErrors],
    functionName: 'setTreasury',
    args: [treasury],
    ...writeOptions(parameters),
  })
  const { args } = findEvent(action, receipt, market, TreasuryUpdated)
  return { treasury: args.treasury, hash: receipt.transactionHash, blockNumber: receipt.blockNumber }
}
