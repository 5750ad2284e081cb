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

/**
 * Default lease parameters (ILeaseMarket `LeaseParams`): a renter's software acknowledges service well within
 * `ackGrace`; the provider may end a silent renter's lease after it, the renter may report a provider offline
 * after `offlineAfter` without a proof of service; every one is owner-settable within bounds.
 */
export const defaultLeaseParams = {
  protocolFeeBps: 500,
  ackGrace: 5 * 60,
  offlineAfter: 15 * 60,
  responseWindow: 10 * 60,
  claimWindow: 60 * 60,
  noticePeriod: 60 * 60,
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
 * The lease market is deployed beside it on the same token, staking and
 * registries, and named in Staking (`setLeaseMarket`, once) by `owner`, which
 * must be the deployer at this point (both modules hand ownership over later).
 *
 * Reads the module parameters `unbondingPeriod`, `minProviderStake`,
 * `marketParams` and `leaseParams` (defaults above) of the calling module.
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
  const leases = m.contract('LeaseMarket', [market, owner, m.getParameter('leaseParams', defaultLeaseParams)])
  m.call(staking, 'setLeaseMarket', [leases])
  return { sources, audits, staking, providers, market, leases }
}
