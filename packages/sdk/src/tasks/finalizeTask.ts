import { type Account, type Chain, type Client, parseEventLogs, type Transport } from 'viem'
import { errors as providerRegistryErrors } from '../abis/providerRegistry.js'
import { errors as stakingErrors } from '../abis/staking.js'
import {
  finalizeTask as finalizeTaskFunction,
  ProviderSlashed,
  RevealOpened,
  errors as taskMarketErrors,
} from '../abis/taskMarket.js'
import type { ContractRevertedErrorType } from '../errors/contract.js'
import { providerRegistryHints } from '../errors/hints/registries.js'
import { stakingHints } from '../errors/hints/staking.js'
import { taskMarketHints } from '../errors/hints/taskMarket.js'
import type { TransactionRevertedErrorType } from '../errors/transaction.js'
import type { InvalidParametersErrorType } from '../errors/validation.js'
import type { WriteOptions, WriteResult } from '../internal/write.js'
import type { DeploymentParameter } from '../types/deployment.js'
import type { AuditRound, ProviderSlash, TaskSettlement } from '../types/settlement.js'
import { findAuditRound, findSettlement } from './settlement.js'
import { sendTaskCall } from './settleTask.js'

export type FinalizeTaskParameters = DeploymentParameter &
  WriteOptions & {
    /** A consensus task whose reveal window has closed, or an audit whose round's time is over. */
    taskId: number | bigint
  }

/** The task settled: a consensus task, or an audit that reached its verdict. */
export type FinalizeTaskSettledReturnType = WriteResult & TaskSettlement & { settled: true }

/** An audit round moved on, or a dispute opened, without settling the task. */
export type FinalizeTaskAdvancedReturnType = WriteResult & {
  settled: false
  taskId: bigint
  /**
   * Auditors slashed for a missed commitment or reveal, or a disputed task's
   * replicas that did not reveal (their collateral pays the auditors).
   */
  slashes: ProviderSlash[]
  /** The round's reveal opened (someone committed): auditors that committed reveal until then. */
  revealDeadline: Date | undefined
  /**
   * The round closed without a verdict: the next round, which auditors join
   * until `joinDeadline`. Or the replicas' revealed results differ: the
   * dispute's first round.
   */
  nextRound: AuditRound | undefined
}

export type FinalizeTaskReturnType = FinalizeTaskSettledReturnType | FinalizeTaskAdvancedReturnType

export type FinalizeTaskErrorType =
  | InvalidParametersErrorType
  | ContractRevertedErrorType
  | TransactionRevertedErrorType
  | Error

/**
 * Settles a consensus task (replicas > 1) whose reveal window closed before
 * every claimant revealed. Anyone may call it. Those that did not reveal are
 * slashed. When the revealed results agree, a strict majority (at least two)
 * is paid; otherwise, when they differ, the task is disputed instead
 * (`settled: false`, `nextRound`: auditors re-run it, see `revealResult`),
 * and with 7 replicas the strict majority is paid, the outvoted slashed, and
 * without one the task fails and the client is refunded.
 *
 * On a task under audit it moves a round whose joining, commitment or reveal
 * time is over: auditors that missed their commitment or reveal are slashed,
 * then the reveal opens or the round closes, which settles the task (a
 * verdict) or opens the next round. `settled` says which.
 *
 * @example
 * import { finalizeTask } from '@gridforge/sdk'
 *
 * const finalized = await finalizeTask(client, { deployment, taskId: 12n })
 * if (finalized.settled) console.log(finalized.status, finalized.payments, finalized.refund) // 'Completed' | 'Failed'
 * else console.log('audit moved on', finalized.revealDeadline ?? finalized.nextRound)
 */
export async function finalizeTask(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: FinalizeTaskParameters,
): Promise<FinalizeTaskReturnType> {
  const { taskId, receipt } = await sendTaskCall(client, parameters, {
    action: 'finalizeTask',
    functionName: 'finalizeTask',
    abi: [finalizeTaskFunction, ...taskMarketErrors, ...stakingErrors, ...providerRegistryErrors],
    hints: { ...providerRegistryHints, ...stakingHints, ...taskMarketHints },
  })
  const market = parameters.deployment.contracts.market
  const written = { hash: receipt.transactionHash, blockNumber: receipt.blockNumber }
  const settlement = findSettlement(receipt, market, taskId)
  if (settlement !== undefined) return { ...settlement, settled: true, ...written }

  const logs = parseEventLogs({
    abi: [ProviderSlashed, RevealOpened],
    logs: receipt.logs.filter((log) => log.address.toLowerCase() === market.toLowerCase()),
  }).filter((log) => log.args.taskId === taskId)
  const slashes: ProviderSlash[] = []
  let revealDeadline: Date | undefined
  for (const log of logs) {
    if (log.eventName === 'ProviderSlashed') {
      const { slot, provider, amount, toClient, outvoted } = log.args
      slashes.push({ slot, provider, amount, toClient, outvoted })
    } else {
      revealDeadline = new Date(log.args.revealDeadline * 1000)
    }
  }
  const nextRound = findAuditRound(receipt, market, taskId)
  return { settled: false, taskId, slashes, revealDeadline, nextRound, ...written }
}
