import { type Deployment, getPriceFloor, getProvider, setPriceFloor } from '@gridforge/sdk'
import type { Account, Chain, Client, Transport } from 'viem'
import type { Logger } from '../logger.js'
import { messageOf } from './errorKind.js'

export interface PublishPriceFloorParameters {
  client: Client<Transport, Chain, Account>
  deployment: Deployment
  /** The policy's `minPricePerGpuSecond`, in base units. */
  floor: bigint
  transact: <T>(send: () => Promise<T>) => Promise<T>
  logger: Logger
}

/**
 * Publishes the policy's price floor on chain (`setPriceFloor`) when the
 * registry holds another value, so that clients' quotes (`quoteTask`) see
 * what this agent would refuse: one transaction when the policy changed,
 * none on an ordinary restart. Quotes are advisory, so a failure here is
 * logged and the agent runs on: its policy still decides what it claims.
 * An unregistered account cannot publish (it cannot claim either): it is
 * told to register.
 */
export async function publishPriceFloor(parameters: PublishPriceFloorParameters): Promise<void> {
  const { client, deployment, floor, transact, logger } = parameters
  try {
    const [{ registered }, published] = await Promise.all([
      getProvider(client, { deployment }),
      getPriceFloor(client, { deployment }),
    ])
    if (!registered) {
      logger.warn('price floor not published: this account is not a registered provider', {
        hint: 'register it first (gridforge-provider register)',
      })
      return
    }
    if (published === floor) return
    const { hash } = await transact(() => setPriceFloor(client, { deployment, minPricePerGpuSecond: floor }))
    logger.info('published price floor', { minPricePerGpuSecond: floor, previous: published, hash })
  } catch (error) {
    logger.warn('publishing the price floor failed; quotes show the old one', { error: messageOf(error) })
  }
}
