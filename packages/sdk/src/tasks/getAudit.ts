import type { Account, Chain, Client, ReadContractReturnType, Transport } from 'viem'
import * as z from 'zod/mini'
import { getAudit as getAuditFunction, TaskMarketUnknownTask } from '../abis/taskMarket.js'
import { ContractRevertedError, type ContractRevertedErrorType } from '../errors/contract.js'
import { taskMarketHints } from '../errors/hints/taskMarket.js'
import { TaskNotFoundError, type TaskNotFoundErrorType } from '../errors/task.js'
import type { InvalidParametersErrorType } from '../errors/validation.js'
import * as s from '../internal/schemas.js'
import { validate } from '../internal/validate.js'
import { read } from '../internal/write.js'
import type { DeploymentParameter } from '../types/deployment.js'
import { auditVerdicts, type TaskAudit } from '../types/task.js'

export type GetAuditParameters = DeploymentParameter & {
  taskId: number | bigint
  /** Read as of this block (default: the latest). */
  blockNumber?: bigint | undefined
}

export type GetAuditReturnType = TaskAudit

export type GetAuditErrorType =
  | InvalidParametersErrorType
  | TaskNotFoundErrorType
  | ContractRevertedErrorType
  | Error

const schema = /* @__PURE__ */ z.object({
  taskId: s.taskId,
  blockNumber: z.optional(z.bigint()),
})

/**
 * Reads the audit of a single-replica task, or the dispute of a task with
 * replicas > 1 whose revealed results differ: its verdict (`'none'` for a
 * task that is not auditable, not drawn or not disputed yet, `'not-drawn'`
 * once the draw passed a result, `'pending'` while auditors work, then
 * `'upheld'`, `'overturned'`, `'unresolved'` or `'lapsed'`), the current
 * round with its seats (a dispute's auditors from slot `replicas` on) and
 * deadlines, and the collateral slashed into it so far. Before a dispute, a
 * task with replicas > 1 reads round 0: the race for its seats, which ends at
 * `joinDeadline` and is seeded by the block after `seedBlock`.
 *
 * @example
 * import { getAudit } from '@gridforge/sdk'
 *
 * const audit = await getAudit(client, { deployment, taskId: 12n })
 * if (audit.verdict === 'pending') console.log(`round ${audit.round}: join until ${audit.joinDeadline}`)
 * if (audit.verdict === 'overturned') console.log('the result was wrong: the client got its escrow back')
 * if (audit.round === 0 && audit.joinDeadline) console.log(`replicas: seats raced for until ${audit.joinDeadline}`)
 */
export async function getAudit(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: GetAuditParameters,
): Promise<GetAuditReturnType> {
  const { deployment } = parameters
  const action = 'getAudit'
  const { taskId, blockNumber } = validate(action, schema, parameters)
  try {
    const audit = await read<RawAudit>(client, {
      action,
      hints: taskMarketHints,
      token: deployment.token,
      address: deployment.contracts.market,
      abi: [getAuditFunction, TaskMarketUnknownTask],
      functionName: 'getAudit',
      args: [taskId],
      blockNumber,
    })
    return toAudit(audit)
  } catch (error) {
    if (error instanceof ContractRevertedError && error.errorName === 'TaskMarketUnknownTask') {
      throw new TaskNotFoundError({ taskIds: [taskId], cause: error })
    }
    throw error
  }
}

/** The audit as `getAudit` on the market returns it. */
export type RawAudit = ReadContractReturnType<[typeof getAuditFunction], 'getAudit'>

const date = (seconds: number) => (seconds === 0 ? undefined : new Date(seconds * 1000))

/** Turns the market's audit into a {@link TaskAudit}. */
export function toAudit(audit: RawAudit): TaskAudit {
  return {
    verdict: auditVerdicts[audit.verdict] ?? 'none',
    round: audit.round,
    firstSlot: audit.firstSlot,
    auditors: audit.auditors,
    joinDeadline: date(audit.joinDeadline),
    commitDeadline: date(audit.commitDeadline),
    // Round 0 of replicas: the race for the seats, seeded by the submission's block.
    seedBlock: audit.seedBlock === 0 ? undefined : BigInt(audit.seedBlock),
    slashed: audit.slashed,
  }
}
