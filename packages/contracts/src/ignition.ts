/**
 * `@gridforge/contracts/ignition`: the Ignition modules that deploy Gridforge,
 * for Hardhat 3 projects that deploy it themselves.
 *
 * The modules refer to contracts by name, so the project must build their
 * artifacts: add the package's sources to `solidity.npmFilesToBuild` (see the
 * package README).
 *
 * @example
 * import { localGridforgeModule } from '@gridforge/contracts/ignition'
 * import { network } from 'hardhat'
 *
 * const connection = await network.create()
 * const { market, token } = await connection.ignition.deploy(localGridforgeModule)
 *
 * @packageDocumentation
 */
export {
  type AddressArgument,
  defaultMarketParams,
  defaultMinProviderStake,
  defaultUnbondingPeriod,
  deployCore,
} from '../ignition/modules/core.js'
export { default as gridforgeModule } from '../ignition/modules/Gridforge.js'
export { default as localGridforgeModule, defaultInitialSupply } from '../ignition/modules/LocalGridforge.js'
