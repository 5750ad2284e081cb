import {
  type Account,
  type Address,
  type Chain,
  type Client,
  encodeFunctionData,
  parseEventLogs,
  type Transport,
} from 'viem'
import { getBlock, readContract } from 'viem/actions'
import { getAction } from 'viem/utils'
import * as z from 'zod/mini'
import { errors as providerRegistryErrors } from '../abis/providerRegistry.js'
import { errors as stakingErrors } from '../abis/staking.js'
import {
  AuditDrawn,
  ClaimReplaced,
  claimTask as claimTaskFunction,
  getSlots,
  multicall,
  releaseResult,
  TaskClaimed,
  errors as taskMarketErrors,
} from '../abis/taskMarket.js'
import type { ContractRevertedErrorType } from '../errors/contract.js'
import { providerRegistryHints } from '../errors/hints/registries.js'
import { stakingHints } from '../errors/hints/staking.js'
import { claimHints, taskMarketHints } from '../errors/hints/taskMarket.js'
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

export type ClaimTaskParameters = DeploymentParameter &
  WriteOptions & {
    /** The task to claim a slot of. */
    taskId: number | bigint
    /**
     * Held results (auditable single-replica tasks whose draw is ready, see
     * `getAuditDraw`) to release in the same transaction, before the claim:
     * each release then costs no transaction of its own (about 27,000 gas
     * less than `releaseResult`). Anyone's held results may be released. If
     * one cannot be (not held, or its draw not ready), nothing happens and the
     * claim reverts with that release's error.
     */
    release?: readonly (number | bigint)[] | undefined
  }

export type ClaimTaskReturnType = WriteResult & {
  taskId: bigint
  /** The claimant. */
  provider: Address
  /** The slot taken (0 to replicas − 1). */
  slot: number
  /**
   * Whether the seat was won in the race for the seats of a task with
   * replicas > 1: it is not final until `finalAt`, and a better ticket may
   * take it before then (`ClaimReplaced`; the collateral is unlocked).
   */
  raced: boolean
  /**
   * When the seat is final and its time starts (its `claimedAt`): for a raced
   * seat the race's end + 1 s (`commitResult` reverts
   * `TaskMarketSeatNotFinal` before it: start the work then); otherwise the
   * claim's block time.
   */
  finalAt: Date
  /**
   * When the result (replicas = 1) or the commitment (replicas > 1) is due:
   * `finalAt` + the task's maxRuntimeSec + the market's claimGrace, at most
   * the task's deadline. After it anyone may reopen the slot and slash the
   * collateral.
   */
  dueAt: Date
  /** Stake locked until the slot settles, in base units. */
  collateral: bigint
  /** The provider whose worse ticket this claim's took the seat from, if every seat was held. */
  replaced: Address | undefined
  /**
   * The held results released before the claim (`release`), in order, and
   * whether each draw picked the result for an audit (drawn: an audit round
   * opened; not drawn: the task settled and its provider was paid).
   */
  released: { taskId: bigint; drawn: boolean }[]
}

export type ClaimTaskErrorType =
  | InvalidParametersErrorType
  | ContractRevertedErrorType
  | TransactionRevertedErrorType
  | Error

const schema = /* @__PURE__ */ z.object({ taskId: s.taskId, release: z.optional(z.array(s.taskId)) })

/**
 * Claims a slot of an open task for the sending provider and locks the
 * task's collateral from its available stake. The provider must be
 * registered, not paused, subscribed to the task's source, meet its
 * requirements and reputation gates, and hold no other slot of the task.
 *
 * A single-replica task's slot is first come. The seats of a task with
 * replicas > 1 are raced for: from two blocks after the submission
 * (`TaskMarketDrawNotReady` before) until the race ends (`getAudit`'s
 * `joinDeadline` for the task, the submission + the market's
 * auditJoinWindow, or 256 blocks), each claim draws a ticket weighted by the
 * provider's stake and the lowest tickets hold the seats: a claim takes a free
 * seat, or the worst seated ticket's seat when it is better (`replaced`),
 * or reverts `TaskMarketClaimTicketTooHigh`. A seat won in the race is final,
 * and its time starts, at `finalAt` (the race's end + 1 s): wait until then
 * to run the task and commit. After the race free seats are first come again.
 * Reading whether the seat was raced costs two reads after the receipt.
 *
 * `release` names held results to release in the same transaction (a
 * `multicall`): the provider agent passes its own results whose audit draw
 * is ready, so that their release rides on the claim it makes anyway.
 *
 * @example
 * import { claimTask } from '@gridforge/sdk'
 *
 * const { slot, raced, finalAt, dueAt } = await claimTask(providerClient, { deployment, taskId: 12n })
 * if (raced) console.log(`slot ${slot} is ours if no better ticket claims it before ${finalAt.toISOString()}`)
 * console.log(`deliver before ${dueAt.toISOString()}`)
 */
export async function claimTask(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: ClaimTaskParameters,
): Promise<ClaimTaskReturnType> {
  const { deployment } = parameters
  const action = 'claimTask'
  const valid = validate(action, schema, parameters)
  const taskId = valid.taskId as bigint
  const release = (valid.release ?? []) as bigint[]
  const market = deployment.contracts.market
  const errors = [...taskMarketErrors, ...providerRegistryErrors, ...stakingErrors]
  const common = {
    action,
    hints: { ...providerRegistryHints, ...stakingHints, ...taskMarketHints, ...claimHints },
    token: deployment.token ?? gridToken,
    address: market,
    ...writeOptions(parameters),
  }
  const receipt =
    release.length === 0
      ? await writeAndWait(client, {
          ...common,
          abi: [claimTaskFunction, ...errors],
          functionName: 'claimTask',
          args: [taskId],
        })
      : await writeAndWait(client, {
          ...common,
          abi: [multicall, ...errors],
          functionName: 'multicall',
          args: [
            [
              ...release.map((id) =>
                encodeFunctionData({ abi: [releaseResult], functionName: 'releaseResult', args: [id] }),
              ),
              encodeFunctionData({ abi: [claimTaskFunction], functionName: 'claimTask', args: [taskId] }),
            ],
          ],
        })
  const { args } = findEvent(action, receipt, market, TaskClaimed)
  const marketLogs = receipt.logs.filter((log) => log.address.toLowerCase() === market.toLowerCase())
  const replaced = parseEventLogs({ abi: [ClaimReplaced], logs: marketLogs }).find(
    (log) => log.args.taskId === taskId,
  )
  const released = parseEventLogs({ abi: [AuditDrawn], logs: marketLogs }).map((log) => ({
    taskId: log.args.taskId,
    drawn: log.args.drawn,
  }))
  // A raced seat starts when the race ends, after the claim's block; any other when it is claimed.
  const { blockNumber } = receipt
  const [slots, block] = await Promise.all([
    getAction(
      client,
      readContract,
      'readContract',
    )({ address: market, abi: [getSlots], functionName: 'getSlots', args: [taskId], blockNumber }),
    getAction(client, getBlock, 'getBlock')({ blockNumber }),
  ])
  const finalAt = slots[args.slot]?.claimedAt ?? Number(block.timestamp)
  return {
    taskId: args.taskId,
    provider: args.provider,
    slot: args.slot,
    raced: finalAt > Number(block.timestamp),
    finalAt: new Date(finalAt * 1000),
    dueAt: new Date(args.dueAt * 1000),
    collateral: args.collateral,
    replaced: replaced?.args.provider,
    released,
    hash: receipt.transactionHash,
    blockNumber,
  }
}
