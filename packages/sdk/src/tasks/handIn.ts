import type { Account, Chain, Client, Hex, Transport } from 'viem'
import { getTask as getTaskFunction, TaskMarketUnknownTask } from '../abis/taskMarket.js'
import { taskMarketHints } from '../errors/hints/taskMarket.js'
import { read } from '../internal/write.js'
import type { Deployment } from '../types/deployment.js'
import { taskStatuses } from '../types/task.js'
import type { ReportedResult } from './failures.js'
import { sealResult } from './seal.js'

/**
 * Who hands a result in, as the market tells them apart: a provider (a
 * replica, or the one provider of a single-replica task) hands in the seal of
 * its output's digest; an auditor (the task is `Auditing`: a drawn single
 * result, or a dispute of replicas) the digest it found itself, which the
 * market seals. @internal
 */
export type ResultSender = 'provider' | 'auditor'

/**
 * The digest `sender` hands in for `reported`: an output's seal
 * (`sealResult`) from a provider, the plain digest from an auditor. Failures
 * (their own seal) and validations (auditors only) are handed in as they are. @internal
 */
export function handedInDigest(reported: ReportedResult, taskId: bigint, sender: ResultSender): Hex {
  return reported.isOutput && sender === 'provider'
    ? sealResult({ taskId, digest: reported.digest })
    : reported.digest
}

/**
 * Whether the sender of a commitment or reveal for `taskId` is an auditor:
 * one read of the task's status (`Auditing`). Only an output's digest depends
 * on it, so other results are not read for. The status cannot move between
 * this read and the transaction in a way that changes the answer: a task
 * becomes `Auditing` only with the last replica's reveal (or a release), after
 * which no replica commits or reveals. @internal
 */
export async function resultSender(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  {
    action,
    deployment,
    taskId,
    reported,
  }: { action: string; deployment: Deployment; taskId: bigint; reported: ReportedResult },
): Promise<ResultSender> {
  if (!reported.isOutput) return 'provider'
  const task = await read<{ status: number }>(client, {
    action,
    hints: taskMarketHints,
    token: deployment.token,
    address: deployment.contracts.market,
    abi: [getTaskFunction, TaskMarketUnknownTask],
    functionName: 'getTask',
    args: [taskId],
  })
  return taskStatuses[task.status] === 'Auditing' ? 'auditor' : 'provider'
}
