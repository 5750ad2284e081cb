import {
  type Account,
  type Address,
  type Chain,
  type Client,
  type Hex,
  parseEventLogs,
  type Transport,
} from 'viem'
import * as z from 'zod/mini'
import {
  commitResult as commitResultFunction,
  ResultCommitted,
  RevealOpened,
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
import { gridToken } from '../utils/amount.js'
import { accountAddress } from '../wallet/account.js'
import { computeCommitment, generateSalt } from './commitment.js'
import {
  type Failure,
  reportedResult,
  reportedResultCheck,
  reportedResultShape,
  type Validation,
} from './failures.js'
import { handedInDigest, resultSender } from './handIn.js'

export type CommitResultParameters = DeploymentParameter &
  WriteOptions & {
    /** A consensus task (replicas > 1) the sender claimed, or an audit the sender joined. */
    taskId: number | bigint
    /**
     * CID of the output, or of its sealed envelope (then pass the plain output
     * as `output`): the seal of the output's sha2-256 digest is what replicas
     * are compared by. With `failure` or `validation`: the CID of the run's
     * logs (any CID).
     */
    result: string
    /**
     * The plain output's CID when `result` is its sealed envelope (default:
     * `result` itself). A replica commits to the seal of its digest
     * (`sealResult`), an auditor (the task is `Auditing`) to the digest itself,
     * which the market seals at the reveal.
     */
    output?: string | undefined
    /**
     * The run failed: commit to this failure (`failureDigest(failure)`)
     * instead of an output. Replicas that agree on a failure are paid the
     * source's failure terms; nobody is slashed for a failure the majority found.
     */
    failure?: Failure | undefined
    /**
     * Auditors of a source with a validator: what the validator said about
     * the provider's result (`validationDigest(validation === 'passed')`);
     * `result` is the CID of the validator's logs.
     */
    validation?: Validation | undefined
    /**
     * 32 secret bytes (default: fresh random ones, returned). To survive a
     * crash between committing and revealing, generate it with
     * `generateSalt()` and store it before calling.
     */
    salt?: Hex | undefined
  }

export type CommitResultReturnType = WriteResult & {
  taskId: bigint
  provider: Address
  slot: number
  /** `keccak256(abi.encode(taskId, provider, digest, salt))`, now on chain. */
  commitment: Hex
  /**
   * The digest committed to: a replica's the seal of its output's digest
   * (`sealResult`), an auditor's the output's digest itself (the market seals
   * it at the reveal); a failure or validation digest as it is.
   */
  digest: Hex
  /** The failure committed to; `undefined` for an output or a validation. */
  failure: Failure | undefined
  /** The salt: keep it (and `result`) to reveal; without it the collateral is lost. */
  salt: Hex
  /** Set when this was the last commitment: reveals are open until then. */
  revealDeadline: Date | undefined
}

export type CommitResultErrorType =
  | InvalidParametersErrorType
  | ContractRevertedErrorType
  | TransactionRevertedErrorType
  | Error

/** A salt: 32 bytes as 0x-prefixed hex. */
export const salt = /* @__PURE__ */ z
  .string()
  .check(z.regex(/^0x[0-9a-fA-F]{64}$/, 'expected 32 bytes as hex: 0x followed by 64 hex digits'))

const schema = /* @__PURE__ */ z
  .object({ taskId: s.taskId, ...reportedResultShape, salt: z.optional(salt) })
  .check(reportedResultCheck)

/**
 * Commits to the result of a consensus task (replicas > 1) without revealing
 * it: sends `keccak256(abi.encode(taskId, provider, digest, salt))`, where a
 * replica's `digest` is the seal of its output's digest
 * (`sealResult({ taskId, digest: resultDigest(output ?? result) })`) and an
 * auditor's (the task is `Auditing`, read here once for an output) the
 * output's digest itself: the market seals what an auditor reveals, so an
 * auditor cannot answer with the seals it sees.
 * When every slot has committed the reveal window opens; then call
 * {@link revealResult} with the same `result` and the returned `salt`.
 * A seat won in the race for the seats takes no commitment before it is
 * final (`claimTask`'s `finalAt`): the market reverts `TaskMarketSeatNotFinal`
 * until then, as a better ticket may still take the seat. Auditors commit
 * once their round's joining has closed.
 * A run that failed commits to its `failure` (with its logs as `result`); an
 * auditor of a validated source commits to its `validation`: reveal them the
 * same way.
 *
 * @example
 * import { commitResult, generateSalt } from '@gridforge/sdk'
 *
 * const salt = generateSalt()
 * await journal.save({ taskId, result, salt }) // before sending: the salt is needed to reveal
 * const { slot, revealDeadline } = await commitResult(providerClient, { deployment, taskId, result, salt })
 *
 * // An auditor of a source with a validator, whose validator rejected the provider's result:
 * await commitResult(auditorClient, { deployment, taskId, result: validatorLogsCid, validation: 'rejected', salt })
 */
export async function commitResult(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: CommitResultParameters,
): Promise<CommitResultReturnType> {
  const { deployment, account } = parameters
  const action = 'commitResult'
  const params = validate(action, schema, parameters)
  const provider = accountAddress(client, action, account)
  const taskId = params.taskId as bigint
  const reported = reportedResult(params)
  const sender = await resultSender(client, { action, deployment, taskId, reported })
  const digest = handedInDigest(reported, taskId, sender)
  const { failure } = reported
  const saltUsed = (params.salt as Hex | undefined) ?? generateSalt()
  const commitment = computeCommitment({ taskId, provider, digest, salt: saltUsed })
  const market = deployment.contracts.market
  const receipt = await writeAndWait(client, {
    action,
    hints: taskMarketHints,
    token: deployment.token ?? gridToken,
    address: market,
    abi: [commitResultFunction, ...taskMarketErrors],
    functionName: 'commitResult',
    args: [taskId, commitment],
    ...writeOptions(parameters),
  })
  const { args } = findEvent(action, receipt, market, ResultCommitted)
  const opened = parseEventLogs({
    abi: [RevealOpened],
    logs: receipt.logs.filter((log) => log.address.toLowerCase() === market.toLowerCase()),
  })[0]
  return {
    taskId: args.taskId,
    provider: args.provider,
    slot: args.slot,
    commitment: args.commitment,
    digest,
    failure,
    salt: saltUsed,
    revealDeadline: opened === undefined ? undefined : new Date(opened.args.revealDeadline * 1000),
    hash: receipt.transactionHash,
    blockNumber: receipt.blockNumber,
  }
}
