import { buildModule } from '@nomicfoundation/ignition-core'
import { deployCore } from './core.js'

/** Default `initialSupply` parameter of the local GridToken: 1 billion GRID. */
export const defaultInitialSupply = 1_000_000_000n * 10n ** 18n

/**
 * The whole system on a local or test network: a fresh GridToken as the asset
 * (the whole supply minted to the deployer), the deployer as owner of every
 * contract (so tests and demos can change parameters directly) and, unless the
 * `treasury` parameter says otherwise, as treasury. Real networks use
 * `Gridforge` (timelock-owned, any ERC-20).
 *
 * Parameters (all optional): `initialSupply`, `treasury`, `unbondingPeriod`,
 * `minProviderStake`, `marketParams`, `leaseParams`.
 *
 * @example
 * // From a Hardhat 3 project with hardhat-ignition-viem:
 * const { market } = await connection.ignition.deploy(LocalGridforge, {
 *   parameters: { LocalGridforge: { treasury: '0x…' } },
 * })
 */
const LocalGridforge = buildModule('LocalGridforge', (m) => {
  const deployer = m.getAccount(0)
  const token = m.contract('GridToken', [deployer, m.getParameter('initialSupply', defaultInitialSupply)])
  const { sources, staking, providers, market, leases } = deployCore(m, {
    asset: token,
    owner: deployer,
    treasury: m.getParameter('treasury', deployer),
  })
  return { token, sources, staking, providers, market, leases }
})

export default LocalGridforge
