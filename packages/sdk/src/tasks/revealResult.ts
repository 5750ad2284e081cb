import type { Account, Address, Chain, Client, Hex, Transport } from 'viem'
import * as z from 'zod/mini'
import { errors as providerRegistryErrors } from '../abis/providerRegistry.js'
import { errors as stakingErrors } from '../abis/staking.js'
import {
  ResultRevealed,
  revealResult as revealResultFunction,
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
import type { AuditRound, TaskSettlement } from '../types/settlement.js'
import { gridToken } from '../utils/amount.js'
import { salt } from './commitResult.js'
import {
  type Failure,
  parseFailure,
  reportedResult,
  reportedResultCheck,
  reportedResultShape,
  type Validation,
} from './failures.js'
import { handedInDigest, resultSender } from './handIn.js'
import { findAuditRound, findSettlement } from './settlement.js'

export type RevealResultParameters = DeploymentParameter &
  WriteOptions & {
    /** A consensus task in its reveal phase that the sender committed to. */
    taskId: number | bigint
    /**
     * The result CID committed to: the output's, or its sealed envelope's
     * (with `failure` or `validation`: the logs CID committed with it).
     */
    result: string
    /** The plain output's CID when `result` is its sealed envelope (`commitResult`'s `output`). */
    output?: string | undefined
    /** The failure committed to (`commitResult`'s `failure`), if the run failed. */
    failure?: Failure | undefined
    /** The validation committed to (`commitResult`'s `validation`), for an auditor of a validated source. */
    validation?: Validation | undefined
    /** CID of the signed receipt document. */
    receipt: string
    /** The salt `commitResult` used (and returned). */
    salt: Hex
    /** Seconds the task ran; the market caps it at the time from the claim to the commitment. */
    runtimeSec: number
  }

export type RevealResultReturnType = WriteResult & {
  taskId: bigint
  provider: Address
  slot: number
  /**
   * The revealed result's seal, as the chain has it: what a replica
   * revealed, or the market's seal of the digest an auditor revealed
   * (`sealResult`); a failure digest is its own seal.
   */
  digest: Hex
  /** The failure revealed; `undefined` for an output or a validation. */
  failure: Failure | undefined
  result: string
  receipt: string
  /** The runtime counted, after the cap. */
  runtimeSec: number
  /**
   * How the task settled, when this was the last reveal and it settled;
   * `undefined` while others are still to reveal, or when it opened a round
   * of auditors (`nextRound`).
   */
  settlement: TaskSettlement | undefined
  /**
   * The audit round this reveal opened instead of settling: the last
   * replica's reveal found results that differ, so the task is disputed
   * (`Auditing`; round 1, one auditor from slot `replicas`), or the last
   * auditor's reveal closed its round without a verdict (the next round);
   * `undefined` otherwise.
   */
  nextRound: AuditRound | undefined
}

export type RevealResultErrorType =
  | InvalidParametersErrorType
  | ContractRevertedErrorType
  | TransactionRevertedErrorType
  | Error

const schema = /* @__PURE__ */ z
  .object({
    taskId: s.taskId,
    ...reportedResultShape,
    receipt: s.cid,
    salt,
    runtimeSec: s.uint(32),
  })
  .check(reportedResultCheck)

/**
 * Reveals a committed consensus result during the reveal window. The market
 * checks it against the commitment; the last reveal settles the task when
 * the replicas agree (they are paid). When their results differ the task is
 * disputed instead (`Auditing`, `nextRound`): auditors drawn by stake re-run
 * it, and the replicas whose result the auditors do not confirm are slashed
 * (with 7 replicas there is no room for auditors: a strict majority is paid,
 * the outvoted are slashed, and with no majority the client is refunded).
 * Auditors reveal the same way; the last reveal of a round settles the audit
 * (`settlement.audit`) or opens its next round. Pass the same `output`,
 * `failure` or `validation` as to `commitResult`: the digest revealed is
 * computed from it the same way (a replica reveals its output's seal, an
 * auditor of an `Auditing` task the digest itself, which the market seals).
 *
 * @example
 * import { revealResult } from '@gridforge/sdk'
 *
 * const { settlement, nextRound } = await revealResult(providerClient, {
 *   deployment,
 *   taskId,
 *   result, // the CID given to commitResult
 *   receipt: receiptCid,
 *   salt, // the salt commitResult returned
 *   runtimeSec: 42,
 * })
 * if (settlement) console.log(settlement.status) // 'Completed' | 'Failed'
 * else if (nextRound) console.log(`results differ: auditors join until ${nextRound.joinDeadline}`)
 */
export async function revealResult(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: RevealResultParameters,
): Promise<RevealResultReturnType> {
  const { deployment } = parameters
  const action = 'revealResult'
  const params = validate(action, schema, parameters)
  const taskId = params.taskId as bigint
  const reported = reportedResult(params)
  const sender = await resultSender(client, { action, deployment, taskId, reported })
  const digest = handedInDigest(reported, taskId, sender)
  const market = deployment.contracts.market
  const receipt = await writeAndWait(client, {
    action,
    hints: { ...providerRegistryHints, ...stakingHints, ...taskMarketHints },
    token: deployment.token ?? gridToken,
    address: market,
    abi: [revealResultFunction, ...taskMarketErrors, ...stakingErrors, ...providerRegistryErrors],
    functionName: 'revealResult',
    args: [taskId, digest, params.salt, params.result, params.receipt, params.runtimeSec],
    ...writeOptions(parameters),
  })
  const { args } = findEvent(action, receipt, market, ResultRevealed)
  return {
    taskId: args.taskId,
    provider: args.provider,
    slot: args.slot,
    digest: args.resultDigest,
    failure: parseFailure(args.resultDigest),
    result: args.resultCID,
    receipt: args.receiptCID,
    runtimeSec: args.runtimeSec,
    settlement: findSettlement(receipt, market, taskId),
    nextRound: findAuditRound(receipt, market, taskId),
    hash: receipt.transactionHash,
    blockNumber: receipt.blockNumber,
  }
}
