import type { Account, Chain, Client, Transport } from 'viem'
import * as z from 'zod/mini'
import { errors as providerRegistryErrors } from '../abis/providerRegistry.js'
import { errors as stakingErrors } from '../abis/staking.js'
import {
  AuditDrawn,
  releaseResult as releaseResultFunction,
  errors as taskMarketErrors,
} from '../abis/taskMarket.js'
import type { ContractRevertedErrorType } from '../errors/contract.js'
import { providerRegistryHints } from '../errors/hints/registries.js'
import { stakingHints } from '../errors/hints/staking.js'
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
import { gridToken } from '../utils/amount.js'
import { requireSettlement } from './settlement.js'

export type ReleaseResultParameters = DeploymentParameter &
  WriteOptions & {
    /** A `Held` task: an auditable single-replica task whose result is in. */
    taskId: number | bigint
  }

export type ReleaseResultReturnType = WriteResult & {
  taskId: bigint
  /**
   * Whether the draw picked the result for an audit. Drawn: the task is now
   * `Auditing` and nothing is paid yet; not drawn: it settled in this
   * transaction.
   */
  drawn: boolean
  /** Not drawn: charged to the escrow for the result (fee included); drawn: 0n. */
  payment: bigint
  /** Not drawn: the protocol fee taken from `payment`; drawn: 0n. */
  fee: bigint
  /** Not drawn: the unspent escrow returned to the client (the auditor's reserve included); drawn: 0n. */
  refund: bigint
}

export type ReleaseResultErrorType =
  | InvalidParametersErrorType
  | ContractRevertedErrorType
  | TransactionRevertedErrorType
  | EventNotFoundErrorType
  | Error

const schema = /* @__PURE__ */ z.object({ taskId: s.taskId })

/**
 * Draws whether a held result is audited, and settles it when it is not.
 * Anyone may call it from two blocks after the result was submitted (the draw
 * uses the hash of the block after the submission; `getAuditDraw` says when it
 * is ready). Not drawn: the provider is paid, its collateral unlocks and the
 * client gets the unspent escrow back. Drawn: the task moves to `Auditing` and
 * an audit round opens for other providers to `joinAudit`.
 *
 * @example
 * import { releaseResult } from '@gridforge/sdk'
 *
 * const { drawn, payment, refund } = await releaseResult(client, { deployment, taskId: 12n })
 * if (drawn) console.log('audited: the result is checked before it is paid')
 */
export async function releaseResult(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: ReleaseResultParameters,
): Promise<ReleaseResultReturnType> {
  const { deployment } = parameters
  const action = 'releaseResult'
  const taskId = validate(action, schema, parameters).taskId as bigint
  const market = deployment.contracts.market
  const receipt = await writeAndWait(client, {
    action,
    hints: { ...providerRegistryHints, ...stakingHints, ...taskMarketHints },
    token: deployment.token ?? gridToken,
    address: market,
    abi: [releaseResultFunction, ...taskMarketErrors, ...stakingErrors, ...providerRegistryErrors],
    functionName: 'releaseResult',
    args: [taskId],
    ...writeOptions(parameters),
  })
  const { drawn } = findEvent(action, receipt, market, AuditDrawn).args
  const written = { taskId, drawn, hash: receipt.transactionHash, blockNumber: receipt.blockNumber }
  if (drawn) return { ...written, payment: 0n, fee: 0n, refund: 0n }
  const settlement = requireSettlement(action, receipt, market, taskId)
  const [paid] = settlement.payments
  return { ...written, payment: paid?.payment ?? 0n, fee: paid?.fee ?? 0n, refund: settlement.refund }
}
