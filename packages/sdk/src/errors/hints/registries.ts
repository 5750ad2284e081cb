import { amountArg, type RevertHints } from '../contract.js'

/** What to do about each SourceRegistry error. */
export const sourceRegistryHints: RevertHints = {
  SourceRegistryUnknownSource: ([sourceId]) =>
    `source ${sourceId} does not exist: check the id and the deployment`,
  SourceRegistryNotSourceOwner: ([sourceId]) => `only the owner of source ${sourceId} can do this`,
  SourceRegistryCreatorFeeTooHigh: ([, max]) => `creatorFeeBps must be at most ${max}`,
  SourceRegistryInvalidMetadataCID: () => 'the metadata CID must be 1 to 128 characters',
  SourceRegistryInvalidRequirements: () => 'maxRuntimeSec must be 1 second to 7 days',
  SourceRegistryZeroImageDigest: () => 'imageDigest must be the sha256 digest of the image manifest',
  SourceRegistryActiveUnchanged: ([sourceId, active]) =>
    `source ${sourceId} is already ${active ? 'active' : 'inactive'}`,
  SourceRegistryZeroAddress: () => 'the new owner must not be the zero address',
}

/** What to do about each ProviderRegistry error. */
export const providerRegistryHints: RevertHints = {
  ProviderRegistryInsufficientStake: ([, available, required], { token }) =>
    `available stake ${amountArg(available, token)} < ${amountArg(required, token)} required: stake more first`,
  ProviderRegistryAlreadyRegistered: () => 'this account is already registered: use updateCapabilities',
  ProviderRegistryNotRegistered: () => 'this account is not a registered provider: register first',
  ProviderRegistryNotSubscribed: ([, sourceId]) => `subscribe to source ${sourceId} first`,
  ProviderRegistryPaused: () => 'this provider is paused: resume first',
  ProviderRegistryPausedUnchanged: ([, paused]) => `the provider is already ${paused ? 'paused' : 'active'}`,
  ProviderRegistryInsufficientCapabilities: () =>
    "this host's capabilities are below the task's requirements",
  ProviderRegistryReputationTooLow: () => "this provider's reputation is below the task's gates",
  ProviderRegistryInvalidCapabilities: () => 'capabilities need at least one CPU core and some memory',
  ProviderRegistryInvalidProfileCID: () => 'the profile CID must be 1 to 128 characters',
  ProviderRegistryTooManySources: ([count]) => `${count} sources in one call: pass at most 100`,
  ProviderRegistryUnknownSource: ([sourceId]) => `source ${sourceId} does not exist`,
}
