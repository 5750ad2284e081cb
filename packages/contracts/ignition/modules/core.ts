import type {
  AccountRuntimeValue,
  AddressResolvableFuture,
  IgnitionModuleBuilder,
  ModuleParameterRuntimeValue,
} from '@nomicfoundation/ignition-core'

/**
 * Anything Ignition accepts where a contract expects an `address`: a literal,
 * an account (`m.getAccount(0)`), a module parameter or a contract future.
 */
export type AddressArgument =
  | string
  | AccountRuntimeValue
  | ModuleParameterRuntimeValue<string | AccountRuntimeValue>
  | AddressResolvableFuture

/** DESIGN.md §2.3 defaults; every one is owner-settable within bounds after deployment. */
export const defaultMarketParams = {
  protocolFeeBps: 500,
  stakerShareBps: 1_200,
  collateralBps: 5_000,
  slashToClientBps: 5_000,
  revealWindow: 10 * 60,
  claimGrace: 5 * 60,
  minCollateral: 0n,
} as const

/** Default `unbondingPeriod` parameter: 7 days, in seconds. */
export const defaultUnbondingPeriod = 7 * 24 * 60 * 60

/** Default `minProviderStake` parameter: 100 tokens of 18 decimals. */
export const defaultMinProviderStake = 100n * 10n ** 18n

/**
 * Deploys and wires SourceRegistry, Staking, ProviderRegistry and TaskMarket
 * around an existing ERC-20 `asset`, owned by `owner` (the deployer; the
 * governed module hands ownership to a TimelockController afterwards), paying
 * protocol fees to `treasury`.
 *
 * Reads the module parameters `unbondingPeriod`, `minProviderStake` and
 * `marketParams` (defaults above) of the calling module.
 *
 * Shared by the local and the governed module so both deploy the same system.
 * `wired` holds the two `setMarket` calls: anything that changes ownership
 * must come after them (`setMarket` is owner-only).
 */
export function deployCore(
  m: IgnitionModuleBuilder,
  { asset, owner, treasury }: { asset: AddressArgument; owner: AddressArgument; treasury: AddressArgument },
) {
  const sources = m.contract('SourceRegistry', [])
  const staking = m.contract('Staking', [
    asset,
    owner,
    m.getParameter('unbondingPeriod', defaultUnbondingPeriod),
  ])
  const providers = m.contract('ProviderRegistry', [
    sources,
    staking,
    owner,
    m.getParameter('minProviderStake', defaultMinProviderStake),
  ])
  const market = m.contract('TaskMarket', [
    asset,
    sources,
    providers,
    staking,
    treasury,
    owner,
    m.getParameter('marketParams', defaultMarketParams),
  ])
  // The market address is fixed once: no later owner can swap in a market that drains stake.
  const stakingWired = m.call(staking, 'setMarket', [market], { id: 'Staking_setMarket' })
  const providersWired = m.call(providers, 'setMarket', [market], { id: 'ProviderRegistry_setMarket' })
  return { sources, staking, providers, market, wired: [stakingWired, providersWired] }
}
