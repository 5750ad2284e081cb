import type { GridforgeDeployment } from '@gridforge/contracts'
import type { TokenInfo } from '../utils/amount.js'

/**
 * Where Gridforge lives on a chain: the contract addresses, the block to start
 * reading events from, and the token (GRID with 18 decimals when omitted).
 * Every deployment of `@gridforge/contracts` is one; so is your own.
 */
export type Deployment = Pick<GridforgeDeployment, 'contracts' | 'blockNumber'> & {
  chainId?: number | undefined
  token?: TokenInfo | undefined
}

/** Every action takes the deployment it talks to (the decorator fills it in). */
export interface DeploymentParameter {
  deployment: Deployment
}
