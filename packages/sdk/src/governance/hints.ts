import type { RevertHints } from '../errors/contract.js'

/** What to do about the `Ownable` errors of `transferOwnership` and `renounceOwnership`. */
export const ownableHints: RevertHints = {
  OwnableUnauthorizedAccount: ([account]) =>
    `${account} is not the owner of this contract: send it from the owner (see getOwnership; in real deployments, a timelock proposal)`,
  OwnableInvalidOwner: ([owner]) => `${owner} cannot own the contract: pass a non-zero address`,
}

/** What to do about the `Ownable` errors of `acceptOwnership`, which only the pending owner may call. */
export const acceptOwnershipHints: RevertHints = {
  ...ownableHints,
  OwnableUnauthorizedAccount: ([account]) =>
    `${account} is not the pending owner of this contract: the owner must call transferOwnership to it first, and only that account can accept (see getOwnership)`,
}
