// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Permit} from "./ITaskMarket.sol";

/// @notice Where a lease is in its life. `Active` covers a lease whose end time has passed but that is not settled
/// yet: `leaseEnd` says when it ended and why.
enum LeaseStatus {
    None,
    Requested,
    Active,
    Settled
}

/// @notice Why a lease ended. Every settled lease has one.
enum EndReason {
    None,
    /// @notice The renter withdrew the request before any provider accepted it.
    Cancelled,
    /// @notice Nobody accepted the request before its `acceptBy`.
    NotAccepted,
    /// @notice The renter closed the lease.
    ClosedByRenter,
    /// @notice The deposit ran out (the renter had until then to top up).
    OutOfDeposit,
    /// @notice The provider gave notice and the notice ran out.
    ProviderNotice,
    /// @notice The renter reported the provider offline and the provider could not show service since.
    ProviderOffline,
    /// @notice The lease ran its whole duration.
    Expired,
    /// @notice The provider ended it because the renter stopped acknowledging service.
    RenterSilent
}

/// @notice What a renter asks for.
struct LeaseRequest {
    /// @notice The interactive source to run (its requirements are the lease's).
    uint32 sourceId;
    /// @notice The most the renter pays per second of service; the provider accepts at this price or lower.
    uint80 maxPricePerSec;
    /// @notice Length of the lease from its acceptance, in seconds (≤ MAX_DURATION); the renter can extend it.
    uint40 duration;
    /// @notice Escrowed now; the lease ends when it runs out. Top up to run longer.
    uint96 deposit;
    /// @notice The penalty the provider's collateral pays if it goes offline or misses the uptime threshold, in
    /// seconds of the accepted price (≤ MAX_PENALTY_SEC). The provider locks this much when it accepts.
    uint24 penaltySec;
    /// @notice The uptime threshold of the referee rule, in basis points (≤ 10000; 0: no threshold).
    uint16 minUptimeBps;
    /// @notice Signs usage acknowledgements for the renter (a session key of the renter's software), with ECDSA:
    /// a contract cannot sign them (ERC-1271 is not accepted). The zero address means the renter's own key.
    address ackSigner;
    /// @notice A provider must accept before this time.
    uint40 acceptBy;
}

/// @notice Owner-settable lease parameters, each bounded. A lease keeps those in force when it was requested.
struct LeaseParams {
    /// @notice Protocol fee on each payment (≤ 2000).
    uint16 protocolFeeBps;
    /// @notice How long a renter's acknowledgements may lapse before the provider may end the lease for silence
    /// (1 min..1 h). Also the measurement tolerance of the uptime rule (twice this).
    uint32 ackGrace;
    /// @notice How long without a proof of service the renter may report the provider offline
    /// (> ackGrace + 1 min, ≤ 1 day).
    uint32 offlineAfter;
    /// @notice Time the provider has to answer an offline report with a recent acknowledgement (1 min..1 day).
    uint32 responseWindow;
    /// @notice Time after a lease's end in which the provider may still redeem its last acknowledgement
    /// (1 min..7 days).
    uint32 claimWindow;
    /// @notice Notice the provider must give to end a lease (≥ 1 min, ≤ 7 days). Paid like any other time.
    uint32 noticePeriod;
}

/// @notice A lease as `getLease` reports it.
struct Lease {
    address renter;
    address provider;
    address ackSigner;
    uint32 sourceId;
    LeaseStatus status;
    /// @notice Set when the end is fixed (a close, a notice, a report that went unanswered) or at settlement.
    EndReason reason;
    uint16 paramsVersion;
    uint16 minUptimeBps;
    uint24 penaltySec;
    /// @notice The request's maximum price until accepted, then the accepted price.
    uint80 pricePerSec;
    /// @notice Escrow left: the deposit and top-ups less what was paid.
    uint96 deposit;
    /// @notice Acceptance time (0 while requested).
    uint40 startedAt;
    /// @notice The latest the lease runs (start + duration, or the time of a close or a notice's end); while
    /// requested, the requested duration.
    uint40 endsAt;
    /// @notice While requested: the time a provider must accept by.
    uint40 acceptBy;
    /// @notice Seconds of service the renter acknowledged and the provider redeemed.
    uint40 servedSec;
    /// @notice `at` of the latest redeemed acknowledgement: the last proof of service.
    uint40 lastProofAt;
    /// @notice When the renter reported the provider offline (0: no report pending).
    uint40 reportedAt;
}

/// @notice A provider's record of leases, kept by the lease market.
struct LeaseRecord {
    /// @notice Leases accepted.
    uint32 accepted;
    /// @notice Leases settled that met their uptime threshold and paid at least the registry's minRecordPayment.
    uint32 completed;
    /// @notice Leases settled offline or under their uptime threshold (the penalty was paid).
    uint32 failed;
    /// @notice Leases the provider ended for renter silence.
    uint32 endedForSilence;
    /// @notice Seconds of service acknowledged, over all settled leases.
    uint64 servedSec;
    /// @notice Seconds leased (start to end), over all settled leases: servedSec / leasedSec is the uptime.
    uint64 leasedSec;
}

/// @title Lease market
/// @notice GPU servers rented by the second. A renter escrows a deposit for an interactive source; an eligible
/// provider accepts with collateral; service is proven by usage acknowledgements that the renter's software signs
/// (EIP-712 `Usage(leaseId, servedSec, at)`: "by time `at` I had `servedSec` seconds of service") and that the
/// provider redeems whenever it likes, so a lease needs no transaction per second or per minute. The renter pays
/// only acknowledged seconds; it can top up, extend and close at any time and gets the unspent deposit back at
/// once. Every lease ends with a reason. A provider that stops serving is reported offline and, unable to show a
/// recent acknowledgement, pays the lease's penalty from its collateral; at settlement the referee rule pays the
/// same penalty when measured uptime is under the lease's threshold.
/// @dev Accounting invariant: asset.balanceOf(this) == Σ balanceOf(account) + Σ deposit of leases not settled +
/// feesAccrued.
interface ILeaseMarket {
    /// @notice Emitted when a renter requests a lease (the deposit is escrowed).
    event LeaseRequested(
        uint256 indexed leaseId,
        address indexed renter,
        uint32 indexed sourceId,
        uint80 maxPricePerSec,
        uint40 duration,
        uint96 deposit,
        uint24 penaltySec,
        uint16 minUptimeBps,
        address ackSigner,
        uint40 acceptBy
    );
    /// @notice Emitted when a provider accepts a lease and locks `collateral` of its stake.
    event LeaseAccepted(
        uint256 indexed leaseId, address indexed provider, uint80 pricePerSec, uint40 endsAt, uint256 collateral
    );
    /// @notice Emitted when the deposit grows.
    event LeaseToppedUp(uint256 indexed leaseId, uint256 amount, uint96 deposit);
    /// @notice Emitted when the renter extends the lease.
    event LeaseExtended(uint256 indexed leaseId, uint40 endsAt);
    /// @notice Emitted when an acknowledgement is redeemed: the provider earns `payment` less `fee`.
    event UsageRedeemed(uint256 indexed leaseId, uint40 servedSec, uint40 at, uint256 payment, uint256 fee);
    /// @notice Emitted when the provider gives notice: the lease ends at `endsAt`.
    event NoticeGiven(uint256 indexed leaseId, uint40 endsAt);
    /// @notice Emitted when the renter reports the provider offline; the provider has until `answerBy` to redeem an
    /// acknowledgement made after `reportedAt - offlineAfter`.
    event OfflineReported(uint256 indexed leaseId, uint40 reportedAt, uint40 answerBy);
    /// @notice Emitted when the provider answers an offline report with a recent acknowledgement.
    event OfflineReportAnswered(uint256 indexed leaseId, uint40 at);
    /// @notice Emitted when the end of a lease is fixed ahead of settlement: a close by the renter (the unspent
    /// deposit, `refunded`, goes back at once), an unanswered report, or the provider's end for silence.
    event LeaseEnded(uint256 indexed leaseId, EndReason reason, uint40 endedAt, uint256 refunded);
    /// @notice Emitted when a lease settles: `paid` to the provider over its life (before fees), `refunded` to the
    /// renter now, `penalty` of the provider's collateral to the renter, the uptime measured.
    event LeaseSettled(
        uint256 indexed leaseId,
        EndReason reason,
        uint40 endedAt,
        uint40 servedSec,
        uint16 uptimeBps,
        uint256 refunded,
        uint256 penalty
    );
    /// @notice Emitted when an account's balance in the lease market is paid out.
    event Withdrawn(address indexed account, address indexed to, uint256 amount);
    /// @notice Emitted when the owner changes the parameters new leases take.
    event LeaseParamsUpdated(uint16 indexed version, LeaseParams params);
    /// @notice Emitted when accrued protocol fees go to the task market's treasury.
    event FeesReleased(address indexed treasury, uint256 amount);

    error LeaseMarketZeroAddress();
    error LeaseMarketUnknownLease(uint256 leaseId);
    error LeaseMarketWrongStatus(uint256 leaseId, LeaseStatus status);
    error LeaseMarketNotRenter(uint256 leaseId, address caller);
    error LeaseMarketNotProvider(uint256 leaseId, address caller);
    error LeaseMarketZeroAmount();
    error LeaseMarketZeroPrice();
    error LeaseMarketDurationOutOfBounds(uint256 duration, uint256 max);
    error LeaseMarketPenaltyTooLarge(uint256 penaltySec, uint256 max);
    error LeaseMarketUptimeOutOfBounds(uint16 minUptimeBps);
    error LeaseMarketAcceptByOutOfBounds(uint40 acceptBy, uint256 latest);
    error LeaseMarketDepositTooSmall(uint256 deposit, uint256 needed);
    error LeaseMarketSourceInactive(uint32 sourceId);
    error LeaseMarketRequestExpired(uint256 leaseId, uint40 acceptBy);
    error LeaseMarketPriceAboveMax(uint256 pricePerSec, uint256 maxPricePerSec);
    error LeaseMarketNotEligible(address provider, uint32 sourceId, string reason);
    error LeaseMarketRenterCannotAccept(uint256 leaseId);
    error LeaseMarketEnded(uint256 leaseId, uint40 endedAt);
    error LeaseMarketNotEnded(uint256 leaseId, uint40 endsAt);
    error LeaseMarketEndFixed(uint256 leaseId, EndReason reason);
    error LeaseMarketBadSignature(uint256 leaseId, address expectedSigner);
    error LeaseMarketBadUsage(uint256 leaseId, uint40 servedSec, uint40 at);
    error LeaseMarketReportPending(uint256 leaseId, uint40 reportedAt);
    error LeaseMarketNoReport(uint256 leaseId);
    error LeaseMarketServiceRecent(uint256 leaseId, uint40 lastProofAt, uint40 reportableAt);
    error LeaseMarketAnswerWindowOpen(uint256 leaseId, uint40 answerBy);
    error LeaseMarketAckNotLapsed(uint256 leaseId, uint40 at, uint40 endableAt);
    error LeaseMarketClaimWindowOpen(uint256 leaseId, uint40 settleableAt);
    error LeaseMarketInsufficientBalance(address account, uint256 balance, uint256 needed);
    error LeaseMarketParamOutOfBounds(string name, uint256 value);
    error LeaseMarketTooManyParamVersions();

    /// @notice The longest lease, its extensions included.
    function MAX_DURATION() external view returns (uint40);
    /// @notice The largest penalty, in seconds of the lease's price.
    function MAX_PENALTY_SEC() external view returns (uint24);
    /// @notice The EIP-712 type of a usage acknowledgement.
    function USAGE_TYPEHASH() external view returns (bytes32);

    /// @notice The task market whose token, registries and staking this market shares.
    function taskMarket() external view returns (address);
    /// @notice The ERC-20 of payments and stake.
    function asset() external view returns (address);
    /// @notice Staking, where providers' collateral is locked.
    function staking() external view returns (address);

    // ─── Renter ───

    /// @notice Requests a lease, escrowing `request.deposit` from the caller (approve first, or use the permit
    /// variant). The deposit must cover at least `ackGrace` of service at the maximum price.
    function requestLease(LeaseRequest calldata request) external returns (uint256 leaseId);
    /// @notice `requestLease` with an EIP-2612 permit for the deposit.
    function requestLeaseWithPermit(LeaseRequest calldata request, Permit calldata permit)
        external
        returns (uint256 leaseId);
    /// @notice Adds `amount` to a lease's deposit (anyone may pay), before it ends.
    function topUp(uint256 leaseId, uint256 amount) external;
    /// @notice `topUp` with an EIP-2612 permit for the amount.
    function topUpWithPermit(uint256 leaseId, uint256 amount, Permit calldata permit) external;
    /// @notice Makes the lease `extraSec` longer (renter only, before it ends and before any notice or report).
    function extend(uint256 leaseId, uint40 extraSec) external;
    /// @notice Closes the lease now (renter only). A request nobody accepted is cancelled and refunded in full. An
    /// active lease ends now: the deposit beyond what the time since the last proof of service could cost goes
    /// back to the caller at once; the rest waits for the provider's last acknowledgement (`claimWindow`).
    function closeLease(uint256 leaseId) external;
    /// @notice Reports the provider offline (renter only): allowed `offlineAfter` after the last proof of service
    /// on chain. Unless the provider redeems an acknowledgement made after `now - offlineAfter` within
    /// `responseWindow`, the lease ends at the last proof of service and the provider pays the penalty.
    function reportOffline(uint256 leaseId) external;

    // ─── Provider ───

    /// @notice Accepts a requested lease at `pricePerSec` (≤ the request's maximum), locking `price × penaltySec`
    /// of the caller's stake. The caller must be registered, not paused, subscribed to the source, meet its
    /// requirements and hold the minimum provider stake.
    function acceptLease(uint256 leaseId, uint80 pricePerSec) external;
    /// @notice Redeems a usage acknowledgement signed by the lease's ack signer (anyone may submit it). Pays the
    /// provider for the seconds acknowledged since the last one; answers a pending offline report when `at` is
    /// recent enough; settles the lease when it has ended.
    function redeemUsage(uint256 leaseId, uint40 servedSec, uint40 at, bytes calldata signature) external;
    /// @notice Gives notice (provider only): the lease ends `noticePeriod` from now, paid as usual until then.
    function giveNotice(uint256 leaseId) external;
    /// @notice Ends the lease for renter silence (provider only), redeeming the given acknowledgement, which must be
    /// at least `ackGrace` old: the lease ends at its `at`, and the provider is not paid for anything after it. With
    /// an empty signature the last proof of service on chain (or the start) stands for the acknowledgement.
    function endForSilence(uint256 leaseId, uint40 servedSec, uint40 at, bytes calldata signature) external;

    // ─── Anyone ───

    /// @notice Settles a lease that ended: by its provider at any time after the end, by anyone once the claim
    /// window (or an offline report's answer window) has passed; a request nobody accepted in time, by anyone.
    function settleLease(uint256 leaseId) external;
    /// @notice Pays the caller's balance (payments, refunds, penalties) to `to`.
    function withdrawTo(address to, uint256 amount) external;
    /// @notice Sends accrued protocol fees to the task market's treasury.
    function releaseFees() external returns (uint256 amount);

    // ─── Views ───

    function getLease(uint256 leaseId) external view returns (Lease memory);
    /// @notice When the lease ends (or ended) and why, as things stand now: the earliest of its `endsAt` and the
    /// time its deposit runs out; `reason` is None while it runs and has no fixed end.
    function leaseEnd(uint256 leaseId) external view returns (uint40 endsAt, EndReason reason);
    /// @notice The EIP-712 digest of an acknowledgement, for signers.
    function usageDigest(uint256 leaseId, uint40 servedSec, uint40 at) external view returns (bytes32);
    function balanceOf(address account) external view returns (uint256);
    function recordOf(address provider) external view returns (LeaseRecord memory);
    function leaseCount() external view returns (uint256);
    function feesAccrued() external view returns (uint256);
    function params() external view returns (LeaseParams memory);
    function paramsAt(uint16 version) external view returns (LeaseParams memory);

    // ─── Owner ───

    /// @notice Sets the parameters new leases take; live leases keep theirs.
    function setParams(LeaseParams calldata params) external;
}
