// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {GridToken} from "../../contracts/GridToken.sol";
import {ProviderRegistry} from "../../contracts/ProviderRegistry.sol";
import {SourceRegistry} from "../../contracts/SourceRegistry.sol";
import {Staking} from "../../contracts/Staking.sol";
import {TaskMarket} from "../../contracts/TaskMarket.sol";
import {DiscountTier} from "../../contracts/interfaces/IStaking.sol";
import {
    Audit,
    AuditVerdict,
    ITaskMarket,
    Slot,
    SlotStatus,
    Task,
    TaskParams,
    TaskStatus
} from "../../contracts/interfaces/ITaskMarket.sol";
import {sealOf} from "../../contracts/libraries/Results.sol";
import {Fixture, System} from "./Fixture.sol";
import {TestBase, Vm} from "./Vm.sol";

/// @title Market handler
/// @notice The invariant fuzzer's only target: bounded random actions by a fixed cast of clients, providers and
/// source creators on a system this contract deploys and owns. Actions pick live tasks and valid slots so most
/// calls do something; a call that still reverts is discarded by the fuzzer (failOnRevert is off).
/// @dev The system's addresses are plain storage, not immutables: the runner recognises deployed contracts by
/// comparing their code with the artifacts, and dozens of filled-in immutable slots defeat that comparison.
/// Ghost ledgers fed from the market's own ReplicaPaid / TaskFinalized logs check that nothing is paid
/// twice. block.timestamp is kept in `currentTime` and re-applied at the start of every action, so time only
/// moves through `warp`; likewise block.number is kept in `currentBlock`, and every action runs one block after
/// the previous one (`mine` skips more, sometimes past the 256 blocks whose hashes the EVM keeps).
/// Sealed results: providers hand in, and replicas commit to and reveal, the seal of their output's digest
/// (libraries/Results.sol, sealOf); auditors commit to and reveal the digest they found, which the market seals
/// (checked on every ResultRevealed log). A lazy auditor copies a seal it read from the chain instead of computing:
/// its copy, sealed again, never confirms a result (no upheld verdict pays it).
/// Audits: k = 1 results of deterministic sources are held; `release` draws them (choosing the draw's block hash
/// with setBlockhash half of the time, so that drawn and passed results are both common), other providers
/// `joinAudit`, auditors commit and reveal agreeing, disagreeing or copied digests through `commit` / `reveal`,
/// and `finalize` moves rounds whose time is over, until a verdict.
/// Disputes: replicas of a k > 1 task reveal honest, colluding or their own digests; results that differ open a
/// dispute (status Auditing, round 1 with one auditor at slot k), which the same audit actions run to a verdict.
/// The ghosts follow the dispute rules: who may be paid or slashed, for what, and from which funds.
/// Seat race: claims of k > 1 tasks are raced for until the race ends (joinDeadline, or 256 blocks after the
/// submission): the handler computes each claim's ticket itself (TaskAudits._ticket, ported) and checks the seat
/// it gets, the replacement of the worst ticket, ClaimTicketTooHigh, DrawNotReady before the seed block and
/// SeatNotFinal before the race's end; after the race, free seats are first come.
contract Handler is TestBase {
    uint256 internal constant CLIENTS = 3;
    /// @dev Eight providers: the one that ran a result and up to six auditors (1 + 2 + 2 + 1 over four rounds).
    uint256 internal constant PROVIDERS = 8;
    uint256 internal constant CREATORS = 2;
    uint256 internal constant CLIENT_TOKENS = 1_000_000e18;
    uint256 internal constant PROVIDER_TOKENS = 100_000e18;
    /// @dev Provider i stakes (i + 1) × this: audit tickets are stake-weighted, and an audited result's collateral
    /// is 9 × maxPayment (4,500e18 at MAX_PAYMENT), which the smallest stake can lock once.
    uint256 internal constant PROVIDER_STAKE = 5_000e18;
    uint96 internal constant MAX_PAYMENT = 500e18;
    string internal constant CID = "bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku";
    uint256 internal constant BPS = 10_000;

    GridToken public token;
    SourceRegistry public sources;
    Staking public staking;
    ProviderRegistry public providers;
    TaskMarket public market;
    address public constant TREASURY = address(0x7EA5);

    address[] internal _clients;
    address[] internal _providers;
    address[] internal _creators;
    address[] internal _stakers;
    address[] internal _accounts;
    /// @dev Sources a k > 1 task may use, and all sources.
    uint32[] internal _deterministicSources;
    uint32[] internal _allSources;
    mapping(uint32 sourceId => address) public sourceOwner;
    mapping(uint32 sourceId => bool) internal _deterministic;

    uint256 public currentTime;
    uint256 public currentBlock;

    /// @dev Tasks not yet in a final status; `_liveIndex` is position + 1.
    uint256[] internal _live;
    mapping(uint256 taskId => uint256) internal _liveIndex;

    /// @dev What a slot committed to: a replica's seal, or the digest an auditor found (or copied: `lazy`).
    struct Committed {
        bytes32 digest;
        bytes32 salt;
        bool lazy;
    }

    mapping(uint256 taskId => mapping(address provider => Committed)) internal _committed;

    /// @dev What the handler knows of a task from its own parameters and the market's logs.
    struct GhostTask {
        uint96 maxPayment;
        uint80 pricePerSecond;
        uint8 replicas;
        /// @dev k = 1 of a deterministic source: held for the audit draw.
        bool auditable;
        /// @dev AuditDrawn logs seen, and whether the draw opened an audit.
        uint8 draws;
        bool audited;
        AuditVerdict verdict;
        /// @dev The runtime the market counted for the k = 1 result (ResultSubmitted).
        uint32 runtime;
        /// @dev The seal the provider submitted (k = 1): sealOf(taskId, its output's digest).
        bytes32 digest;
        /// @dev Σ collateral slashed since the audit opened: what may pay auditors beyond the escrow.
        uint256 auditSlashed;
        /// @dev The result that stands once the audit resolves (a dispute that lapsed: the replicas' strict
        /// majority, if any).
        bytes32 truth;
        /// @dev k > 1: collateral slashed in this call with nothing to the client (the no-shows of a dispute that
        /// opens in the same call), and their slots; moved to `auditSlashed` by the AuditDrawn log.
        uint256 pendingPot;
        uint8 pendingNoShows;
        /// @dev What each paid auditor got: all alike.
        uint256 auditorPay;
    }

    mapping(uint256 taskId => GhostTask) internal _ghost;
    /// @dev What each slot revealed (replicas, then auditors) and the runtime counted (ResultRevealed logs), and
    /// the mask of slots that revealed.
    mapping(uint256 taskId => bytes32[7]) internal _revealedDigest;
    mapping(uint256 taskId => uint32[7]) internal _revealedRuntime;
    mapping(uint256 taskId => uint8) internal _revealedMask;

    // ─── Ghosts ───
    mapping(uint256 taskId => uint256) public ghostEscrow;
    mapping(uint256 taskId => uint256) public ghostPaid;
    mapping(uint256 taskId => uint256) public ghostFinalized;
    mapping(uint256 taskId => mapping(uint8 slot => uint256)) public ghostSlotPaid;
    uint256 public ghostTasks;
    uint256 public ghostFinalizedTasks;
    uint256 public ghostPaidReplicas;
    uint256 public ghostSlashes;
    /// @notice Audit coverage: draws that passed / opened an audit, rounds opened by round number (index 0: a
    /// round re-opened because its seed block's hash was gone), auditors joined, replaced by a better ticket,
    /// slashed for a missed commitment or reveal, slashed as outvoted, and verdicts by AuditVerdict.
    uint256 public ghostNotDrawn;
    uint256 public ghostDrawn;
    uint256[5] public ghostRounds;
    uint256 public ghostJoins;
    uint256 public ghostReplaced;
    uint256 public ghostForfeits;
    uint256 public ghostOutvotedAuditors;
    uint256[7] public ghostVerdicts;
    /// @notice Dispute coverage: disputes opened, replicas slashed as outvoted by a verdict.
    uint256 public ghostDisputes;
    uint256 public ghostOutvotedReplicas;
    /// @notice Seat-race coverage: seats won in a race, taken first come after it, replacements of the worst
    /// ticket, claims refused for a worse ticket, claims refused before the seed block, commitments refused
    /// before the seat was final.
    uint256 public ghostRacedSeats;
    uint256 public ghostFirstComeSeats;
    uint256 public ghostSeatsReplaced;
    uint256 public ghostTicketsTooHigh;
    uint256 public ghostEarlyClaims;
    uint256 public ghostEarlyCommits;
    /// @notice Sealed results: reveals by lazy auditors (a seal copied from the chain, not computed).
    uint256 public ghostLazyReveals;
    /// @notice Broken "paid once" rules; the invariant requires zero. The first one is described below.
    uint256 public ghostViolations;
    string public firstViolation;
    uint256 public firstViolationTask;

    /// @notice Calls per action that got past their preconditions (read them in afterInvariant when tuning).
    mapping(bytes4 action => uint256) public calls;

    /// @dev Set by an action that got past its preconditions and called the system.
    bool internal _acted;

    modifier action() {
        vm.warp(currentTime);
        vm.roll(++currentBlock);
        // Restarts (and empties) the log buffer: logs of a discarded, reverted call must not be counted.
        vm.recordLogs();
        _acted = false;
        _;
        _readLogs();
        if (_acted) ++calls[msg.sig];
    }

    constructor() {
        currentTime = 1_750_000_000;
        vm.warp(currentTime);
        currentBlock = vm.getBlockNumber();
        System memory s = Fixture.deploy(Fixture.defaultParams(), TREASURY);
        (token, sources, staking, providers, market) = (s.token, s.sources, s.staking, s.providers, s.market);

        DiscountTier[] memory tiers = new DiscountTier[](2);
        tiers[0] = DiscountTier({minStake: 1_000e18, discountBps: 1_000});
        tiers[1] = DiscountTier({minStake: 10_000e18, discountBps: 2_500});
        staking.setDiscountTiers(tiers);

        for (uint256 i; i < CREATORS; ++i) {
            _creators.push(address(uint160(0xC4EA7000 + i)));
        }
        for (uint256 i; i < CLIENTS; ++i) {
            address client = address(uint160(0xC11E4700 + i));
            _clients.push(client);
            token.transfer(client, CLIENT_TOKENS);
            _approveAll(client);
        }
        // Two sources to start with: a deterministic one (k ≥ 1) and one that takes k = 1 only.
        _publish(_creators[0], 1_000, 3_600, true);
        _publish(_creators[1], 0, 1_800, false);
        for (uint256 i; i < PROVIDERS; ++i) {
            address provider = address(uint160(0x9E0F1DE4 + i));
            _providers.push(provider);
            token.transfer(provider, PROVIDER_TOKENS);
            _approveAll(provider);
            vm.prank(provider);
            staking.stake(PROVIDER_STAKE * (i + 1));
            vm.prank(provider);
            providers.register(Fixture.capabilities(), CID);
            vm.prank(provider);
            providers.subscribe(_allSources);
        }
        for (uint256 i; i < CLIENTS; ++i) {
            _stakers.push(_clients[i]);
        }
        for (uint256 i; i < PROVIDERS; ++i) {
            _stakers.push(_providers[i]);
        }
        _accounts = _stakers;
        for (uint256 i; i < CREATORS; ++i) {
            _accounts.push(_creators[i]);
        }
    }

    // ─── Balances ───

    function deposit(uint256 actorSeed, uint256 amount) external action {
        address actor = _actor(actorSeed);
        uint256 held = token.balanceOf(actor);
        if (held == 0) return;
        amount = bound(amount, 1, held);
        _acted = true;
        vm.prank(actor);
        market.deposit(amount);
    }

    function withdraw(uint256 actorSeed, uint256 amount) external action {
        address actor = _anyAccount(actorSeed);
        uint256 balance = market.balanceOf(actor);
        if (balance == 0) return;
        amount = bound(amount, 1, balance);
        _acted = true;
        vm.prank(actor);
        market.withdraw(amount);
    }

    // ─── Sources ───

    function publish(uint256 creatorSeed, uint16 creatorFeeBps, uint32 maxRuntimeSec, bool deterministic)
        external
        action
    {
        if (_allSources.length >= 8) return;
        address creator = _creators[creatorSeed % CREATORS];
        _acted = true;
        uint32 sourceId = _publish(
            creator, uint16(bound(creatorFeeBps, 0, 5_000)), uint32(bound(maxRuntimeSec, 60, 7_200)), deterministic
        );
        uint32[] memory ids = new uint32[](1);
        ids[0] = sourceId;
        for (uint256 i; i < PROVIDERS; ++i) {
            vm.prank(_providers[i]);
            providers.subscribe(ids);
        }
    }

    /// @notice Hands a source to the other creator; its unclaimed creator fees go with it.
    function transferSource(uint256 sourceSeed) external action {
        uint32 sourceId = _allSources[sourceSeed % _allSources.length];
        address from = sourceOwner[sourceId];
        address to = from == _creators[0] ? _creators[1] : _creators[0];
        _acted = true;
        sourceOwner[sourceId] = to;
        vm.prank(from);
        sources.transfer(sourceId, to);
    }

    function claimCreatorFees(uint256 sourceSeed) external action {
        uint32 sourceId = _allSources[sourceSeed % _allSources.length];
        if (market.creatorFeesOf(sourceId) == 0) return;
        _acted = true;
        vm.prank(sourceOwner[sourceId]);
        market.claimCreatorFees(sourceId);
    }

    // ─── Clients ───

    function submit(
        uint256 clientSeed,
        uint256 sourceSeed,
        uint8 replicas,
        uint96 maxPayment,
        uint80 pricePerSecond,
        uint40 duration,
        bool metered
    ) external action {
        address client = _clients[clientSeed % CLIENTS];
        TaskParams memory p = _taskParams(sourceSeed, replicas, maxPayment, pricePerSecond, duration, metered);
        _acted = true;
        vm.prank(client);
        uint256 taskId = market.submitTask(p);
        _track(taskId, p);
    }

    function submitBatch(uint256 clientSeed, uint256 seed, uint8 count) external action {
        address client = _clients[clientSeed % CLIENTS];
        count = uint8(bound(count, 1, 3));
        TaskParams[] memory batch = new TaskParams[](count);
        for (uint256 i; i < count; ++i) {
            uint256 r = uint256(keccak256(abi.encode(seed, i)));
            batch[i] = _taskParams(r, uint8(r >> 8), uint96(r >> 16), uint80(r >> 112), uint40(r >> 192), r & 1 == 0);
        }
        _acted = true;
        vm.prank(client);
        uint256 first = market.submitTasks(batch);
        for (uint256 i; i < count; ++i) {
            _track(first + i, batch[i]);
        }
    }

    function cancel(uint256 taskSeed) external action {
        (bool found, uint256 taskId, Task memory t) = _find(taskSeed, _cancellable);
        if (!found) return;
        _acted = true;
        vm.prank(t.client);
        market.cancelTask(taskId);
    }

    // ─── Providers and keepers: one step of a live task ───

    function claim(uint256 taskSeed, uint256 providerSeed) external action {
        (bool found, uint256 taskId, Task memory t) = _find(taskSeed, _claimable);
        if (found) _claim(taskId, t, providerSeed);
    }

    /// @param honesty 0-1: the honest digest; 2: the colluding auditors' wrong digest; 3: a wrong digest of its own.
    function submitResult(uint256 taskSeed, uint32 runtimeSec, uint8 honesty) external action {
        (bool found, uint256 taskId, Task memory t) = _find(taskSeed, _submittable);
        if (found) _submitResult(taskId, t, runtimeSec, honesty);
    }

    /// @notice Draws a held result (or checks that it cannot be drawn yet).
    function release(uint256 taskSeed, uint256 seed) external action {
        (bool found, uint256 taskId,) = _find(taskSeed, _held);
        if (found) _release(taskId, seed);
    }

    /// @notice Another registered provider joins an audit round that is open for joining.
    function joinAudit(uint256 taskSeed, uint256 providerSeed) external action {
        (bool found, uint256 taskId, Task memory t) = _find(taskSeed, _joinable);
        if (found) _join(taskId, t, providerSeed);
    }

    /// @notice Moves block.number forward: mostly a block or two, sometimes past the 256 blocks of known hashes.
    function mine(uint256 blocks) external action {
        _acted = true;
        currentBlock += blocks % 8 == 0 ? bound(blocks, 250, 300) : bound(blocks, 1, 3);
        vm.roll(currentBlock);
    }

    /// @param honesty 0-1: the honest digest; 2: a wrong digest shared by every dishonest provider (collusion);
    /// 3: a wrong digest of the provider's own.
    function commit(uint256 taskSeed, uint256 slotSeed, uint8 honesty) external action {
        (bool found, uint256 taskId,) = _find(taskSeed, _committable);
        if (found) _commit(taskId, slotSeed, honesty);
    }

    function reveal(uint256 taskSeed, uint256 slotSeed, uint32 runtimeSec) external action {
        (bool found, uint256 taskId, Task memory t) = _find(taskSeed, _revealable);
        if (found) _reveal(taskId, t, slotSeed, runtimeSec);
    }

    function reopenSlot(uint256 taskSeed, uint256 slotSeed) external action {
        (bool found, uint256 taskId,) = _find(taskSeed, _reopenable);
        if (found) _reopenSlot(taskId, slotSeed);
    }

    function finalize(uint256 taskSeed) external action {
        (bool found, uint256 taskId,) = _find(taskSeed, _finalizable);
        if (found) _finalize(taskId);
    }

    function expire(uint256 taskSeed) external action {
        (bool found, uint256 taskId,) = _find(taskSeed, _expirable);
        if (found) _expire(taskId);
    }

    /// @notice Takes a random live task up to twelve steps along its lifecycle (claims, result or commitments,
    /// reveals, keeper exits; draws, joins and audit rounds), so that complete k-replica lifecycles and audits are
    /// common rather than rare. Each step may also be a no-show: a reveal is sometimes withheld. Half of the
    /// time a held or audited task is taken if there is one (audits take the most steps).
    function advance(uint256 taskSeed, uint256 seed) external action {
        if (_live.length == 0) return;
        uint256 taskId = _live[taskSeed % _live.length];
        if (seed % 2 == 0) {
            (bool found, uint256 held,) = _find(taskSeed, _heldOrAuditing);
            if (found) taskId = held;
        }
        uint256 steps = 1 + seed % 12;
        for (uint256 i; i < steps && _liveIndex[taskId] != 0; ++i) {
            if (i != 0) vm.roll(++currentBlock); // one transaction per block
            _step(taskId, market.getTask(taskId), uint256(keccak256(abi.encode(seed, i))));
            _readLogs();
            vm.recordLogs();
        }
    }

    function withdrawTreasury() external action {
        if (market.treasuryAccrued() == 0) return;
        _acted = true;
        market.withdrawTreasury();
    }

    /// @notice Moves time forward: mostly minutes (runs, reveal windows), sometimes days (unbonding, deadlines).
    function warp(uint256 seconds_) external action {
        _acted = true;
        currentTime += seconds_ % 16 == 0 ? bound(seconds_, 1, 8 days) : bound(seconds_, 1, 20 minutes);
    }

    // ─── Staking ───

    /// @notice Stakes more; a provider the registry paused for being under its minimum stake resumes once it
    /// has it again.
    function stake(uint256 actorSeed, uint256 amount) external action {
        address actor = _actor(actorSeed);
        uint256 held = token.balanceOf(actor);
        if (held == 0) return;
        amount = bound(amount, 1, held < 20_000e18 ? held : 20_000e18);
        _acted = true;
        vm.prank(actor);
        staking.stake(amount);
        if (providers.getProvider(actor).paused && staking.stakeOf(actor).staked >= providers.minProviderStake()) {
            vm.prank(actor);
            providers.resume();
        }
    }

    /// @notice Unbonds available stake above the account's floor (an active provider's minimum, the stake behind
    /// its discounted tasks).
    function requestUnbond(uint256 actorSeed, uint256 amount) external action {
        address actor = _actor(actorSeed);
        uint256 available = staking.availableOf(actor);
        uint256 staked = staking.stakeOf(actor).staked;
        uint256 floor = _stakeFloorOf(actor);
        uint256 aboveFloor = staked > floor ? staked - floor : 0;
        if (aboveFloor < available) available = aboveFloor;
        if (available == 0) return;
        amount = bound(amount, 1, available);
        _acted = true;
        vm.prank(actor);
        staking.requestUnbond(amount);
    }

    function withdrawUnbonded(uint256 actorSeed) external action {
        address actor = _actor(actorSeed);
        if (staking.stakeOf(actor).unbonding == 0 || currentTime < staking.stakeOf(actor).unbondingReadyAt) return;
        _acted = true;
        vm.prank(actor);
        staking.withdrawUnbonded();
    }

    function claimRewards(uint256 actorSeed) external action {
        address actor = _actor(actorSeed);
        if (staking.earned(actor) == 0) return;
        _acted = true;
        vm.prank(actor);
        staking.claimRewards();
    }

    // ─── For the invariant suite ───

    /// @notice Accounts that stake (clients and providers).
    function stakers() external view returns (address[] memory) {
        return _stakers;
    }

    /// @notice Every account that can hold an internal market balance (stakers and source creators).
    function accounts() external view returns (address[] memory) {
        return _accounts;
    }

    function providerList() external view returns (address[] memory) {
        return _providers;
    }

    function sourceList() external view returns (uint32[] memory) {
        return _allSources;
    }

    /// @notice Σ escrow over tasks not yet final: what the market must hold for them besides what their audits
    /// slashed (maxPayment × replicas, or × 2 for an auditable k = 1 result).
    function liveEscrow() external view returns (uint256 escrow) {
        for (uint256 i; i < _live.length; ++i) {
            escrow += ghostEscrow[_live[i]];
        }
    }

    /// @notice Moves the handler's clock (used by the exit after a run).
    function setTime(uint256 time) external {
        currentTime = time;
        vm.warp(time);
    }

    /// @notice Moves the handler's block number (used by the exit after a run).
    function setBlock(uint256 number) external {
        currentBlock = number;
        vm.roll(number);
    }

    /// @notice BLOCKHASH at the current block, read in a frame of its own (the optimizer may reuse a value read
    /// before a setBlockhash in the same function).
    function blockHashOf(uint256 number) external view returns (bytes32) {
        return blockhash(number);
    }

    /// @notice Tasks not yet final.
    function liveTasks() external view returns (uint256[] memory) {
        return _live;
    }

    // ─── Internals ───

    function _approveAll(address account) private {
        vm.prank(account);
        token.approve(address(market), type(uint256).max);
        vm.prank(account);
        token.approve(address(staking), type(uint256).max);
    }

    function _publish(address creator, uint16 creatorFeeBps, uint32 maxRuntimeSec, bool deterministic)
        private
        returns (uint32 sourceId)
    {
        vm.prank(creator);
        sourceId = sources.publish(
            keccak256(abi.encode("image", _allSources.length)),
            CID,
            Fixture.requirements(maxRuntimeSec, deterministic),
            creatorFeeBps,
            0, // no predecessor
            0, // failureFeeBps
            0 // no validator
        );
        _allSources.push(sourceId);
        sourceOwner[sourceId] = creator;
        _deterministic[sourceId] = deterministic;
        if (deterministic) _deterministicSources.push(sourceId);
    }

    function _taskParams(
        uint256 sourceSeed,
        uint8 replicas,
        uint96 maxPayment,
        uint80 pricePerSecond,
        uint40 duration,
        bool metered
    ) private view returns (TaskParams memory) {
        replicas = uint8(bound(replicas, 1, 3));
        // k = 1 takes a deterministic source (an audited result) three times out of four.
        uint32 sourceId = replicas > 1 || (sourceSeed >> 128) % 4 != 0
            ? _deterministicSources[sourceSeed % _deterministicSources.length]
            : _allSources[sourceSeed % _allSources.length];
        maxPayment = uint96(bound(maxPayment, 1e9, MAX_PAYMENT));
        // Metered prices reach maxPayment somewhere between a few seconds and a couple of hours of runtime.
        pricePerSecond = metered ? uint80(bound(pricePerSecond, 1, maxPayment / 30 + 1)) : 0;
        uint40 deadline = uint40(currentTime + bound(duration, 10 minutes, 2 days));
        TaskParams memory p = Fixture.task(sourceId, maxPayment, pricePerSecond, replicas, deadline);
        // Half of the tasks buy a higher audit probability than the protocol's (ignored unless k = 1 of a
        // deterministic source), up to certainty.
        uint256 r = uint256(keccak256(abi.encode(sourceSeed, maxPayment, duration)));
        if (r % 2 == 0) p.auditBps = uint16(bound(r >> 8, market.params().auditBps, BPS));
        return p;
    }

    function _track(uint256 taskId, TaskParams memory p) private {
        bool auditable = p.replicas == 1 && _deterministic[p.sourceId];
        ghostEscrow[taskId] = uint256(p.maxPayment) * (auditable ? 2 : p.replicas);
        GhostTask storage g = _ghost[taskId];
        (g.maxPayment, g.pricePerSecond, g.replicas, g.auditable) =
            (p.maxPayment, p.pricePerSecond, p.replicas, auditable);
        ++ghostTasks;
        _live.push(taskId);
        _liveIndex[taskId] = _live.length;
        // The audit probability and the collateral the task was given.
        Task memory t = market.getTask(taskId);
        uint16 auditBps = !auditable ? 0 : p.auditBps == 0 ? market.params().auditBps : p.auditBps;
        if (t.auditBps != auditBps) _violation(taskId, "task auditBps != the submission rule");
        if (t.collateral != market.collateralFor(p.maxPayment, auditBps)) {
            _violation(taskId, "collateral != collateralFor");
        }
        // k > 1: the race for the seats, seeded by the submission block, runs for auditJoinWindow.
        Audit memory race = market.getAudit(taskId);
        if (p.replicas > 1) {
            if (race.seedBlock != currentBlock || race.joinDeadline != currentTime + market.params().auditJoinWindow) {
                _violation(taskId, "seat race != submission block and time + auditJoinWindow");
            }
        } else if (race.seedBlock != 0 || race.joinDeadline != 0) {
            _violation(taskId, "a k = 1 task with a seat race");
        }
    }

    function _step(uint256 taskId, Task memory t, uint256 seed) private {
        if (t.status == TaskStatus.Held) {
            if (currentBlock >= market.getSlots(taskId)[0].dueAt + 2) _release(taskId, seed);
        } else if (t.status == TaskStatus.Auditing) {
            _stepAudit(taskId, t, seed);
        } else if (_racing(taskId, t)) {
            _stepRace(taskId, t, seed);
        } else if (_claimable(taskId, t) && (t.replicas == 1 || seed % 2 == 0 || !_committable(taskId, t))) {
            _claim(taskId, t, seed);
        } else if (_submittable(taskId, t)) {
            _submitResult(taskId, t, uint32(seed >> 8), uint8(seed >> 48));
        } else if (_committable(taskId, t)) {
            _commit(taskId, seed, uint8(seed >> 8));
        } else if (_revealable(taskId, t)) {
            if (seed % 8 != 0) _reveal(taskId, t, seed, uint32(seed >> 16));
        } else if (_finalizable(taskId, t)) {
            _finalize(taskId);
        } else if (_reopenable(taskId, t)) {
            _reopenSlot(taskId, seed);
        } else if (_expirable(taskId, t)) {
            _expire(taskId);
        }
    }

    /// @dev One step of an audit: joins while joining is open (or lets it close), commits and reveals (or misses
    /// them), finalizes a round whose time is over, or lets the round's time run out.
    function _stepAudit(uint256 taskId, Task memory t, uint256 seed) private {
        Audit memory a = market.getAudit(taskId);
        if (currentTime <= a.joinDeadline) {
            if (currentBlock < uint256(a.seedBlock) + 2) return; // the round's seed is not known yet
            if (seed % 16 == 1) {
                // Nobody joins for 256 blocks: the seed block's hash is gone (a first joiner re-opens the round).
                _acted = true;
                currentBlock += 257;
                vm.roll(currentBlock);
                return;
            }
            if (seed % 4 != 0 && _join(taskId, t, seed >> 8)) return;
            _warpTo(a.joinDeadline + 1);
        } else if (_committable(taskId, t) && seed % 8 != 0) {
            _commit(taskId, seed >> 8, uint8(seed >> 16));
        } else if (_revealable(taskId, t) && seed % 8 != 0) {
            _reveal(taskId, t, seed >> 8, uint32(seed >> 16));
        } else if (_finalizable(taskId, t)) {
            _finalize(taskId);
        } else if (seed % 4 == 0) {
            _warpTo((t.revealDeadline != 0 ? t.revealDeadline : a.commitDeadline) + 1);
        }
    }

    function _warpTo(uint256 time) private {
        if (time <= currentTime) return;
        _acted = true;
        currentTime = time;
        vm.warp(time);
    }

    /// @dev Draws a held result. Half of the time the draw's block hash is chosen (setBlockhash) so that the
    /// draw comes out as `seed` says; otherwise the chain's hash decides (or its absence, 256 blocks later).
    /// The outcome must follow the rule: keccak256(hash, taskId) % 10000 < auditBps, a missing hash drawing.
    function _release(uint256 taskId, uint256 seed) private {
        uint256 submitted = market.getSlots(taskId)[0].dueAt;
        _acted = true;
        if (currentBlock < submitted + 2) {
            // Too early: the hash of the block after the submission is not known when the result is sent.
            (bool ready,) = market.auditDraw(taskId);
            if (ready) _violation(taskId, "draw ready before submittedBlock + 2");
            try market.releaseResult(taskId) {
                _violation(taskId, "held result released before its draw block");
            } catch (bytes memory reason) {
                bytes memory notReady =
                    abi.encodeWithSelector(ITaskMarket.TaskMarketDrawNotReady.selector, taskId, submitted + 2);
                if (keccak256(reason) != keccak256(notReady)) {
                    _violation(taskId, "early release: not TaskMarketDrawNotReady");
                }
            }
            return;
        }
        uint16 auditBps = market.getTask(taskId).auditBps;
        if (seed % 2 == 0 && currentBlock <= submitted + 1 + 256) {
            bool want = (seed >> 1) % 2 == 0;
            for (uint256 k; k < 64; ++k) {
                bytes32 candidate = keccak256(abi.encode(seed, k));
                if (_drawnBy(candidate, taskId, auditBps) == want) {
                    vm.setBlockhash(submitted + 1, candidate);
                    break;
                }
            }
        }
        bool expected = _drawnBy(this.blockHashOf(submitted + 1), taskId, auditBps);
        (bool isReady, bool drawn) = market.auditDraw(taskId);
        if (!isReady || drawn != expected) _violation(taskId, "auditDraw != the draw rule");
        market.releaseResult(taskId);
        TaskStatus status = market.getTask(taskId).status;
        if (status != (expected ? TaskStatus.Auditing : TaskStatus.Completed)) {
            _violation(taskId, "released status != the draw rule");
        }
    }

    function _drawnBy(bytes32 hash, uint256 taskId, uint16 auditBps) private pure returns (bool) {
        return hash == bytes32(0) || uint256(keccak256(abi.encode(hash, taskId))) % BPS < auditBps;
    }

    /// @dev Joins the audit's current round with the first provider, from a random start, that is not on the
    /// task (nor was in an earlier round), is active and can lock the collateral. A worse ticket than every
    /// holder's reverts (TaskMarketAuditTicketTooHigh) and changes nothing; any other revert is a violation.
    /// Returns whether it called joinAudit.
    function _join(uint256 taskId, Task memory t, uint256 providerSeed) private returns (bool) {
        Audit memory a = market.getAudit(taskId);
        Slot[] memory slots = market.getSlots(taskId);
        // Nobody holds a slot of this round yet, and its seed block's hash is gone: the round re-opens.
        bool stale = currentBlock > uint256(a.seedBlock) + 1 + 256;
        for (uint256 i = a.firstSlot; i < slots.length; ++i) {
            if (slots[i].provider != address(0)) stale = false;
        }
        for (uint256 i; i < PROVIDERS; ++i) {
            address provider = _providers[(providerSeed + i) % PROVIDERS];
            if (_onTask(slots, provider) || !_active(provider) || staking.availableOf(provider) < t.collateral) {
                continue;
            }
            _acted = true;
            vm.prank(provider);
            try market.joinAudit(taskId) returns (uint8 slot) {
                if (slot == type(uint8).max) {
                    if (!stale) _violation(taskId, "joinAudit re-opened a round with a known seed");
                    ++ghostRounds[0];
                } else if (stale) {
                    _violation(taskId, "joinAudit joined a round whose seed hash is gone");
                } else if (slot < a.firstSlot || slot >= a.firstSlot + a.auditors) {
                    _violation(taskId, "auditor slot outside the round");
                } else if (market.getSlots(taskId)[slot].provider != provider) {
                    _violation(taskId, "auditor not in its slot");
                }
            } catch (bytes memory reason) {
                if (bytes4(reason) != ITaskMarket.TaskMarketAuditTicketTooHigh.selector) {
                    _violation(taskId, "joinAudit reverted for an eligible provider");
                }
            }
            return true;
        }
        return false;
    }

    /// @dev Stake the account may not unbond, where Staking has such a floor (stakeFloorOf); 0 where it has none.
    function _stakeFloorOf(address account) private view returns (uint256) {
        (bool ok, bytes memory floor) =
            address(staking).staticcall(abi.encodeWithSignature("stakeFloorOf(address)", account));
        return ok && floor.length == 32 ? abi.decode(floor, (uint256)) : 0;
    }

    function _active(address provider) private view returns (bool) {
        return !providers.getProvider(provider).paused;
    }

    /// @dev One step of the race for the seats of a k > 1 task: before its seed block, a claim (which must revert
    /// DrawNotReady) or a block; then mostly claims (a free seat, or the worst ticket's if the claim's is better),
    /// sometimes a commitment before the seat is final (which must revert SeatNotFinal), a jump past the 256 blocks
    /// of the seed's hash (the race ends: free seats go first come), or time to the race's end.
    function _stepRace(uint256 taskId, Task memory t, uint256 seed) private {
        Audit memory race = market.getAudit(taskId);
        uint256 choice = seed % 16;
        if (currentBlock < uint256(race.seedBlock) + 2) {
            if (choice < 4 && _claimable(taskId, t)) {
                _claim(taskId, t, seed >> 8);
            } else {
                _acted = true;
                vm.roll(++currentBlock);
            }
        } else if (choice < 10 && _claimable(taskId, t)) {
            _claim(taskId, t, seed >> 8);
        } else if (choice < 12 && _commitEarly(taskId, seed >> 8)) {
            return;
        } else if (choice == 12) {
            _acted = true;
            currentBlock = uint256(race.seedBlock) + 257;
            vm.roll(currentBlock);
        } else {
            _warpTo(uint256(race.joinDeadline) + 1);
        }
    }

    /// @dev Claims with the first provider, from a random start, that is not on the task, is active and can lock
    /// the collateral (providers unbond too, so some cannot; a slash below the minimum stake pauses). k > 1: see
    /// _claimSeat.
    function _claim(uint256 taskId, Task memory t, uint256 providerSeed) private {
        Slot[] memory slots = market.getSlots(taskId);
        for (uint256 i; i < PROVIDERS; ++i) {
            address provider = _providers[(providerSeed + i) % PROVIDERS];
            if (_onTask(slots, provider) || !_active(provider) || staking.availableOf(provider) < t.collateral) {
                continue;
            }
            _acted = true;
            if (t.replicas > 1) return _claimSeat(taskId, t, slots, provider);
            vm.prank(provider);
            market.claimTask(taskId);
            return;
        }
    }

    /// @dev A claim of a k > 1 task, checked against the race's rules. While the race runs: before block
    /// seedBlock + 2 it reverts DrawNotReady; then the claim's ticket −log2(u) / stake (seeded by the hash of block
    /// seedBlock + 1) takes the lowest free seat, or, every seat held, the seat of the worst ticket if it is
    /// better (ClaimTicketTooHigh otherwise); the seat keeps the ticket and starts when the race ends. After it, a
    /// free seat is first come and starts now.
    function _claimSeat(uint256 taskId, Task memory t, Slot[] memory slots, address provider) private {
        Audit memory race = market.getAudit(taskId);
        uint256 seedBlock = race.seedBlock;
        bool racing = _racing(taskId, t);
        if (racing && currentBlock < seedBlock + 2) {
            vm.prank(provider);
            try market.claimTask(taskId) {
                _violation(taskId, "seat claimed before the race's seed block");
            } catch (bytes memory reason) {
                bytes memory notReady =
                    abi.encodeWithSelector(ITaskMarket.TaskMarketDrawNotReady.selector, taskId, seedBlock + 2);
                if (keccak256(reason) != keccak256(notReady)) _violation(taskId, "early claim: not DrawNotReady");
                ++ghostEarlyClaims;
            }
            return;
        }
        uint256 score;
        if (racing) {
            bytes32 seed = Fixture.raceSeed(this.blockHashOf(seedBlock + 1), taskId);
            score = Fixture.ticket(seed, provider, staking.stakeOf(provider).staked);
        }
        // The seat the rules give: the lowest free one, else the worst ticket held (racing only).
        uint8 expected = type(uint8).max;
        for (uint8 i; i < t.replicas; ++i) {
            if (t.openSlots & (1 << i) != 0) {
                expected = i;
                break;
            }
        }
        uint256 worst;
        bool full = expected == type(uint8).max;
        if (full) {
            for (uint8 i; i < t.replicas; ++i) {
                if (uint256(slots[i].commitment) > worst) (worst, expected) = (uint256(slots[i].commitment), i);
            }
        }
        uint256 start = racing ? uint256(race.joinDeadline) + 1 : currentTime;
        vm.prank(provider);
        try market.claimTask(taskId) returns (uint8 slot) {
            Slot memory seat = market.getSlots(taskId)[slot];
            if (slot != expected) _violation(taskId, "seat != the lowest free one or the worst ticket's");
            if (full && score >= worst) _violation(taskId, "a seat taken by a ticket no better");
            if (seat.provider != provider || seat.status != SlotStatus.Claimed) _violation(taskId, "seat not held");
            if (seat.claimedAt != start) _violation(taskId, "seat's start != the race's end or the claim");
            if (seat.dueAt != start + t.requirements.maxRuntimeSec + market.termsOf(taskId).claimGrace) {
                _violation(taskId, "seat's due time != start + runtime + grace");
            }
            if (racing && uint256(seat.commitment) != score) _violation(taskId, "seat ticket != -log2(u) / stake");
            if (full) ++ghostSeatsReplaced;
            if (racing) ++ghostRacedSeats;
            else ++ghostFirstComeSeats;
        } catch (bytes memory reason) {
            bytes memory tooHigh =
                abi.encodeWithSelector(ITaskMarket.TaskMarketClaimTicketTooHigh.selector, taskId, score, worst);
            if (!racing || !full || keccak256(reason) != keccak256(tooHigh)) {
                _violation(taskId, "claimTask reverted for an eligible provider");
            }
            ++ghostTicketsTooHigh;
        }
    }

    /// @dev A commitment to a seat won in the race, before the race's end (the seat's start): it must revert
    /// SeatNotFinal. Returns whether there was such a seat.
    function _commitEarly(uint256 taskId, uint256 slotSeed) private returns (bool) {
        Slot[] memory slots = market.getSlots(taskId);
        for (uint256 i; i < slots.length; ++i) {
            Slot memory seat = slots[(slotSeed + i) % slots.length];
            if (seat.status != SlotStatus.Claimed || currentTime >= seat.claimedAt) continue;
            _acted = true;
            vm.prank(seat.provider);
            try market.commitResult(taskId, Fixture.commitment(taskId, seat.provider, "early", "salt")) {
                _violation(taskId, "committed before the seat was final");
            } catch (bytes memory reason) {
                bytes memory notFinal =
                    abi.encodeWithSelector(ITaskMarket.TaskMarketSeatNotFinal.selector, taskId, seat.claimedAt);
                if (keccak256(reason) != keccak256(notFinal)) _violation(taskId, "early commit: not SeatNotFinal");
                ++ghostEarlyCommits;
            }
            return true;
        }
        return false;
    }

    /// @dev The provider hands in the seal of its output's digest. A held result keeps the seal's 8-byte tag in
    /// slot 0, and getTask reports the fields that hold its low bits (openSlots, committed, revealed) as 0.
    function _submitResult(uint256 taskId, Task memory t, uint32 runtimeSec, uint8 honesty) private {
        address provider = market.getSlots(taskId)[0].provider;
        runtimeSec = uint32(bound(runtimeSec, 0, uint256(t.requirements.maxRuntimeSec) * 2));
        bytes32 seal = sealOf(taskId, _digest(taskId, provider, honesty));
        _ghost[taskId].digest = seal;
        _acted = true;
        vm.prank(provider);
        market.submitResult(taskId, seal, CID, CID, runtimeSec);
        Task memory after_ = market.getTask(taskId);
        if (after_.openSlots != 0 || after_.committed != 0 || after_.revealed != 0) {
            _violation(taskId, "k = 1 getTask shows openSlots, committed or revealed once the result is in");
        }
        if (after_.status == TaskStatus.Held && market.getSlots(taskId)[0].commitment != bytes32(bytes8(seal))) {
            _violation(taskId, "held result's tag != the seal's first 8 bytes");
        }
    }

    /// @dev 0-1: the honest digest; 2: a wrong digest shared by every dishonest provider (collusion); 3: a wrong
    /// digest of the provider's own.
    function _digest(uint256 taskId, address provider, uint8 honesty) private pure returns (bytes32) {
        honesty %= 4;
        if (honesty < 2) return keccak256(abi.encode("honest", taskId));
        if (honesty == 2) return keccak256(abi.encode("colluding", taskId));
        return keccak256(abi.encode("own", taskId, provider));
    }

    /// @dev A replica commits to the seal of its output's digest; an auditor to the digest it found (0-3, see
    /// _digest) or, 4, to a seal it read from the chain without computing (see _copiedSeal).
    function _commit(uint256 taskId, uint256 slotSeed, uint8 honesty) private {
        (bool ok, uint8 index, Slot memory slot) = _slotWhere(taskId, slotSeed, SlotStatus.Claimed, true);
        if (!ok) return;
        bool lazy = index >= _ghost[taskId].replicas && honesty % 5 == 4;
        bytes32 digest = lazy ? _copiedSeal(taskId, slotSeed) : _digest(taskId, slot.provider, honesty);
        if (index < _ghost[taskId].replicas) digest = sealOf(taskId, digest);
        bytes32 salt = keccak256(abi.encode("salt", taskId, slot.provider, slotSeed));
        _committed[taskId][slot.provider] = Committed(digest, salt, lazy);
        _acted = true;
        vm.prank(slot.provider);
        market.commitResult(taskId, Fixture.commitment(taskId, slot.provider, digest, salt));
    }

    /// @dev What a lazy auditor reveals: the seal it sees on chain, the held result's (ResultSubmitted) or a
    /// disputed replica's (ResultRevealed), from a random start.
    function _copiedSeal(uint256 taskId, uint256 seed) private view returns (bytes32) {
        GhostTask storage g = _ghost[taskId];
        if (g.replicas == 1) return g.digest;
        for (uint8 i; i < g.replicas; ++i) {
            uint8 slot = uint8((seed + i) % g.replicas);
            if (_revealed(taskId, slot)) return _revealedDigest[taskId][slot];
        }
        return bytes32(0); // a dispute opens on revealed results: not reached
    }

    function _reveal(uint256 taskId, Task memory t, uint256 slotSeed, uint32 runtimeSec) private {
        (bool ok,, Slot memory slot) = _slotWhere(taskId, slotSeed, SlotStatus.Committed, false);
        if (!ok) return;
        Committed memory c = _committed[taskId][slot.provider];
        runtimeSec = uint32(bound(runtimeSec, 0, uint256(t.requirements.maxRuntimeSec) * 2));
        _acted = true;
        vm.prank(slot.provider);
        market.revealResult(taskId, c.digest, c.salt, CID, CID, runtimeSec);
    }

    function _reopenSlot(uint256 taskId, uint256 slotSeed) private {
        (bool ok, uint8 index,) = _slotWhere(taskId, slotSeed, SlotStatus.Claimed, false);
        if (!ok) return;
        _acted = true;
        market.reopenSlot(taskId, index);
    }

    function _finalize(uint256 taskId) private {
        _acted = true;
        market.finalizeTask(taskId);
    }

    function _expire(uint256 taskId) private {
        _acted = true;
        market.expireTask(taskId);
    }

    /// @dev The first live task, from a random start, that `accept` takes.
    function _find(uint256 seed, function(uint256, Task memory) view returns (bool) accept)
        private
        view
        returns (bool found, uint256 taskId, Task memory t)
    {
        uint256 n = _live.length;
        for (uint256 i; i < n; ++i) {
            taskId = _live[(seed + i) % n];
            t = market.getTask(taskId);
            if (accept(taskId, t)) return (true, taskId, t);
        }
    }

    function _cancellable(uint256, Task memory t) private pure returns (bool) {
        return t.status == TaskStatus.Open && t.openSlots == (1 << t.replicas) - 1;
    }

    /// @dev A claim that can be honoured: k = 1 Open; k > 1 Open, or Claimed while its seats are raced for (a
    /// better ticket replaces the worst); its result due (from the claim, or from the race's end for a seat won in
    /// the race) by the deadline.
    function _claimable(uint256 taskId, Task memory t) private view returns (bool) {
        if (currentTime > t.deadline) return false;
        uint256 start = currentTime;
        bool racing = _racing(taskId, t);
        if (t.status != TaskStatus.Open && !(t.status == TaskStatus.Claimed && racing)) return false;
        if (racing) start = uint256(market.getAudit(taskId).joinDeadline) + 1;
        return start + t.requirements.maxRuntimeSec + market.termsOf(taskId).claimGrace <= t.deadline;
    }

    /// @dev A k > 1 task whose seats are raced for: not final, until its race's end and 256 blocks after it was
    /// submitted.
    function _racing(uint256 taskId, Task memory t) private view returns (bool) {
        if (t.replicas == 1 || (t.status != TaskStatus.Open && t.status != TaskStatus.Claimed)) return false;
        Audit memory race = market.getAudit(taskId);
        return currentTime <= race.joinDeadline && currentBlock <= uint256(race.seedBlock) + 256;
    }

    function _submittable(uint256 taskId, Task memory t) private view returns (bool) {
        return t.replicas == 1 && t.status == TaskStatus.Claimed && currentTime <= market.getSlots(taskId)[0].dueAt;
    }

    function _held(uint256, Task memory t) private pure returns (bool) {
        return t.status == TaskStatus.Held;
    }

    function _heldOrAuditing(uint256, Task memory t) private pure returns (bool) {
        return t.status == TaskStatus.Held || t.status == TaskStatus.Auditing;
    }

    /// @dev An audit round open for joining: before its deadline, from two blocks after it opened.
    function _joinable(uint256 taskId, Task memory t) private view returns (bool) {
        if (t.status != TaskStatus.Auditing) return false;
        Audit memory a = market.getAudit(taskId);
        return currentTime <= a.joinDeadline && currentBlock >= uint256(a.seedBlock) + 2;
    }

    /// @dev k > 1 with a claim in time; or an audit whose joining closed, before its reveals, with an auditor
    /// in time.
    function _committable(uint256 taskId, Task memory t) private view returns (bool) {
        if (t.status == TaskStatus.Auditing) {
            if (t.revealDeadline != 0 || currentTime <= market.getAudit(taskId).joinDeadline) return false;
        } else if (t.replicas == 1 || (t.status != TaskStatus.Open && t.status != TaskStatus.Claimed)) {
            return false;
        }
        (bool ok,,) = _slotWhere(taskId, 0, SlotStatus.Claimed, true);
        return ok;
    }

    function _revealable(uint256, Task memory t) private view returns (bool) {
        return (t.status == TaskStatus.Revealing || (t.status == TaskStatus.Auditing && t.revealDeadline != 0))
            && currentTime <= t.revealDeadline;
    }

    function _reopenable(uint256 taskId, Task memory t) private view returns (bool) {
        if (t.status != TaskStatus.Open && t.status != TaskStatus.Claimed) return false;
        (bool ok,,) = _slotWhere(taskId, 0, SlotStatus.Claimed, false);
        return ok;
    }

    /// @dev A consensus past its reveal window; an audit round whose joining closed with nobody in it, or
    /// whose commitments or reveals are past due.
    function _finalizable(uint256 taskId, Task memory t) private view returns (bool) {
        if (t.status == TaskStatus.Revealing) return currentTime > t.revealDeadline;
        if (t.status != TaskStatus.Auditing) return false;
        Audit memory a = market.getAudit(taskId);
        if (currentTime <= a.joinDeadline) return false;
        if (t.revealDeadline != 0) return currentTime > t.revealDeadline;
        if (currentTime > a.commitDeadline) return true;
        Slot[] memory slots = market.getSlots(taskId);
        for (uint256 i = a.firstSlot; i < slots.length; ++i) {
            if (slots[i].provider != address(0)) return false;
        }
        return true;
    }

    function _expirable(uint256, Task memory t) private view returns (bool) {
        return (t.status == TaskStatus.Open || t.status == TaskStatus.Claimed) && currentTime > t.deadline;
    }

    /// @dev A slot in `status`, from a random start; for Claimed slots, one still in time (`inTime`: started, not
    /// overdue) or one overdue (`!inTime`). Other statuses ignore `inTime`.
    function _slotWhere(uint256 taskId, uint256 seed, SlotStatus status, bool inTime)
        private
        view
        returns (bool found, uint8 index, Slot memory slot)
    {
        Slot[] memory slots = market.getSlots(taskId);
        for (uint256 i; i < slots.length; ++i) {
            index = uint8((seed + i) % slots.length);
            slot = slots[index];
            if (slot.status != status) continue;
            if (status == SlotStatus.Claimed && (currentTime <= slot.dueAt) != inTime) continue;
            // A seat won in the race takes commitments only from its start, the race's end.
            if (status == SlotStatus.Claimed && inTime && currentTime < slot.claimedAt) continue;
            return (true, index, slot);
        }
    }

    function _onTask(Slot[] memory slots, address provider) private pure returns (bool) {
        for (uint256 i; i < slots.length; ++i) {
            if (slots[i].status != SlotStatus.Free && slots[i].provider == provider) return true;
        }
        return false;
    }

    function _actor(uint256 seed) private view returns (address) {
        seed %= CLIENTS + PROVIDERS;
        return seed < CLIENTS ? _clients[seed] : _providers[seed - CLIENTS];
    }

    function _anyAccount(uint256 seed) private view returns (address) {
        seed %= CLIENTS + PROVIDERS + CREATORS;
        if (seed < CLIENTS) return _clients[seed];
        if (seed < CLIENTS + PROVIDERS) return _providers[seed - CLIENTS];
        return _creators[seed - CLIENTS - PROVIDERS];
    }

    /// @dev Feeds the ghosts from the market's logs of this call, then drops tasks that became final.
    function _readLogs() private {
        Vm.Log[] memory logs = vm.getRecordedLogs();
        for (uint256 i; i < logs.length; ++i) {
            Vm.Log memory log = logs[i];
            if (log.emitter != address(market)) continue;
            bytes32 topic = log.topics[0];
            uint256 taskId = log.topics.length > 1 ? uint256(log.topics[1]) : 0;
            if (topic == ITaskMarket.ReplicaPaid.selector) {
                (uint8 slot, uint256 payment,) = abi.decode(log.data, (uint8, uint256, uint256));
                _onPaid(taskId, slot, payment);
            } else if (topic == ITaskMarket.TaskFinalized.selector) {
                (uint8 status,, uint256 paid, uint256 refund) =
                    abi.decode(log.data, (uint8, bytes32, uint256, uint256));
                _onFinalized(taskId, TaskStatus(status), paid, refund);
            } else if (topic == ITaskMarket.ProviderSlashed.selector) {
                (uint8 slot, uint256 amount, uint256 toClient, bool outvoted) =
                    abi.decode(log.data, (uint8, uint256, uint256, bool));
                _onSlashed(taskId, slot, amount, toClient, outvoted);
            } else if (topic == ITaskMarket.ResultSubmitted.selector) {
                (, bytes32 seal,,, uint32 runtime) = abi.decode(log.data, (uint8, bytes32, string, string, uint32));
                _ghost[taskId].runtime = runtime;
                if (seal != _ghost[taskId].digest) _violation(taskId, "ResultSubmitted != the seal handed in");
            } else if (topic == ITaskMarket.ResultRevealed.selector) {
                (uint8 slot, bytes32 digest,,, uint32 runtime) =
                    abi.decode(log.data, (uint8, bytes32, string, string, uint32));
                _onRevealed(taskId, slot, address(uint160(uint256(log.topics[2]))), digest);
                if (_revealedMask[taskId] & (1 << slot) != 0) _violation(taskId, "a slot revealed twice");
                _revealedMask[taskId] |= uint8(1 << slot);
                _revealedDigest[taskId][slot] = digest;
                _revealedRuntime[taskId][slot] = runtime;
            } else if (topic == ITaskMarket.TaskSubmitted.selector) {
                (, bytes32 resultKey, uint256 escrow) = abi.decode(log.data, (string, bytes32, uint256));
                if (escrow != ghostEscrow[taskId]) _violation(taskId, "TaskSubmitted escrow != the escrow rule");
                if (resultKey != Fixture.RESULT_KEY) _violation(taskId, "TaskSubmitted resultKey != the client's key");
            } else if (topic == ITaskMarket.AuditDrawn.selector) {
                _onDrawn(taskId, abi.decode(log.data, (bool)));
            } else if (topic == ITaskMarket.AuditRoundOpened.selector) {
                (uint8 round, uint8 firstSlot, uint8 auditors,) = abi.decode(log.data, (uint8, uint8, uint8, uint40));
                GhostTask storage g = _ghost[taskId];
                if (!g.audited) _violation(taskId, "audit round opened without a draw");
                if (round >= 1 && round <= 4) ++ghostRounds[round];
                else _violation(taskId, "audit round out of 1..4");
                if (round == 1 && (firstSlot != g.replicas || auditors != 1)) {
                    _violation(taskId, "round 1 is not one auditor at slot k");
                }
            } else if (topic == ITaskMarket.AuditorJoined.selector) {
                ++ghostJoins;
            } else if (topic == ITaskMarket.AuditorReplaced.selector) {
                ++ghostReplaced;
            } else if (topic == ITaskMarket.AuditResolved.selector) {
                (uint8 verdict, bytes32 digest) = abi.decode(log.data, (uint8, bytes32));
                _onResolved(taskId, AuditVerdict(verdict), digest);
            }
        }
    }

    /// @dev A reveal: a replica's seal is kept as it was committed; an auditor's digest is sealed by the market, so
    /// that a lazy auditor's copy of a seal never equals the seal it copied.
    function _onRevealed(uint256 taskId, uint8 slot, address provider, bytes32 revealed) private {
        Committed storage c = _committed[taskId][provider];
        bool auditor = slot >= _ghost[taskId].replicas;
        if (revealed != (auditor ? sealOf(taskId, c.digest) : c.digest)) {
            _violation(taskId, auditor ? "an auditor's reveal not sealed" : "a replica's seal changed at reveal");
        }
        if (!c.lazy) return;
        ++ghostLazyReveals;
        if (revealed == c.digest) _violation(taskId, "a copied seal revealed as found");
    }

    /// @dev A draw: of a held k = 1 result, or (k > 1) the opening of a dispute.
    function _onDrawn(uint256 taskId, bool drawn) private {
        GhostTask storage g = _ghost[taskId];
        if (++g.draws > 1) _violation(taskId, "drawn twice");
        g.audited = drawn;
        if (g.replicas == 1) {
            if (!g.auditable) _violation(taskId, "audit draw of a task that is not auditable");
            if (drawn) ++ghostDrawn;
            else ++ghostNotDrawn;
            return;
        }
        // A dispute: revealed results that differ (k < 7 leaves a slot for an auditor), whose replicas that did
        // not reveal were slashed in the same call, their collateral kept in the dispute's pot.
        ++ghostDisputes;
        if (!drawn) _violation(taskId, "a k > 1 draw that audits nothing");
        if (!_split(taskId, g.replicas)) _violation(taskId, "dispute of results that agree");
        uint8 noShows = uint8((1 << g.replicas) - 1) & ~_revealedMask[taskId];
        if (g.pendingNoShows != noShows) _violation(taskId, "dispute: slashed != the replicas that did not reveal");
        if (market.getAudit(taskId).slashed != g.pendingPot) _violation(taskId, "dispute pot != no-shows' slashes");
        g.auditSlashed = g.pendingPot;
        (g.pendingPot, g.pendingNoShows) = (0, 0);
    }

    function _onSlashed(uint256 taskId, uint8 slot, uint256 amount, uint256 toClient, bool outvoted) private {
        ++ghostSlashes;
        GhostTask storage g = _ghost[taskId];
        if (!g.audited) {
            if (g.replicas == 1 || toClient != 0) return;
            // k > 1 and nothing to the client: only the no-shows of a dispute that opens in this call.
            if (outvoted) _violation(taskId, "a replica slashed as outvoted without a dispute");
            g.pendingPot += amount;
            g.pendingNoShows |= uint8(1 << slot);
            return;
        }
        // Audit slashes stay in the market until the verdict splits what the auditors do not get.
        g.auditSlashed += amount;
        if (toClient != 0) _violation(taskId, "audit slash paid the client before the verdict");
        if (outvoted) {
            // Only a decision outvotes, and only a slot that revealed something else than the result that stands
            // (a held k = 1 result: see _onResolved).
            if (g.verdict != AuditVerdict.Upheld && g.verdict != AuditVerdict.Overturned) {
                _violation(taskId, "outvoted without a decision");
            }
            if ((g.replicas > 1 || slot != 0) && !(_revealed(taskId, slot) && _revealedDigest[taskId][slot] != g.truth))
            {
                _violation(taskId, "outvoted a slot that did not reveal another result");
            }
        }
        if (slot >= g.replicas) {
            if (outvoted) ++ghostOutvotedAuditors;
            else ++ghostForfeits;
        } else if (outvoted && g.replicas > 1) {
            ++ghostOutvotedReplicas;
        }
    }

    function _onPaid(uint256 taskId, uint8 slot, uint256 payment) private {
        GhostTask storage g = _ghost[taskId];
        ++ghostPaidReplicas;
        ghostPaid[taskId] += payment;
        if (++ghostSlotPaid[taskId][slot] > 1) _violation(taskId, "slot paid twice");
        if (ghostFinalized[taskId] != 0) _violation(taskId, "replica paid after finalization");
        // Auditors may be paid from collateral slashed during the audit, never from anything else.
        if (ghostPaid[taskId] > ghostEscrow[taskId] + g.auditSlashed) _violation(taskId, "paid more than escrow");
        if (slot >= g.replicas) {
            // An auditor: only one that found the result a decision stands on; all paid alike.
            if (g.verdict != AuditVerdict.Upheld && g.verdict != AuditVerdict.Overturned) {
                _violation(taskId, "auditor paid without a decision");
            }
            if (!_revealed(taskId, slot) || _revealedDigest[taskId][slot] != g.truth) {
                _violation(taskId, "paid an auditor that did not find the result that stands");
            }
            // A copied seal never confirms what it was copied from (lazy auditors that agree with each other can
            // still outvote, like any colluding auditors: an overturned verdict pays them).
            if (g.verdict == AuditVerdict.Upheld && _committed[taskId][market.getSlots(taskId)[slot].provider].lazy) {
                _violation(taskId, "a lazy auditor paid for upholding a result it did not compute");
            }
            if (g.auditorPay == 0) g.auditorPay = payment;
            else if (payment != g.auditorPay) _violation(taskId, "auditors paid unequally");
            return;
        }
        if (g.replicas > 1) return _onReplicaPaid(taskId, g, slot, payment);
        // The provider of a k = 1 result: after its draw only, and exactly what an unaudited settlement pays.
        if (g.auditable && g.draws == 0) _violation(taskId, "held result paid before releaseResult");
        if (g.audited && g.verdict != AuditVerdict.Upheld && g.verdict != AuditVerdict.Lapsed) {
            _violation(taskId, "provider paid without an upheld or lapsed audit");
        }
        uint256 expected = g.maxPayment;
        if (g.pricePerSecond != 0 && uint256(g.pricePerSecond) * g.runtime < expected) {
            expected = uint256(g.pricePerSecond) * g.runtime;
        }
        if (payment != expected) _violation(taskId, "k = 1 payment != the unaudited payment");
    }

    /// @dev k > 1: a replica is paid for the result that stands (the agreed one, a dispute's upheld one, or a
    /// lapsed dispute's strict majority) and only if it revealed it; every winner gets the payment for the
    /// winners' lower median runtime.
    function _onReplicaPaid(uint256 taskId, GhostTask storage g, uint8 slot, uint256 payment) private {
        bytes32 stands;
        if (g.audited) {
            if (g.verdict != AuditVerdict.Upheld && g.verdict != AuditVerdict.Lapsed) {
                _violation(taskId, "dispute paid a replica without an upheld or lapsed verdict");
            }
            stands = g.truth;
        } else {
            (stands,) = _majority(taskId, g.replicas);
        }
        if (stands == bytes32(0) || !_revealed(taskId, slot) || _revealedDigest[taskId][slot] != stands) {
            _violation(taskId, "paid a replica that did not reveal the result that stands");
        }
        if (payment != _winnersPayment(taskId, g, stands)) {
            _violation(taskId, "replica payment != the winners' lower-median payment");
        }
    }

    function _onResolved(uint256 taskId, AuditVerdict verdict, bytes32 digest) private {
        GhostTask storage g = _ghost[taskId];
        if (!g.audited) _violation(taskId, "audit resolved without a draw");
        if (g.verdict != AuditVerdict.None) _violation(taskId, "audit resolved twice");
        g.verdict = verdict;
        g.truth = digest;
        ++ghostVerdicts[uint8(verdict)];
        if ((verdict == AuditVerdict.Lapsed || verdict == AuditVerdict.Unresolved) && digest != bytes32(0)) {
            _violation(taskId, "no verdict digest expected");
        }
        if (verdict < AuditVerdict.Upheld) _violation(taskId, "resolved with a non-final verdict");
        if (g.replicas > 1) return _onDisputeResolved(taskId, g, verdict, digest);
        // A held result keeps the first 8 bytes of its seal; the auditors' finding is the seal of their digest.
        bool tagMatches = bytes8(digest) == bytes8(g.digest);
        if (verdict == AuditVerdict.Upheld && !tagMatches) {
            _violation(taskId, "upheld a result the auditors did not find");
        }
        if (verdict == AuditVerdict.Overturned && (tagMatches || digest == bytes32(0))) {
            _violation(taskId, "overturned a result the auditors found");
        }
    }

    /// @dev A dispute's verdict. Upheld: a replica's result, confirmed by round 1's auditor alone (its vote makes
    /// that result strictly the most found) or later by at least two auditors and more than any other result.
    /// Overturned: a result no replica revealed, found by at least two auditors and more than any other. Lapsed:
    /// round 1 had no auditor; the replicas' strict majority (if any) stands.
    function _onDisputeResolved(uint256 taskId, GhostTask storage g, AuditVerdict verdict, bytes32 digest) private {
        Audit memory a = market.getAudit(taskId);
        uint8 end = a.firstSlot + a.auditors;
        if (verdict == AuditVerdict.Lapsed) {
            if (a.round != 1 || _revealedMask[taskId] >> g.replicas != 0) _violation(taskId, "lapsed with an auditor");
            (g.truth,) = _majority(taskId, g.replicas);
            return;
        }
        if (verdict == AuditVerdict.Unresolved) return;
        (uint256 ofReplicas, uint256 otherReplicas) = _votes(taskId, 0, g.replicas, digest);
        if ((verdict == AuditVerdict.Upheld) != (ofReplicas != 0)) {
            _violation(taskId, "upheld a result no replica revealed, or overturned one a replica revealed");
        }
        (uint256 ofAuditors, uint256 otherAuditors) = _votes(taskId, g.replicas, end, digest);
        if (a.round == 1) {
            if (verdict != AuditVerdict.Upheld || ofAuditors != 1 || ofReplicas + 1 <= otherReplicas) {
                _violation(taskId, "round 1 decided without its auditor confirming the most found result");
            }
        } else if (ofAuditors < 2 || ofAuditors <= otherAuditors) {
            _violation(taskId, "decided without two auditors finding it more than any other result");
        }
    }

    function _onFinalized(uint256 taskId, TaskStatus status, uint256 paid, uint256 refund) private {
        GhostTask storage g = _ghost[taskId];
        uint256 escrow = ghostEscrow[taskId];
        ++ghostFinalizedTasks;
        if (++ghostFinalized[taskId] > 1) _violation(taskId, "finalized twice");
        if (paid != ghostPaid[taskId]) _violation(taskId, "paid != sum of ReplicaPaid");
        if (g.pendingPot != 0) _violation(taskId, "a k > 1 slash kept from the client outside a dispute");
        if (!g.audited) {
            if (paid + refund != escrow) _violation(taskId, "paid + refund != escrow");
            if (g.auditable && status == TaskStatus.Completed && g.draws == 0) {
                _violation(taskId, "auditable result settled without a draw");
            }
            if (g.replicas > 1 && (status == TaskStatus.Completed || status == TaskStatus.Failed)) {
                // Settled by its replicas: results that agree (or k = 7), a strict majority paid.
                if (g.replicas < 7 && _split(taskId, g.replicas)) _violation(taskId, "results that differ settled");
                (bytes32 majority,) = _majority(taskId, g.replicas);
                if ((status == TaskStatus.Completed) != (majority != bytes32(0))) {
                    _violation(taskId, "consensus status != a strict majority");
                }
                _assertWinnersPaid(taskId, g.replicas, majority);
            }
        } else {
            // The client pays its escrow at most; what auditors get beyond it comes from the audit's slashes.
            if (paid + refund < escrow) _violation(taskId, "paid + refund < escrow");
            if (paid + refund > escrow + g.auditSlashed) _violation(taskId, "auditors paid more than was slashed");
            AuditVerdict v = g.verdict;
            if (v == AuditVerdict.None) _violation(taskId, "audited task finalized without a verdict");
            bool stands = v == AuditVerdict.Upheld || (v == AuditVerdict.Lapsed && (g.replicas == 1 || g.truth != 0));
            if (status != (stands ? TaskStatus.Completed : TaskStatus.Failed)) _violation(taskId, "status != verdict");
            if (!stands && refund < escrow) _violation(taskId, "client refunded less than its escrow");
            if (g.replicas == 1) {
                if (stands && ghostSlotPaid[taskId][0] != 1) _violation(taskId, "result stands but provider unpaid");
            } else {
                // Every replica that revealed the result that stands is paid, once; no other. Without one, the
                // auditors were paid from the pot alone: the client gets its whole escrow back.
                _assertWinnersPaid(taskId, g.replicas, stands ? g.truth : bytes32(0));
                if (!stands && refund != escrow) _violation(taskId, "dispute: nothing stands, escrow not refunded");
            }
        }
        _untrack(taskId);
    }

    /// @dev The replicas paid are exactly those that revealed `stands` (none if 0), each once.
    function _assertWinnersPaid(uint256 taskId, uint8 replicas, bytes32 stands) private {
        for (uint8 i; i < replicas; ++i) {
            bool won = stands != bytes32(0) && _revealed(taskId, i) && _revealedDigest[taskId][i] == stands;
            if (won != (ghostSlotPaid[taskId][i] == 1)) {
                _violation(taskId, "replicas paid != those that revealed the result that stands");
            }
        }
    }

    function _revealed(uint256 taskId, uint8 slot) private view returns (bool) {
        return _revealedMask[taskId] & (1 << slot) != 0;
    }

    /// @dev Whether replicas 0..k-1 revealed results that differ.
    function _split(uint256 taskId, uint8 replicas) private view returns (bool) {
        bytes32 first;
        bool seen;
        for (uint8 i; i < replicas; ++i) {
            if (!_revealed(taskId, i)) continue;
            if (!seen) (first, seen) = (_revealedDigest[taskId][i], true);
            else if (_revealedDigest[taskId][i] != first) return true;
        }
        return false;
    }

    /// @dev How many slots in [from, end) revealed `digest`, and the most that revealed any other one result.
    function _votes(uint256 taskId, uint8 from, uint8 end, bytes32 digest)
        private
        view
        returns (uint256 votes, uint256 other)
    {
        for (uint8 i = from; i < end; ++i) {
            if (!_revealed(taskId, i)) continue;
            bytes32 d = _revealedDigest[taskId][i];
            if (d == digest) {
                ++votes;
            } else {
                uint256 count = _count(taskId, from, end, d); // at most 7 × 7
                if (count > other) other = count;
            }
        }
    }

    /// @dev How many slots in [from, end) revealed `digest`.
    function _count(uint256 taskId, uint8 from, uint8 end, bytes32 digest) private view returns (uint256 count) {
        for (uint8 i = from; i < end; ++i) {
            if (_revealed(taskId, i) && _revealedDigest[taskId][i] == digest) ++count;
        }
    }

    /// @dev The result revealed by a strict majority of the k replicas (at least 2), and how many revealed it.
    function _majority(uint256 taskId, uint8 replicas) private view returns (bytes32 digest, uint256 votes) {
        for (uint8 i; i < replicas; ++i) {
            if (!_revealed(taskId, i)) continue;
            uint256 count = _count(taskId, 0, replicas, _revealedDigest[taskId][i]);
            if (count >= 2 && count * 2 > replicas) return (_revealedDigest[taskId][i], count);
        }
    }

    /// @dev What each replica that revealed `stands` is paid: maxPayment, or the metered price of the lower median
    /// of their runtimes (as the market counted them) if lower.
    function _winnersPayment(uint256 taskId, GhostTask storage g, bytes32 stands) private view returns (uint256) {
        uint32[7] memory sorted;
        uint256 n;
        for (uint8 i; i < g.replicas; ++i) {
            if (!_revealed(taskId, i) || _revealedDigest[taskId][i] != stands) continue;
            uint32 value = _revealedRuntime[taskId][i];
            uint256 j = n++;
            while (j > 0 && sorted[j - 1] > value) {
                sorted[j] = sorted[j - 1];
                --j;
            }
            sorted[j] = value;
        }
        if (n == 0) return 0;
        uint256 metered = uint256(g.pricePerSecond) * sorted[(n - 1) / 2];
        return g.pricePerSecond != 0 && metered < g.maxPayment ? metered : g.maxPayment;
    }

    function _untrack(uint256 taskId) private {
        uint256 index = _liveIndex[taskId];
        if (index == 0) return;
        uint256 last = _live[_live.length - 1];
        _live[index - 1] = last;
        _liveIndex[last] = index;
        _live.pop();
        delete _liveIndex[taskId];
    }

    function _violation(uint256 taskId, string memory what) private {
        if (ghostViolations++ == 0) {
            firstViolation = what;
            firstViolationTask = taskId;
        }
    }
}
