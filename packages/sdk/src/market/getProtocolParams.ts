import type { Account, Address, Chain, Client, Transport } from 'viem'
import { multicall } from 'viem/actions'
import { getAction } from 'viem/utils'
import { params, taskCount, treasury } from '../abis/taskMarket.js'
import type { DeploymentParameter } from '../types/deployment.js'

export type GetProtocolParamsParameters = DeploymentParameter & {
  /** Read at this block (default: the latest). */
  blockNumber?: bigint | undefined
}

/** The market's owner-settable parameters (`MarketParams`), with the treasury and the task count. */
export interface ProtocolParams {
  /** Protocol fee on each payment, in basis points (at most 2000). */
  protocolFeeBps: number
  /** Share of the fee paid to stakers, in basis points of the fee (at most 5000). */
  stakerShareBps: number
  /** Collateral per replica as basis points of maxPayment (1000 to 20000). */
  collateralBps: number
  /** Share of slashed collateral paid to the client, in basis points. */
  slashToClientBps: number
  /** Length of the reveal phase of consensus tasks, in seconds (1 minute to 1 day). */
  revealWindow: number
  /** Time allowed past a task's maxRuntimeSec before a claim is a no-show, in seconds (1 minute to 1 day). */
  claimGrace: number
  /** Least collateral per replica, in base units. */
  minCollateral: bigint
  /**
   * Least (and default) probability that a single-replica result of a
   * deterministic source is audited, in basis points (100 to 10000).
   */
  auditBps: number
  /** Time eligible providers have to join an audit round, in seconds (1 minute to 1 day). */
  auditJoinWindow: number
}

export type GetProtocolParamsReturnType = ProtocolParams & {
  /** Where treasury fees and slashes go. */
  treasury: Address
  /** Tasks submitted so far (the highest task id). */
  taskCount: bigint
}

export type GetProtocolParamsErrorType = Error

/**
 * Reads the market's parameters, its treasury and the number of tasks, in one
 * multicall (a deployless one on chains without Multicall3).
 *
 * @example
 * import { getProtocolParams } from '@gridforge/sdk'
 *
 * const { protocolFeeBps, collateralBps, revealWindow, taskCount } = await getProtocolParams(client, { deployment })
 */
export async function getProtocolParams(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  { deployment, blockNumber }: GetProtocolParamsParameters,
): Promise<GetProtocolParamsReturnType> {
  const address = deployment.contracts.market
  const [current, treasuryAddress, count] = await getAction(
    client,
    multicall,
    'multicall',
  )({
    contracts: [
      { address, abi: [params], functionName: 'params' },
      { address, abi: [treasury], functionName: 'treasury' },
      { address, abi: [taskCount], functionName: 'taskCount' },
    ],
    allowFailure: false,
    blockNumber,
    deployless: client.chain?.contracts?.multicall3 === undefined,
  })
  return { ...current, treasury: treasuryAddress, taskCount: count }
}
