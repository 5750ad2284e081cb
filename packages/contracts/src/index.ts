/**
 * `@gridforge/contracts`: the `as const` ABIs of the Gridforge contracts and
 * the addresses of every known deployment, typed so that viem and wagmi infer
 * function arguments, return values and event arguments.
 *
 * @example
 * import { getDeployment, taskMarketAbi } from '@gridforge/contracts'
 * import { createPublicClient, http } from 'viem'
 * import { hardhat } from 'viem/chains'
 *
 * const client = createPublicClient({ chain: hardhat, transport: http() })
 * const { contracts } = getDeployment(hardhat.id)
 * const taskCount = await client.readContract({
 *   address: contracts.market,
 *   abi: taskMarketAbi,
 *   functionName: 'taskCount',
 * }) // bigint
 *
 * @packageDocumentation
 */
import { deployments } from './generated/deployments.js'

export {
  gridTokenAbi,
  leaseMarketAbi,
  providerRegistryAbi,
  sourceRegistryAbi,
  stakingAbi,
  taskMarketAbi,
  timelockControllerAbi,
} from './generated/abis.js'

/** A `0x`-prefixed, checksummed address (the same as viem's `Address`). */
export type Address = `0x${string}`

/** The contracts of a Gridforge deployment, by role. */
export interface GridforgeContracts {
  /** The ERC-20 used for payments and stake (GridToken on local and test networks). */
  token: Address
  /** SourceRegistry. */
  sources: Address
  /** Staking. */
  staking: Address
  /** ProviderRegistry. */
  providers: Address
  /** TaskMarket. */
  market: Address
  /** LeaseMarket: GPU servers rented by the second, on the same token, staking and registries. */
  leases: Address
  /** TimelockController owning every contract; absent where the deployer owns them (local deployments). */
  timelock?: Address
}

/** A role in a Gridforge deployment: a key of {@link GridforgeContracts}. */
export type ContractName = keyof GridforgeContracts

/** One Gridforge deployment, as recorded in `deployments/<chainId>.json`. */
export interface GridforgeDeployment {
  chainId: number
  /** The Ignition module deployed: `LocalGridforge` (deployer-owned) or `Gridforge` (timelock-owned). */
  module: string
  /** A block at or before the first deployment transaction: where to start reading events. */
  blockNumber: number
  contracts: GridforgeContracts
}

/** Chain ids that have a deployment in this version of the package. */
export type DeployedChainId = keyof typeof deployments

/** The same object, widened: assigning it checks every generated deployment has the documented shape. */
const deploymentsByChainId: Readonly<Record<number, GridforgeDeployment | undefined>> = deployments

export { deployments }

/** Thrown by {@link getDeployment} for a chain without a deployment. */
export class DeploymentNotFoundError extends Error {
  override name = 'DeploymentNotFoundError' as const
  /** The chain that was asked for. */
  readonly chainId: number
  /** The chains that have a deployment. */
  readonly knownChainIds: readonly number[]

  constructor(chainId: number) {
    const knownChainIds = Object.keys(deploymentsByChainId).map(Number)
    super(
      `No Gridforge deployment on chain ${chainId}. Known chains: ${knownChainIds.join(', ') || 'none'}. ` +
        'Deploy with `pnpm --filter @gridforge/contracts run deploy --network <name>`, or pass your own addresses.',
    )
    this.chainId = chainId
    this.knownChainIds = knownChainIds
  }
}

/** Every error {@link getDeployment} throws. */
export type GetDeploymentErrorType = DeploymentNotFoundError

/**
 * Returns the deployment on `chainId`; typed with its literal addresses for
 * chains deployed in this version of the package.
 *
 * @throws {DeploymentNotFoundError} when the package has no deployment on `chainId`.
 *
 * @example
 * import { getDeployment } from '@gridforge/contracts'
 *
 * const { contracts, blockNumber } = getDeployment(31337)
 * contracts.market // '0x…'
 */
export function getDeployment<chainId extends DeployedChainId>(
  chainId: chainId,
): (typeof deployments)[chainId]
export function getDeployment(chainId: number): GridforgeDeployment
export function getDeployment(chainId: number): GridforgeDeployment {
  const deployment = deploymentsByChainId[chainId]
  if (deployment === undefined) throw new DeploymentNotFoundError(chainId)
  return deployment
}
