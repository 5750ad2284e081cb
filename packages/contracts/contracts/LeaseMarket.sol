// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Ownable, Ownable2Step} from "@openzeppelin/contracts/access/Ownable2Step.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Permit.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";
import {
    EndReason,
    ILeaseMarket,
    Lease,
    LeaseParams,
    LeaseRecord,
    LeaseRequest,
    LeaseStatus
} from "./interfaces/ILeaseMarket.sol";
import {IProviderRegistry, ProviderInfo} from "./interfaces/IProviderRegistry.sol";
import {ISourceRegistry, SourceTerms} from "./interfaces/ISourceRegistry.sol";
import {IStaking} from "./interfaces/IStaking.sol";
import {ITaskMarket, Permit} from "./interfaces/ITaskMarket.sol";

/// @title Lease market
/// @notice GPU servers rented by the second, beside the task market: same token, registries and staking.
/// See ILeaseMarket for the rules; the comments here say why they are safe.
/// @dev Why nobody earns more by cheating (see docs/leases.md for the whole argument):
/// - The renter pays only seconds its own software acknowledged. Acknowledgements are cumulative, so the provider
///   needs only the latest, and redeems it when it likes: no transaction per second or minute.
/// - A renter that stops acknowledging stops being served (the provider's gateway asks for them) and the provider
///   ends the lease for silence `ackGrace` after the last one. That comes before the renter could report it
///   offline (`offlineAfter` > `ackGrace`), so withholding acknowledgements never earns the penalty.
/// - A provider that stops serving gets no more acknowledgements; reported offline, it cannot show a recent one and
///   pays the penalty. Answering a report needs an acknowledgement made after `report - offlineAfter`, which only
///   the renter's software can make.
/// - Uptime is measured over the whole lease (start to end), so a provider cannot shorten the window it is judged
///   on by redeeming an older acknowledgement; twice `ackGrace` of tolerance keeps a renter that under-counts served
///   time (the provider stops serving it beyond a smaller lag) from pushing an honest provider under the threshold.
/// - Every state has an exit that anyone can take after a deadline: a request nobody accepts, a lease whose provider
///   never redeems, a report nobody answers.
contract LeaseMarket is ILeaseMarket, Ownable2Step, ReentrancyGuardTransient, EIP712 {
    using SafeERC20 for IERC20;

    uint256 private constant BPS = 10_000;
    /// @inheritdoc ILeaseMarket
    uint40 public constant MAX_DURATION = 365 days;
    /// @inheritdoc ILeaseMarket
    uint24 public constant MAX_PENALTY_SEC = 7 days;
    /// @dev The longest a request waits for a provider.
    uint256 private constant MAX_ACCEPT_WINDOW = 30 days;
    uint16 private constant MAX_PROTOCOL_FEE_BPS = 2_000;
    /// @inheritdoc ILeaseMarket
    bytes32 public constant USAGE_TYPEHASH = keccak256("Usage(uint256 leaseId,uint40 servedSec,uint40 at)");

    /// @dev Four slots; field order is the packing.
    struct LeaseData {
        // slot 0
        address renter;
        uint32 sourceId;
        LeaseStatus status;
        /// @dev Set when the end is fixed ahead of time (close, notice, silence) and at settlement.
        EndReason reason;
        uint16 paramsVersion;
        uint16 minUptimeBps;
        // slot 1
        address provider;
        /// @dev While requested: the acceptBy time.
        uint40 startedAt;
        /// @dev While requested: the duration.
        uint40 endsAt;
        // slot 2
        address ackSigner;
        uint40 lastProofAt;
        uint40 reportedAt;
        // slot 3
        uint96 deposit;
        uint80 price;
        uint40 servedSec;
        uint24 penaltySec;
    }

    ITaskMarket private immutable _taskMarket;
    IERC20 private immutable _asset;
    IStaking private immutable _staking;
    IProviderRegistry private immutable _providers;
    ISourceRegistry private immutable _sources;

    LeaseParams private _params;
    mapping(uint16 version => LeaseParams) private _paramsAt;
    uint16 private _paramsVersion;
    uint64 private _leaseCount;
    uint256 private _feesAccrued;

    mapping(uint256 leaseId => LeaseData) private _leases;
    mapping(address account => uint256) private _balances;
    mapping(address provider => LeaseRecord) private _records;

    /// @param taskMarket_ The task market whose token, staking and registries this market shares. Its Staking must
    /// then name this contract (`Staking.setLeaseMarket`, an owner action) before a provider can accept a lease.
    /// @param initialOwner Owner of the lease parameters.
    /// @param initialParams Lease parameters, each checked against its bound.
    constructor(ITaskMarket taskMarket_, address initialOwner, LeaseParams memory initialParams)
        Ownable(initialOwner)
        EIP712("Gridforge LeaseMarket", "1")
    {
        if (address(taskMarket_) == address(0)) revert LeaseMarketZeroAddress();
        _taskMarket = taskMarket_;
        _asset = IERC20(taskMarket_.asset());
        _staking = IStaking(taskMarket_.staking());
        _providers = IProviderRegistry(taskMarket_.providers());
        _sources = ISourceRegistry(taskMarket_.sources());
        _checkParams(initialParams);
        _params = initialParams;
        _paramsAt[0] = initialParams;
        emit LeaseParamsUpdated(0, initialParams);
    }

    // ─── Renter ───

    /// @inheritdoc ILeaseMarket
    function requestLease(LeaseRequest calldata request) external nonReentrant returns (uint256 leaseId) {
        leaseId = _request(request);
        _asset.safeTransferFrom(msg.sender, address(this), request.deposit);
    }

    /// @inheritdoc ILeaseMarket
    function requestLeaseWithPermit(LeaseRequest calldata request, Permit calldata permit)
        external
        nonReentrant
        returns (uint256 leaseId)
    {
        _permit(permit);
        leaseId = _request(request);
        _asset.safeTransferFrom(msg.sender, address(this), request.deposit);
    }

    /// @inheritdoc ILeaseMarket
    function topUp(uint256 leaseId, uint256 amount) external nonReentrant {
        _topUp(leaseId, amount);
    }

    /// @inheritdoc ILeaseMarket
    function topUpWithPermit(uint256 leaseId, uint256 amount, Permit calldata permit) external nonReentrant {
        _permit(permit);
        _topUp(leaseId, amount);
    }

    /// @inheritdoc ILeaseMarket
    function extend(uint256 leaseId, uint40 extraSec) external {
        LeaseData storage l = _lease(leaseId);
        if (msg.sender != l.renter) revert LeaseMarketNotRenter(leaseId, msg.sender);
        if (extraSec == 0) revert LeaseMarketZeroAmount();
        uint256 length = uint256(l.endsAt) + extraSec;
        if (l.status == LeaseStatus.Active) {
            _requireRunning(leaseId, l);
            // A notice or a pending report fixes how the lease ends; the renter cannot move that.
            if (l.reason != EndReason.None) revert LeaseMarketEndFixed(leaseId, l.reason);
            if (l.reportedAt != 0) revert LeaseMarketReportPending(leaseId, l.reportedAt);
            length -= l.startedAt;
        } else if (l.status != LeaseStatus.Requested) {
            revert LeaseMarketWrongStatus(leaseId, l.status);
        }
        if (length > MAX_DURATION) revert LeaseMarketDurationOutOfBounds(length, MAX_DURATION);
        uint40 endsAt = l.endsAt + extraSec;
        l.endsAt = endsAt;
        emit LeaseExtended(leaseId, endsAt);
    }

    /// @inheritdoc ILeaseMarket
    function closeLease(uint256 leaseId) external nonReentrant {
        LeaseData storage l = _lease(leaseId);
        if (msg.sender != l.renter) revert LeaseMarketNotRenter(leaseId, msg.sender);
        uint256 deposit = l.deposit;
        if (l.status == LeaseStatus.Requested) {
            l.status = LeaseStatus.Settled;
            l.reason = EndReason.Cancelled;
            l.deposit = 0;
            emit LeaseSettled(leaseId, EndReason.Cancelled, uint40(block.timestamp), 0, 0, deposit, 0);
            if (deposit != 0) _asset.safeTransfer(msg.sender, deposit);
            return;
        }
        if (l.status != LeaseStatus.Active) revert LeaseMarketWrongStatus(leaseId, l.status);
        if (l.reason == EndReason.ClosedByRenter) revert LeaseMarketEndFixed(leaseId, EndReason.ClosedByRenter);
        (uint40 end, EndReason reason) = _endOf(l);
        if (block.timestamp < end) {
            end = uint40(block.timestamp);
            reason = EndReason.ClosedByRenter;
            l.endsAt = end;
            l.reason = reason;
        }
        // Keep only what the provider could still claim for the time up to the end: acknowledgements are
        // cumulative, so that is every second of the lease not yet paid. The rest is the renter's now.
        uint256 held = uint256(l.price) * (end - l.startedAt - l.servedSec);
        if (held > deposit) held = deposit;
        uint256 refund = deposit - held;
        l.deposit = uint96(held);
        emit LeaseEnded(leaseId, reason, end, refund);
        // Nothing left to claim and no report to resolve: settle now rather than after the claim window.
        if (held == 0 && l.reportedAt == 0) _settle(leaseId, l, end, reason);
        if (refund != 0) _asset.safeTransfer(msg.sender, refund);
    }

    /// @inheritdoc ILeaseMarket
    function reportOffline(uint256 leaseId) external {
        LeaseData storage l = _active(leaseId);
        if (msg.sender != l.renter) revert LeaseMarketNotRenter(leaseId, msg.sender);
        _requireRunning(leaseId, l);
        if (l.reportedAt != 0) revert LeaseMarketReportPending(leaseId, l.reportedAt);
        LeaseParams storage terms = _paramsAt[l.paramsVersion];
        // A provider that redeemed recently has shown service: no report until that proof is offlineAfter old, so
        // a renter cannot make an honest provider answer reports back to back.
        uint256 reportable = uint256(_proofAnchor(l)) + terms.offlineAfter;
        if (block.timestamp < reportable) revert LeaseMarketServiceRecent(leaseId, l.lastProofAt, uint40(reportable));
        l.reportedAt = uint40(block.timestamp);
        emit OfflineReported(leaseId, uint40(block.timestamp), uint40(block.timestamp + terms.responseWindow));
    }

    // ─── Provider ───

    /// @inheritdoc ILeaseMarket
    function acceptLease(uint256 leaseId, uint80 pricePerSec) external nonReentrant {
        LeaseData storage l = _lease(leaseId);
        if (l.status != LeaseStatus.Requested) revert LeaseMarketWrongStatus(leaseId, l.status);
        uint40 acceptBy = l.startedAt;
        if (block.timestamp > acceptBy) revert LeaseMarketRequestExpired(leaseId, acceptBy);
        // A renter serving itself would only farm a record; it must use another account and pay the fees for it.
        if (msg.sender == l.renter) revert LeaseMarketRenterCannotAccept(leaseId);
        if (pricePerSec == 0) revert LeaseMarketZeroPrice();
        if (pricePerSec > l.price) revert LeaseMarketPriceAboveMax(pricePerSec, l.price);
        uint32 sourceId = l.sourceId;
        _checkEligible(msg.sender, sourceId);

        uint256 collateral = uint256(pricePerSec) * l.penaltySec;
        uint40 endsAt = uint40(block.timestamp) + l.endsAt;
        l.provider = msg.sender;
        l.startedAt = uint40(block.timestamp);
        l.endsAt = endsAt;
        l.price = pricePerSec;
        l.status = LeaseStatus.Active;
        ++_records[msg.sender].accepted;
        emit LeaseAccepted(leaseId, msg.sender, pricePerSec, endsAt, collateral);
        if (collateral != 0) _staking.lock(msg.sender, collateral);
    }

    /// @inheritdoc ILeaseMarket
    function redeemUsage(uint256 leaseId, uint40 servedSec, uint40 at, bytes calldata signature)
        external
        nonReentrant
    {
        LeaseData storage l = _active(leaseId);
        (uint40 end, EndReason reason) = _endOf(l);
        _redeem(leaseId, l, servedSec, at, signature, end);
        // Only the provider may settle at once: anyone else settling early would cut short its claim window.
        if (msg.sender == l.provider && block.timestamp >= end && l.reportedAt == 0) _settle(leaseId, l, end, reason);
    }

    /// @inheritdoc ILeaseMarket
    function giveNotice(uint256 leaseId) external {
        LeaseData storage l = _active(leaseId);
        if (msg.sender != l.provider) revert LeaseMarketNotProvider(leaseId, msg.sender);
        if (l.reason != EndReason.None) revert LeaseMarketEndFixed(leaseId, l.reason);
        _requireRunning(leaseId, l);
        uint256 noticeEnd = block.timestamp + _paramsAt[l.paramsVersion].noticePeriod;
        // The lease ends sooner anyway: there is nothing to give notice of.
        if (noticeEnd >= l.endsAt) revert LeaseMarketEndFixed(leaseId, EndReason.Expired);
        l.endsAt = uint40(noticeEnd);
        l.reason = EndReason.ProviderNotice;
        emit NoticeGiven(leaseId, uint40(noticeEnd));
    }

    /// @inheritdoc ILeaseMarket
    function endForSilence(uint256 leaseId, uint40 servedSec, uint40 at, bytes calldata signature)
        external
        nonReentrant
    {
        LeaseData storage l = _active(leaseId);
        if (msg.sender != l.provider) revert LeaseMarketNotProvider(leaseId, msg.sender);
        // Without a signature the lease's last proof stands for the acknowledgement (the start, if the renter never
        // sent one): a renter that never acknowledges must not hold the provider until it can report it offline.
        if (signature.length == 0) (servedSec, at) = (l.servedSec, _proofAnchor(l));
        uint256 endable = uint256(at) + _paramsAt[l.paramsVersion].ackGrace;
        if (block.timestamp < endable) revert LeaseMarketAckNotLapsed(leaseId, at, uint40(endable));
        if (signature.length != 0) {
            (uint40 end,) = _endOf(l);
            _redeem(leaseId, l, servedSec, at, signature, end);
        }
        // The acknowledgement must also answer a pending report: a provider reported offline cannot escape the
        // penalty by calling its renter silent with an old acknowledgement.
        if (l.reportedAt != 0) revert LeaseMarketReportPending(leaseId, l.reportedAt);
        // The provider is paid up to `at` and not after: what it gives up for ending without notice.
        l.endsAt = at;
        l.reason = EndReason.RenterSilent;
        emit LeaseEnded(leaseId, EndReason.RenterSilent, at, 0);
        _settle(leaseId, l, at, EndReason.RenterSilent);
    }

    // ─── Anyone ───

    /// @inheritdoc ILeaseMarket
    function settleLease(uint256 leaseId) external nonReentrant {
        LeaseData storage l = _lease(leaseId);
        if (l.status == LeaseStatus.Requested) {
            uint40 acceptBy = l.startedAt;
            if (block.timestamp <= acceptBy) revert LeaseMarketNotEnded(leaseId, acceptBy);
            uint256 deposit = l.deposit;
            l.status = LeaseStatus.Settled;
            l.reason = EndReason.NotAccepted;
            l.deposit = 0;
            _balances[l.renter] += deposit;
            emit LeaseSettled(leaseId, EndReason.NotAccepted, acceptBy, 0, 0, deposit, 0);
            return;
        }
        if (l.status != LeaseStatus.Active) revert LeaseMarketWrongStatus(leaseId, l.status);
        LeaseParams storage terms = _paramsAt[l.paramsVersion];
        uint40 reportedAt = l.reportedAt;
        if (reportedAt != 0) {
            uint256 answerBy = uint256(reportedAt) + terms.responseWindow;
            if (block.timestamp <= answerBy) revert LeaseMarketAnswerWindowOpen(leaseId, uint40(answerBy));
            // Unanswered: service is proven up to the last acknowledgement redeemed, and ends there.
            uint40 lastProof = _proofAnchor(l);
            l.endsAt = lastProof;
            l.reason = EndReason.ProviderOffline;
            emit LeaseEnded(leaseId, EndReason.ProviderOffline, lastProof, 0);
            _settle(leaseId, l, lastProof, EndReason.ProviderOffline);
            return;
        }
        (uint40 end, EndReason reason) = _endOf(l);
        if (block.timestamp < end) revert LeaseMarketNotEnded(leaseId, end);
        uint256 settleable = uint256(end) + terms.claimWindow;
        if (msg.sender != l.provider && block.timestamp < settleable) {
            revert LeaseMarketClaimWindowOpen(leaseId, uint40(settleable));
        }
        _settle(leaseId, l, end, reason);
    }

    /// @inheritdoc ILeaseMarket
    function withdrawTo(address to, uint256 amount) external nonReentrant {
        if (amount == 0) revert LeaseMarketZeroAmount();
        if (to == address(0)) revert LeaseMarketZeroAddress();
        uint256 balance = _balances[msg.sender];
        if (amount > balance) revert LeaseMarketInsufficientBalance(msg.sender, balance, amount);
        _balances[msg.sender] = balance - amount;
        emit Withdrawn(msg.sender, to, amount);
        _asset.safeTransfer(to, amount);
    }

    /// @inheritdoc ILeaseMarket
    function releaseFees() external nonReentrant returns (uint256 amount) {
        amount = _feesAccrued;
        if (amount == 0) revert LeaseMarketZeroAmount();
        _feesAccrued = 0;
        address treasury = _taskMarket.treasury();
        emit FeesReleased(treasury, amount);
        _asset.safeTransfer(treasury, amount);
    }

    // ─── Owner ───

    /// @inheritdoc ILeaseMarket
    function setParams(LeaseParams calldata newParams) external onlyOwner {
        _checkParams(newParams);
        uint16 version = _paramsVersion;
        if (version == type(uint16).max) revert LeaseMarketTooManyParamVersions();
        ++version;
        _paramsVersion = version;
        _params = newParams;
        _paramsAt[version] = newParams;
        emit LeaseParamsUpdated(version, newParams);
    }

    // ─── Views ───

    /// @inheritdoc ILeaseMarket
    function taskMarket() external view returns (address) {
        return address(_taskMarket);
    }

    /// @inheritdoc ILeaseMarket
    function asset() external view returns (address) {
        return address(_asset);
    }

    /// @inheritdoc ILeaseMarket
    function staking() external view returns (address) {
        return address(_staking);
    }

    /// @inheritdoc ILeaseMarket
    function getLease(uint256 leaseId) external view returns (Lease memory lease) {
        LeaseData storage l = _lease(leaseId);
        bool requested = l.status == LeaseStatus.Requested;
        lease = Lease({
            renter: l.renter,
            provider: l.provider,
            ackSigner: l.ackSigner,
            sourceId: l.sourceId,
            status: l.status,
            reason: l.reason,
            paramsVersion: l.paramsVersion,
            minUptimeBps: l.minUptimeBps,
            penaltySec: l.penaltySec,
            pricePerSec: l.price,
            deposit: l.deposit,
            startedAt: requested ? 0 : l.startedAt,
            endsAt: l.endsAt,
            acceptBy: requested ? l.startedAt : 0,
            servedSec: l.servedSec,
            lastProofAt: l.lastProofAt,
            reportedAt: l.reportedAt
        });
    }

    /// @inheritdoc ILeaseMarket
    function leaseEnd(uint256 leaseId) external view returns (uint40 endsAt, EndReason reason) {
        LeaseData storage l = _lease(leaseId);
        if (l.status != LeaseStatus.Active) return (l.status == LeaseStatus.Settled ? l.endsAt : 0, l.reason);
        (endsAt, reason) = _endOf(l);
        // While it runs, only an end fixed ahead of time has a reason.
        if (block.timestamp < endsAt && l.reason == EndReason.None) reason = EndReason.None;
    }

    /// @inheritdoc ILeaseMarket
    function usageDigest(uint256 leaseId, uint40 servedSec, uint40 at) public view returns (bytes32) {
        return _hashTypedDataV4(keccak256(abi.encode(USAGE_TYPEHASH, leaseId, servedSec, at)));
    }

    /// @inheritdoc ILeaseMarket
    function balanceOf(address account) external view returns (uint256) {
        return _balances[account];
    }

    /// @inheritdoc ILeaseMarket
    function recordOf(address provider) external view returns (LeaseRecord memory) {
        return _records[provider];
    }

    /// @inheritdoc ILeaseMarket
    function leaseCount() external view returns (uint256) {
        return _leaseCount;
    }

    /// @inheritdoc ILeaseMarket
    function feesAccrued() external view returns (uint256) {
        return _feesAccrued;
    }

    /// @inheritdoc ILeaseMarket
    function params() external view returns (LeaseParams memory) {
        return _params;
    }

    /// @inheritdoc ILeaseMarket
    function paramsAt(uint16 version) external view returns (LeaseParams memory) {
        return _paramsAt[version];
    }

    // ─── Internals ───

    function _topUp(uint256 leaseId, uint256 amount) private {
        if (amount == 0) revert LeaseMarketZeroAmount();
        LeaseData storage l = _lease(leaseId);
        if (l.status == LeaseStatus.Active) {
            _requireRunning(leaseId, l);
        } else if (l.status != LeaseStatus.Requested) {
            revert LeaseMarketWrongStatus(leaseId, l.status);
        }
        uint96 deposit = _toUint96(l.deposit + amount);
        l.deposit = deposit;
        emit LeaseToppedUp(leaseId, amount, deposit);
        _asset.safeTransferFrom(msg.sender, address(this), amount);
    }

    /// @dev A permit that fails (already used, front-run) is fine if the allowance is there anyway: the transfer
    /// that follows fails without it.
    function _permit(Permit calldata permit) private {
        try IERC20Permit(address(_asset)).permit(
            msg.sender, address(this), permit.value, permit.deadline, permit.v, permit.r, permit.s
        ) {} catch {}
    }

    function _request(LeaseRequest calldata r) private returns (uint256 leaseId) {
        if (r.maxPricePerSec == 0) revert LeaseMarketZeroPrice();
        if (r.duration == 0 || r.duration > MAX_DURATION) {
            revert LeaseMarketDurationOutOfBounds(r.duration, MAX_DURATION);
        }
        if (r.penaltySec > MAX_PENALTY_SEC) revert LeaseMarketPenaltyTooLarge(r.penaltySec, MAX_PENALTY_SEC);
        if (r.minUptimeBps > BPS) revert LeaseMarketUptimeOutOfBounds(r.minUptimeBps);
        uint256 latest = block.timestamp + MAX_ACCEPT_WINDOW;
        if (r.acceptBy <= block.timestamp || r.acceptBy > latest) revert LeaseMarketAcceptByOutOfBounds(r.acceptBy, latest);
        // At least one grace period of service: less could not even be acknowledged before it ran out.
        uint256 needed = uint256(r.maxPricePerSec) * _params.ackGrace;
        if (r.deposit < needed) revert LeaseMarketDepositTooSmall(r.deposit, needed);
        SourceTerms memory source = _sources.getSourceTerms(r.sourceId);
        if (!source.active) revert LeaseMarketSourceInactive(r.sourceId);

        leaseId = ++_leaseCount;
        LeaseData storage l = _leases[leaseId];
        l.renter = msg.sender;
        l.sourceId = r.sourceId;
        l.status = LeaseStatus.Requested;
        l.paramsVersion = _paramsVersion;
        l.minUptimeBps = r.minUptimeBps;
        l.startedAt = r.acceptBy;
        l.endsAt = r.duration;
        l.ackSigner = r.ackSigner == address(0) ? msg.sender : r.ackSigner;
        l.deposit = r.deposit;
        l.price = r.maxPricePerSec;
        l.penaltySec = r.penaltySec;
        emit LeaseRequested(
            leaseId,
            msg.sender,
            r.sourceId,
            r.maxPricePerSec,
            r.duration,
            r.deposit,
            r.penaltySec,
            r.minUptimeBps,
            l.ackSigner,
            r.acceptBy
        );
    }

    /// @dev Checks and pays an acknowledgement. `end` is the lease's end as it stands.
    function _redeem(uint256 leaseId, LeaseData storage l, uint40 servedSec, uint40 at, bytes calldata signature, uint40 end)
        private
    {
        // ECDSA only, never ERC-1271, even where the signer has code (EIP-7702): a contract's answer could change
        // after the service was given, and a renter could then make the provider's acknowledgements worthless,
        // leave it unable to answer an offline report, and collect the penalty.
        address signer = l.ackSigner;
        (address recovered, ECDSA.RecoverError err,) = ECDSA.tryRecover(usageDigest(leaseId, servedSec, at), signature);
        if (err != ECDSA.RecoverError.NoError || recovered != signer) revert LeaseMarketBadSignature(leaseId, signer);
        uint40 served = l.servedSec;
        // Acknowledgements count up: an older one than the last redeemed pays nothing and proves nothing new. One
        // made after the end, or claiming more service than time passed, is not one the renter's software makes.
        if (
            at > block.timestamp || at > end || at < l.lastProofAt || at < l.startedAt || servedSec < served
                || servedSec > at - l.startedAt
        ) revert LeaseMarketBadUsage(leaseId, servedSec, at);

        // at ≤ end ≤ the time the deposit runs out (start + served + deposit / price), so this cannot underflow.
        uint256 payment = uint256(l.price) * (servedSec - served);
        l.deposit -= uint96(payment);
        l.servedSec = servedSec;
        l.lastProofAt = at;
        uint256 fee = payment * _paramsAt[l.paramsVersion].protocolFeeBps / BPS;
        if (payment != 0) {
            _balances[l.provider] += payment - fee;
            if (fee != 0) _feesAccrued += fee;
        }
        emit UsageRedeemed(leaseId, servedSec, at, payment, fee);

        uint40 reportedAt = l.reportedAt;
        if (reportedAt != 0 && uint256(at) + _paramsAt[l.paramsVersion].offlineAfter >= reportedAt) {
            l.reportedAt = 0;
            emit OfflineReportAnswered(leaseId, at);
        }
    }

    /// @dev Pays out an ended lease: the deposit left to the renter, the collateral back to the provider or, when
    /// it was offline or under the uptime threshold, to the renter as the penalty.
    function _settle(uint256 leaseId, LeaseData storage l, uint40 end, EndReason reason) private {
        uint40 startedAt = l.startedAt;
        uint40 served = l.servedSec;
        uint256 window = end - startedAt;
        uint256 downtime = window - served;
        uint16 uptimeBps = window == 0 ? uint16(BPS) : uint16(uint256(served) * BPS / window);
        uint16 minUptime = l.minUptimeBps;
        // Twice ackGrace of tolerance: time since the last acknowledgement at a close, and a renter's under-count up
        // to the lag at which the provider stops serving it, must not fail an honest provider.
        bool failed = reason == EndReason.ProviderOffline
            || (minUptime != 0
                && downtime > 2 * uint256(_paramsAt[l.paramsVersion].ackGrace) + window * (BPS - minUptime) / BPS);

        address provider = l.provider;
        address renter = l.renter;
        uint256 collateral = uint256(l.price) * l.penaltySec;
        uint256 penalty = failed ? collateral : 0;
        uint256 refund = l.deposit;
        l.deposit = 0;
        l.status = LeaseStatus.Settled;
        l.reason = reason;
        l.endsAt = end;
        if (refund + penalty != 0) _balances[renter] += refund + penalty;

        LeaseRecord storage record = _records[provider];
        record.servedSec += served;
        record.leasedSec += uint64(window);
        if (reason == EndReason.RenterSilent) ++record.endedForSilence;
        if (failed) ++record.failed;
        // Only leases worth a fee vouch for a provider, as with tasks.
        else if (uint256(l.price) * served >= _providers.minRecordPayment()) ++record.completed;

        emit LeaseSettled(leaseId, reason, end, served, uptimeBps, refund, penalty);
        if (collateral != 0) {
            if (penalty != 0) _staking.slash(provider, penalty);
            else _staking.unlock(provider, collateral);
        }
    }

    /// @dev The end of an accepted lease as things stand: its `endsAt`, or earlier the time its deposit runs out
    /// (every second up to then could be acknowledged and must be payable). A fixed reason stands unless the
    /// deposit runs out first.
    function _endOf(LeaseData storage l) private view returns (uint40 end, EndReason reason) {
        end = l.endsAt;
        reason = l.reason;
        uint256 funded = uint256(l.startedAt) + l.servedSec + l.deposit / l.price;
        if (funded < end) return (uint40(funded), EndReason.OutOfDeposit);
        if (reason == EndReason.None) reason = EndReason.Expired;
    }

    /// @dev Reverts once an accepted lease has reached its end (see _endOf).
    function _requireRunning(uint256 leaseId, LeaseData storage l) private view {
        (uint40 end,) = _endOf(l);
        if (block.timestamp >= end) revert LeaseMarketEnded(leaseId, end);
    }

    /// @dev The last proof of service: the latest redeemed acknowledgement, or the start.
    function _proofAnchor(LeaseData storage l) private view returns (uint40) {
        uint40 lastProof = l.lastProofAt;
        return lastProof > l.startedAt ? lastProof : l.startedAt;
    }

    function _checkEligible(address provider, uint32 sourceId) private view {
        ProviderInfo memory p = _providers.getProvider(provider);
        if (!p.registered) revert LeaseMarketNotEligible(provider, sourceId, "not registered");
        if (p.paused) revert LeaseMarketNotEligible(provider, sourceId, "paused");
        if (!_providers.isSubscribed(provider, sourceId)) {
            revert LeaseMarketNotEligible(provider, sourceId, "not subscribed to the source");
        }
        SourceTerms memory source = _sources.getSourceTerms(sourceId);
        if (!source.active) revert LeaseMarketSourceInactive(sourceId);
        if (
            p.capabilities.gpuCount < source.requirements.minGpus
                || p.capabilities.vramMiB < source.requirements.minVramMiB
                || p.capabilities.computeCapability < source.requirements.minComputeCapability
        ) revert LeaseMarketNotEligible(provider, sourceId, "below the source's requirements");
        // The minimum stake holds at every acceptance, not only at registration.
        if (_staking.stakeOf(provider).staked < _providers.minProviderStake()) {
            revert LeaseMarketNotEligible(provider, sourceId, "stake below the minimum");
        }
    }

    function _checkParams(LeaseParams memory p) private pure {
        if (p.protocolFeeBps > MAX_PROTOCOL_FEE_BPS) revert LeaseMarketParamOutOfBounds("protocolFeeBps", p.protocolFeeBps);
        if (p.ackGrace < 1 minutes || p.ackGrace > 1 hours) revert LeaseMarketParamOutOfBounds("ackGrace", p.ackGrace);
        // The provider must be able to end a silent renter's lease before that renter can report it offline.
        if (p.offlineAfter < uint256(p.ackGrace) + 1 minutes || p.offlineAfter > 1 days) {
            revert LeaseMarketParamOutOfBounds("offlineAfter", p.offlineAfter);
        }
        if (p.responseWindow < 1 minutes || p.responseWindow > 1 days) {
            revert LeaseMarketParamOutOfBounds("responseWindow", p.responseWindow);
        }
        if (p.claimWindow < 1 minutes || p.claimWindow > 7 days) {
            revert LeaseMarketParamOutOfBounds("claimWindow", p.claimWindow);
        }
        if (p.noticePeriod < 1 minutes || p.noticePeriod > 7 days) {
            revert LeaseMarketParamOutOfBounds("noticePeriod", p.noticePeriod);
        }
    }

    function _lease(uint256 leaseId) private view returns (LeaseData storage l) {
        l = _leases[leaseId];
        if (l.status == LeaseStatus.None) revert LeaseMarketUnknownLease(leaseId);
    }

    function _active(uint256 leaseId) private view returns (LeaseData storage l) {
        l = _lease(leaseId);
        if (l.status != LeaseStatus.Active) revert LeaseMarketWrongStatus(leaseId, l.status);
    }

    function _toUint96(uint256 value) private pure returns (uint96) {
        if (value > type(uint96).max) revert LeaseMarketParamOutOfBounds("deposit", value);
        return uint96(value);
    }
}
