import type { Account, Chain, Client, Transport } from 'viem'
import * as z from 'zod/mini'
import { auditDraw, TaskMarketUnknownTask, TaskMarketWrongStatus } from '../abis/taskMarket.js'
import type { ContractRevertedErrorType } from '../errors/contract.js'
import { taskMarketHints } from '../errors/hints/taskMarket.js'
import type { InvalidParametersErrorType } from '../errors/validation.js'
import * as s from '../internal/schemas.js'
import { validate } from '../internal/validate.js'
import { read } from '../internal/write.js'
import type { DeploymentParameter } from '../types/deployment.js'

export type GetAuditDrawParameters = DeploymentParameter & {
  /** A `Held` task: an auditable single-replica task whose result is in. */
  taskId: number | bigint
  /** Read at this block (default: the latest). */
  blockNumber?: bigint | undefined
}

export interface GetAuditDrawReturnType {
  /**
   * Whether the draw can be made: from two blocks after the submission (a
   * `releaseResult` sent once this is true mines a block later, which is fine).
   */
  ready: boolean
  /** Once ready: whether `releaseResult` would open an audit (otherwise it settles the task). */
  drawn: boolean
}

export type GetAuditDrawErrorType = InvalidParametersErrorType | ContractRevertedErrorType | Error

const schema = /* @__PURE__ */ z.object({
  taskId: s.taskId,
  blockNumber: z.optional(z.bigint()),
})

/**
 * Reads the audit draw of a held result: whether it can be made yet, and
 * whether it picks the result for an audit. The draw is fixed by the hash of
 * the block after the submission, so anyone can see it before calling
 * `releaseResult`. Reverts with `TaskMarketWrongStatus` unless the task is
 * `Held`.
 *
 * @example
 * import { getAuditDraw, releaseResult } from '@gridforge/sdk'
 *
 * const { ready, drawn } = await getAuditDraw(client, { deployment, taskId: 12n })
 * if (ready) await releaseResult(client, { deployment, taskId: 12n }) // drawn: the audit opens
 */
export async function getAuditDraw(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: GetAuditDrawParameters,
): Promise<GetAuditDrawReturnType> {
  const { deployment } = parameters
  const action = 'getAuditDraw'
  const { taskId, blockNumber } = validate(action, schema, parameters)
  const [ready, drawn] = await read<readonly [boolean, boolean]>(client, {
    action,
    hints: taskMarketHints,
    token: deployment.token,
    address: deployment.contracts.market,
    abi: [auditDraw, TaskMarketUnknownTask, TaskMarketWrongStatus],
    functionName: 'auditDraw',
    args: [taskId],
    blockNumber,
  })
  return { ready, drawn }
}
