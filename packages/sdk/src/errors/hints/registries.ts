import type { TokenInfo } from '../../utils/amount.js'
import { amountArg, type RevertHints } from '../contract.js'

/** What to do about each SourceRegistry error. */
export const sourceRegistryHints: RevertHints = {
  SourceRegistryUnknownSource: ([sourceId]) =>
    `source ${sourceId} does not exist: check the id and the deployment`,
  SourceRegistryNotSourceOwner: ([sourceId, caller]) =>
    `${caller} does not own source ${sourceId}: only its owner can do this (see getSource for the owner)`,
  SourceRegistryCreatorFeeTooHigh: ([, max]) => `creatorFeeBps must be at most ${max}`,
  SourceRegistryInvalidMetadataCID: () => 'the metadata CID must be 1 to 128 characters',
  SourceRegistryInvalidRequirements: () => 'maxRuntimeSec must be 1 second to 7 days',
  SourceRegistryZeroImageDigest: () => 'imageDigest must be the sha256 digest of the image manifest',
  SourceRegistryActiveUnchanged: ([sourceId, active]) =>
    `source ${sourceId} is already ${active ? 'active' : 'inactive'}`,
  SourceRegistryZeroAddress: () => 'the new owner must not be the zero address',
  SourceRegistryFailureFeeTooHigh: ([failureFeeBps]) =>
    `failureFeeBps ${failureFeeBps} is more than the whole price: pass 0 to 10000 (basis points of a fixed price paid for a failed run)`,
  SourceRegistryInvalidValidator: ([validator]) =>
    `source ${validator} cannot validate this source: a validator must be a published, deterministic source whose maxRuntimeSec is no longer than this one's (check it with getSource), or 0 for none`,
}

/** What to do about each ProviderRegistry error. */
export const providerRegistryHints: RevertHints = {
  ProviderRegistryInsufficientStake: ([, available, required], { token }) =>
    `available stake ${amountArg(available, token)} < ${amountArg(required, token)} required: stake ${shortfall(available, required, token)} more first`,
  ProviderRegistryAlreadyRegistered: () => 'this account is already registered: use updateCapabilities',
  ProviderRegistryNotRegistered: () => 'this account is not a registered provider: register first',
  ProviderRegistryNotSubscribed: ([, sourceId]) => `subscribe to source ${sourceId} first`,
  ProviderRegistryPaused: () => 'this provider is paused: resume first',
  ProviderRegistryPausedUnchanged: ([, paused]) => `the provider is already ${paused ? 'paused' : 'active'}`,
  ProviderRegistryInsufficientCapabilities: () =>
    "this host's capabilities are below the task's requirements",
  ProviderRegistryReputationTooLow: ([, completed, successBps]) =>
    `this provider (${completed} tasks completed, ${Number(successBps) / 100}% success) is below the task's minCompleted or minSuccessBps`,
  ProviderRegistryInvalidCapabilities: () => 'capabilities need at least one CPU core and some memory',
  ProviderRegistryInvalidProfileCID: () => 'the profile CID must be 1 to 128 characters',
  ProviderRegistryTooManySources: ([count]) => `${count} sources in one call: pass at most 100`,
  ProviderRegistryUnknownSource: ([sourceId]) => `source ${sourceId} does not exist`,
  ProviderRegistryMinStakeOutOfBounds: ([, max], { token }) =>
    `minProviderStake must be at most ${amountArg(max, token)}`,
  ProviderRegistryMinRecordPaymentOutOfBounds: ([, max], { token }) =>
    `minRecordPayment must be at most ${amountArg(max, token)} (the least payment a completion needs to count in a provider's record)`,
  ProviderRegistryNotMarket: () => 'only the TaskMarket can update reputation',
  ProviderRegistryZeroAddress: () => 'an address must not be zero',
  OwnableUnauthorizedAccount: ([account]) =>
    `${account} is not the owner of the contract: send this from the owner (the timelock on governed deployments)`,
  OwnableInvalidOwner: ([owner]) => `${owner} cannot own the contract: pass a non-zero address`,
}

function shortfall(available: unknown, required: unknown, token: TokenInfo): string {
  return typeof available === 'bigint' && typeof required === 'bigint'
    ? amountArg(required - available, token)
    : 'the difference'
}
