import { leaseEndReasons, leaseStatuses } from '../../types/lease.js'
import { formatDuration } from '../../utils/duration.js'
import { amountArg, type RevertHints } from '../contract.js'
import { leaseRequestHints } from './leaseRequest.js'

const time = (seconds: unknown) => new Date(Number(seconds) * 1000).toISOString()
const statusName = (value: unknown) => leaseStatuses[Number(value)] ?? `status ${value}`
const reasonName = (value: unknown) => leaseEndReasons[Number(value)] ?? `reason ${value}`

/** What can still happen to a lease in each status (for LeaseMarketWrongStatus). */
const statusNext: Record<string, string> = {
  None: 'no such lease: check the lease id and the deployment',
  Requested: 'it waits for a provider to accept it (the renter may close it to cancel)',
  Active: 'it was accepted: top up, extend, close or redeem acknowledgements',
  Settled: 'it is settled and final: read why with getLease',
}

/** The bounds `setParams` checks, by parameter name (LeaseMarketParamOutOfBounds names the parameter). */
export const leaseParamBounds = {
  protocolFeeBps: 'at most 2000 (20%)',
  ackGrace: '1 minute to 1 hour',
  offlineAfter: 'more than ackGrace + 1 minute, at most 1 day',
  responseWindow: '1 minute to 1 day',
  claimWindow: '1 minute to 7 days',
  noticePeriod: '1 minute to 7 days',
} as const

/** What to do about each LeaseMarket error (and the Ownable and token errors it can pass on). */
// The request's own hints live with requestLease's bundle; these two are LeaseMarket's.
const { LeaseMarketDepositTooSmall, LeaseMarketSourceInactive } = leaseRequestHints

export const leaseMarketHints: RevertHints = {
  LeaseMarketDepositTooSmall: LeaseMarketDepositTooSmall,
  LeaseMarketSourceInactive: LeaseMarketSourceInactive,
  LeaseMarketZeroAddress: () => 'an address must not be the zero address',
  LeaseMarketUnknownLease: ([leaseId]) =>
    `lease ${leaseId} does not exist: check the lease id and that the deployment is the one it was requested on`,
  LeaseMarketWrongStatus: ([leaseId, status]) =>
    `lease ${leaseId} is ${statusName(status)}: ${statusNext[statusName(status)] ?? 'read it with getLease'}`,
  LeaseMarketNotRenter: ([leaseId, caller]) =>
    `${caller} is not the renter of lease ${leaseId}: send this from the account that requested it`,
  LeaseMarketNotProvider: ([leaseId, caller]) =>
    `${caller} is not the provider of lease ${leaseId}: send this from the account that accepted it`,
  LeaseMarketZeroAmount: () => 'the amount must be greater than zero',
  LeaseMarketZeroPrice: () => 'the price per second must be greater than zero',
  LeaseMarketDurationOutOfBounds: ([duration, max]) =>
    `a lease of ${formatDuration(Number(duration))} (extensions included) is out of bounds: ask for 1s to ${formatDuration(Number(max))}`,
  LeaseMarketPenaltyTooLarge: ([penaltySec, max]) =>
    `a penalty of ${formatDuration(Number(penaltySec))} of the price is too large: ask for at most ${formatDuration(Number(max))}`,
  LeaseMarketUptimeOutOfBounds: ([minUptimeBps]) =>
    `minUptimeBps ${minUptimeBps} is out of bounds: pass 0 (no threshold) to 10000 (100%)`,
  LeaseMarketAcceptByOutOfBounds: ([acceptBy, latest]) =>
    `acceptBy ${time(acceptBy)} must be in the future and no later than ${time(latest)} (the chain's clock counts)`,
  LeaseMarketRequestExpired: ([leaseId, acceptBy]) =>
    `nobody accepted lease ${leaseId} before ${time(acceptBy)}: settle it (settleLease) to refund the deposit, and request again`,
  LeaseMarketPriceAboveMax: ([pricePerSec, maxPricePerSec], { token }) =>
    `a price of ${amountArg(pricePerSec, token)}/s is above the renter's maximum of ${amountArg(maxPricePerSec, token)}/s: accept at the maximum or lower`,
  LeaseMarketNotEligible: ([provider, sourceId, reason]) =>
    `${provider} may not serve source ${sourceId}: ${reason} (register, resume, subscribe to the source, meet its requirements and hold the minimum provider stake)`,
  LeaseMarketRenterCannotAccept: ([leaseId]) =>
    `the renter of lease ${leaseId} cannot accept its own lease: accept it from a provider account`,
  LeaseMarketEnded: ([leaseId, endedAt]) =>
    `lease ${leaseId} ended at ${time(endedAt)}: it can no longer be changed; request a new lease (its provider redeems and settles this one)`,
  LeaseMarketNotEnded: ([leaseId, endsAt]) =>
    `lease ${leaseId} runs until ${time(endsAt)}: settle it after that (the renter may close it now)`,
  LeaseMarketEndFixed: ([leaseId, reason]) =>
    `the end of lease ${leaseId} is already fixed (${reasonName(reason)}): read when with getLeaseEnd`,
  LeaseMarketBadSignature: ([leaseId, expectedSigner]) =>
    `the acknowledgement of lease ${leaseId} is not signed by its ack signer ${expectedSigner}: sign it with that key (signUsage) over this lease market and chain`,
  LeaseMarketBadUsage: ([leaseId, servedSec, at]) =>
    `the acknowledgement of lease ${leaseId} (${servedSec}s served by ${time(at)}) is not acceptable: it must be newer than the last one redeemed, not in the future, no earlier than the start, and claim no more seconds than have passed or than the lease has left`,
  LeaseMarketReportPending: ([leaseId, reportedAt]) =>
    `lease ${leaseId} was reported offline at ${time(reportedAt)} and the report is open: the provider answers it by redeeming a recent acknowledgement, or it resolves after the response window`,
  LeaseMarketNoReport: ([leaseId]) => `lease ${leaseId} has no offline report pending`,
  LeaseMarketServiceRecent: ([leaseId, lastProofAt, reportableAt]) =>
    `lease ${leaseId} showed service at ${time(lastProofAt)}: report it offline from ${time(reportableAt)} if it still does not serve`,
  LeaseMarketAnswerWindowOpen: ([leaseId, answerBy]) =>
    `the provider of lease ${leaseId} may answer the offline report until ${time(answerBy)}: settle it after that`,
  LeaseMarketAckNotLapsed: ([leaseId, at, endableAt]) =>
    `the last acknowledgement of lease ${leaseId} (at ${time(at)}) is within the grace period: end it for silence from ${time(endableAt)}`,
  LeaseMarketClaimWindowOpen: ([leaseId, settleableAt]) =>
    `the provider of lease ${leaseId} may still redeem its last acknowledgement: anyone may settle it from ${time(settleableAt)} (the provider at once)`,
  LeaseMarketInsufficientBalance: ([, balance, needed], { token }) =>
    `lease market balance ${amountArg(balance, token)} < ${amountArg(needed, token)} needed: withdraw at most the balance`,
  LeaseMarketParamOutOfBounds: ([name, value]) =>
    `${name} = ${value} is out of bounds: it must be ${leaseParamBounds[name as keyof typeof leaseParamBounds] ?? 'within its documented bounds'}`,
  LeaseMarketTooManyParamVersions: () =>
    'the lease market has used all 65535 parameter versions: deploy a new lease market to change parameters',
  InvalidShortString: () => 'the EIP-712 domain name is not a short string: a deployment problem, not yours',
  StringTooLong: () => 'the EIP-712 domain name is too long: a deployment problem, not yours',
  ReentrancyGuardReentrantCall: () =>
    'the lease market was re-entered during a transfer: the token misbehaves; use the deployment token',
  SafeERC20FailedOperation: ([token]) =>
    `the token ${token} refused the transfer: check the balance and the allowance (approve the lease market, or use the permit variant)`,
  OwnableUnauthorizedAccount: ([account]) =>
    `${account} is not the owner of the lease market: send this from the owner (the timelock on governed deployments)`,
  OwnableInvalidOwner: ([owner]) => `${owner} cannot own the lease market: pass a non-zero address`,
}
