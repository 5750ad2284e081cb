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
  auditBps: 1_000,
  auditJoinWindow: 2 * 60,
} as const

/** Default `unbondingPeriod` parameter: 7 days, in seconds. */
export const defaultUnbondingPeriod = 7 * 24 * 60 * 60

/** Default `minProviderStake` parameter: 100 tokens of 18 decimals. */
export const defaultMinProviderStake = 100n * 10n ** 18n

/**
 * Deploys SourceRegistry and TaskMarket around an existing ERC-20 `asset`,
 * owned by `owner` (the deployer; the governed module hands ownership to a
 * TimelockController afterwards), paying protocol fees to `treasury`.
 * TaskMarket's constructor deploys Staking and ProviderRegistry with itself as
 * their immutable market, so there is no wiring step and no owner can ever
 * point them at another market; their addresses are read back from the market.
 *
 * Reads the module parameters `unbondingPeriod`, `minProviderStake` and
 * `marketParams` (defaults above) of the calling module.
 *
 * Shared by the local and the governed module so both deploy the same system.
 */
export function deployCore(
  m: IgnitionModuleBuilder,
  { asset, owner, treasury }: { asset: AddressArgument; owner: AddressArgument; treasury: AddressArgument },
) {
  const sources = m.contract('SourceRegistry', [])
  // Audits run in the market's storage by delegatecall: the market's code alone fills the 24 KiB limit.
  const audits = m.contract('TaskAudits', [])
  const market = m.contract('TaskMarket', [
    asset,
    sources,
    treasury,
    owner,
    m.getParameter('marketParams', defaultMarketParams),
    m.getParameter('unbondingPeriod', defaultUnbondingPeriod),
    m.getParameter('minProviderStake', defaultMinProviderStake),
    audits,
  ])
  const staking = m.contractAt(
    'Staking',
    m.staticCall(market, 'staking', [], 0, { id: 'TaskMarket_staking' }),
  )
  const providers = m.contractAt(
    'ProviderRegistry',
    m.staticCall(market, 'providers', [], 0, { id: 'TaskMarket_providers' }),
  )
  return { sources, audits, staking, providers, market }
}
