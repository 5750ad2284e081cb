import { type Deployment, getWalletBalance, withdraw } from '@gridforge/sdk'
import type { Account, Chain, Client, Transport } from 'viem'
import type { Logger } from '../logger.js'
import type { WithdrawSchedule } from './AgentOptions.js'
import { messageOf } from './errorKind.js'

export interface WithdrawEarningsParameters {
  client: Client<Transport, Chain, Account>
  deployment: Deployment
  schedule: WithdrawSchedule
  transact: <T>(send: () => Promise<T>) => Promise<T>
  logger: Logger
}

/**
 * Every `schedule.every` ms, moves the provider's market balance to its wallet
 * when it is at least `schedule.minimum`. Returns the function that stops it.
 */
export function withdrawEarnings(parameters: WithdrawEarningsParameters): () => void {
  const { client, deployment, schedule, transact, logger } = parameters
  const minimum = schedule.minimum ?? 1n
  const tick = async () => {
    try {
      const { balance } = await getWalletBalance(client, { deployment, account: client.account.address })
      if (balance <= 0n || balance < minimum) return
      const { amount, hash } = await transact(() => withdraw(client, { deployment, amount: balance }))
      logger.info('withdrew earnings', { amount, hash })
    } catch (error) {
      logger.warn('withdrawing earnings failed', { error: messageOf(error) })
    }
  }
  const timer = setInterval(() => void tick(), schedule.every)
  return () => clearInterval(timer)
}
