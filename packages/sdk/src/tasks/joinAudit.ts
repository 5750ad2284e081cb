import { type Account, type Address, type Chain, type Client, parseEventLogs, type Transport } from 'viem'
import * as z from 'zod/mini'
import { errors as providerRegistryErrors } from '../abis/providerRegistry.js'
import { errors as stakingErrors } from '../abis/staking.js'
import {
  AuditorJoined,
  AuditorReplaced,
  AuditRoundOpened,
  joinAudit as joinAuditFunction,
  errors as taskMarketErrors,
} from '../abis/taskMarket.js'
import type { ContractRevertedErrorType } from '../errors/contract.js'
import { providerRegistryHints } from '../errors/hints/registries.js'
import { stakingHints } from '../errors/hints/staking.js'
import { taskMarketHints } from '../errors/hints/taskMarket.js'
import {
  EventNotFoundError,
  type EventNotFoundErrorType,
  type TransactionRevertedErrorType,
} from '../errors/transaction.js'
import type { InvalidParametersErrorType } from '../errors/validation.js'
import * as s from '../internal/schemas.js'
import { validate } from '../internal/validate.js'
import { type WriteOptions, type WriteResult, writeAndWait, writeOptions } from '../internal/write.js'
import type { DeploymentParameter } from '../types/deployment.js'
import { gridToken } from '../utils/amount.js'

/**
 * The slot `joinAudit` answers when the round's seed block was more than 256
 * blocks old: nothing was joined, the round was opened again from the
 * transaction's block. Join again two blocks later.
 */
export const auditReseededSlot = 255

export type JoinAuditParameters = DeploymentParameter &
  WriteOptions & {
    /** A task under audit (`Auditing`) whose round takes auditors. */
    taskId: number | bigint
  }

export type JoinAuditReturnType = WriteResult & {
  taskId: bigint
  /**
   * The auditor's slot (1 to 6), or {@link auditReseededSlot} (255) when the
   * round was re-seeded instead: nothing joined, try again two blocks later.
   */
  slot: number
  /** The auditor's stake-weighted ticket: the lowest tickets hold the round's slots when joining closes (0n when re-seeded). */
  score: bigint
  /** The auditor whose worse ticket this one replaced (its collateral unlocked), if the round was full. */
  replaced: Address | undefined
}

export type JoinAuditErrorType =
  | InvalidParametersErrorType
  | ContractRevertedErrorType
  | TransactionRevertedErrorType
  | EventNotFoundErrorType
  | Error

const schema = /* @__PURE__ */ z.object({ taskId: s.taskId })

/**
 * Joins the open audit round of another provider's result as an auditor,
 * locking the task's collateral from the sender's stake. The sender must be
 * an eligible provider for the task (registered, not paused, subscribed to
 * its source, capable enough, past its gates), neither the task's provider
 * nor an auditor of an earlier round. Joining opens two blocks after the
 * round opened and closes at its `joinDeadline`; each joiner draws a ticket
 * weighted by its stake, and the lowest tickets hold the round's slots: a
 * better ticket replaces the worst one, a worse one reverts
 * (`TaskMarketAuditTicketTooHigh`). Once joining closes, auditors re-run the
 * task and `commitResult`, then `revealResult`, like consensus replicas.
 *
 * @example
 * import { auditReseededSlot, commitResult, joinAudit } from '@gridforge/sdk'
 *
 * const { slot } = await joinAudit(providerClient, { deployment, taskId: 12n })
 * if (slot === auditReseededSlot) console.log('the round was re-seeded: join again two blocks later')
 * // after the round's joinDeadline (getAudit), with the output of the task's input:
 * // await commitResult(providerClient, { deployment, taskId: 12n, result, salt })
 */
export async function joinAudit(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: JoinAuditParameters,
): Promise<JoinAuditReturnType> {
  const { deployment } = parameters
  const action = 'joinAudit'
  const taskId = validate(action, schema, parameters).taskId as bigint
  const market = deployment.contracts.market
  const receipt = await writeAndWait(client, {
    action,
    hints: { ...providerRegistryHints, ...stakingHints, ...taskMarketHints },
    token: deployment.token ?? gridToken,
    address: market,
    abi: [joinAuditFunction, ...taskMarketErrors, ...stakingErrors, ...providerRegistryErrors],
    functionName: 'joinAudit',
    args: [taskId],
    ...writeOptions(parameters),
  })
  const logs = parseEventLogs({
    abi: [AuditorJoined, AuditorReplaced, AuditRoundOpened],
    logs: receipt.logs.filter((log) => log.address.toLowerCase() === market.toLowerCase()),
  }).filter((log) => log.args.taskId === taskId)
  const written = { taskId, hash: receipt.transactionHash, blockNumber: receipt.blockNumber }
  const joined = logs.find((log) => log.eventName === 'AuditorJoined')
  const reopened = logs.find((log) => log.eventName === 'AuditRoundOpened')
  if (joined === undefined) {
    if (reopened === undefined)
      throw new EventNotFoundError({ action, event: 'AuditorJoined', hash: receipt.transactionHash })
    return { ...written, slot: auditReseededSlot, score: 0n, replaced: undefined }
  }
  const replaced = logs.find((log) => log.eventName === 'AuditorReplaced')
  return {
    ...written,
    slot: joined.args.slot,
    score: joined.args.score,
    replaced: replaced?.args.auditor,
  }
}
