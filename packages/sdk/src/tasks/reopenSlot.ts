import { type Account, type Address, type Chain, type Client, parseEventLogs, type Transport } from 'viem'
import * as z from 'zod/mini'
import { errors as providerRegistryErrors } from '../abis/providerRegistry.js'
import { errors as stakingErrors } from '../abis/staking.js'
import {
  ProviderSlashed,
  reopenSlot as reopenSlotFunction,
  SlotReopened,
  errors as taskMarketErrors,
} from '../abis/taskMarket.js'
import type { ContractRevertedErrorType } from '../errors/contract.js'
import { providerRegistryHints } from '../errors/hints/registries.js'
import { stakingHints } from '../errors/hints/staking.js'
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

export type ReopenSlotParameters = DeploymentParameter &
  WriteOptions & {
    taskId: number | bigint
    /** The overdue slot (0 to replicas − 1), e.g. from `getTask`'s slots. */
    slot: number
  }

export type ReopenSlotReturnType = WriteResult & {
  taskId: bigint
  slot: number
  /** The claimant that did not deliver in time. */
  provider: Address
  /** Its collateral, slashed. */
  slashed: bigint
  /** The part of `slashed` paid to the client's market balance. */
  toClient: bigint
}

export type ReopenSlotErrorType =
  | InvalidParametersErrorType
  | ContractRevertedErrorType
  | TransactionRevertedErrorType
  | Error

const schema = /* @__PURE__ */ z.object({ taskId: s.taskId, slot: s.uint(8, 6) })

/**
 * Frees a slot whose claimant missed its due time (a no-show), slashing the
 * claimant's collateral, so that another provider can claim it. Anyone may
 * call it once the claim is overdue.
 *
 * @example
 * import { reopenSlot } from '@gridforge/sdk'
 *
 * const { provider, slashed } = await reopenSlot(client, { deployment, taskId: 12n, slot: 0 })
 */
export async function reopenSlot(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: ReopenSlotParameters,
): Promise<ReopenSlotReturnType> {
  const { deployment } = parameters
  const action = 'reopenSlot'
  const params = validate(action, schema, parameters)
  const market = deployment.contracts.market
  const receipt = await writeAndWait(client, {
    action,
    hints: { ...providerRegistryHints, ...stakingHints, ...taskMarketHints },
    token: deployment.token ?? gridToken,
    address: market,
    abi: [reopenSlotFunction, ...taskMarketErrors, ...stakingErrors, ...providerRegistryErrors],
    functionName: 'reopenSlot',
    args: [params.taskId as bigint, params.slot],
    ...writeOptions(parameters),
  })
  const { args } = findEvent(action, receipt, market, SlotReopened)
  const slash = parseEventLogs({
    abi: [ProviderSlashed],
    logs: receipt.logs.filter((log) => log.address.toLowerCase() === market.toLowerCase()),
  })[0]
  return {
    taskId: args.taskId,
    slot: args.slot,
    provider: args.provider,
    slashed: slash?.args.amount ?? 0n,
    toClient: slash?.args.toClient ?? 0n,
    hash: receipt.transactionHash,
    blockNumber: receipt.blockNumber,
  }
}
