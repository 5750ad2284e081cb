// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {GridToken} from "../../contracts/GridToken.sol";
import {ProviderRegistry} from "../../contracts/ProviderRegistry.sol";
import {SourceRegistry} from "../../contracts/SourceRegistry.sol";
import {Staking} from "../../contracts/Staking.sol";
import {TaskMarket} from "../../contracts/TaskMarket.sol";
import {DiscountTier} from "../../contracts/interfaces/IStaking.sol";
import {ITaskMarket, Slot, SlotStatus, Task, TaskParams, TaskStatus} from "../../contracts/interfaces/ITaskMarket.sol";
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
/// moves through `warp`.
contract Handler is TestBase {
    uint256 internal constant CLIENTS = 3;
    uint256 internal constant PROVIDERS = 4;
    uint256 internal constant CREATORS = 2;
    uint256 internal constant CLIENT_TOKENS = 1_000_000e18;
    uint256 internal constant PROVIDER_TOKENS = 100_000e18;
    uint256 internal constant PROVIDER_STAKE = 2_000e18;
    uint96 internal constant MAX_PAYMENT = 500e18;
    string internal constant CID = "bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku";
    /// @dev Stands for the sha2-256 digest of CID (the market compares digests; it does not parse CIDs).
    bytes32 internal constant DIGEST = keccak256("output");

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

    uint256 public currentTime;

    /// @dev Tasks not yet in a final status; `_liveIndex` is position + 1.
    uint256[] internal _live;
    mapping(uint256 taskId => uint256) internal _liveIndex;

    struct Committed {
        bytes32 digest;
        bytes32 salt;
    }

    mapping(uint256 taskId => mapping(address provider => Committed)) internal _committed;

    // ─── Ghosts ───
    mapping(uint256 taskId => uint256) public ghostEscrow;
    mapping(uint256 taskId => uint256) public ghostPaid;
    mapping(uint256 taskId => uint256) public ghostFinalized;
    mapping(uint256 taskId => mapping(uint8 slot => uint256)) public ghostSlotPaid;
    uint256 public ghostTasks;
    uint256 public ghostFinalizedTasks;
    uint256 public ghostPaidReplicas;
    uint256 public ghostSlashes;
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
            staking.stake(PROVIDER_STAKE);
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
        if (found) _claim(taskId, t.collateral, providerSeed);
    }

    function submitResult(uint256 taskSeed, uint32 runtimeSec) external action {
        (bool found, uint256 taskId, Task memory t) = _find(taskSeed, _submittable);
        if (found) _submitResult(taskId, t, runtimeSec);
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
    /// reveals, keeper exits), so that complete k-replica lifecycles are common rather than rare. Each step may
    /// also be a no-show: a reveal is sometimes withheld.
    function advance(uint256 taskSeed, uint256 seed) external action {
        if (_live.length == 0) return;
        uint256 taskId = _live[taskSeed % _live.length];
        uint256 steps = 1 + seed % 12;
        for (uint256 i; i < steps && _liveIndex[taskId] != 0; ++i) {
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

    function stake(uint256 actorSeed, uint256 amount) external action {
        address actor = _actor(actorSeed);
        uint256 held = token.balanceOf(actor);
        if (held == 0) return;
        amount = bound(amount, 1, held < 20_000e18 ? held : 20_000e18);
        _acted = true;
        vm.prank(actor);
        staking.stake(amount);
    }

    function requestUnbond(uint256 actorSeed, uint256 amount) external action {
        address actor = _actor(actorSeed);
        uint256 available = staking.availableOf(actor);
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

    /// @notice Σ replicas × maxPayment over tasks not yet final: what the market must hold in escrow.
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
            0
        );
        _allSources.push(sourceId);
        sourceOwner[sourceId] = creator;
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
        uint32 sourceId = replicas > 1
            ? _deterministicSources[sourceSeed % _deterministicSources.length]
            : _allSources[sourceSeed % _allSources.length];
        maxPayment = uint96(bound(maxPayment, 1e9, MAX_PAYMENT));
        // Metered prices reach maxPayment somewhere between a few seconds and a couple of hours of runtime.
        pricePerSecond = metered ? uint80(bound(pricePerSecond, 1, maxPayment / 30 + 1)) : 0;
        uint40 deadline = uint40(currentTime + bound(duration, 10 minutes, 2 days));
        return Fixture.task(sourceId, maxPayment, pricePerSecond, replicas, deadline);
    }

    function _track(uint256 taskId, TaskParams memory p) private {
        ghostEscrow[taskId] = uint256(p.maxPayment) * p.replicas;
        ++ghostTasks;
        _live.push(taskId);
        _liveIndex[taskId] = _live.length;
    }

    function _step(uint256 taskId, Task memory t, uint256 seed) private {
        if (_claimable(taskId, t) && (t.replicas == 1 || seed % 2 == 0 || !_committable(taskId, t))) {
            _claim(taskId, t.collateral, seed);
        } else if (_submittable(taskId, t)) {
            _submitResult(taskId, t, uint32(seed >> 8));
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

    /// @dev Claims with the first provider, from a random start, that is not on the task and can lock the
    /// collateral (providers unbond too, so some cannot).
    function _claim(uint256 taskId, uint256 collateral, uint256 providerSeed) private {
        Slot[] memory slots = market.getSlots(taskId);
        for (uint256 i; i < PROVIDERS; ++i) {
            address provider = _providers[(providerSeed + i) % PROVIDERS];
            if (_onTask(slots, provider) || staking.availableOf(provider) < collateral) continue;
            _acted = true;
            vm.prank(provider);
            market.claimTask(taskId);
            return;
        }
    }

    function _submitResult(uint256 taskId, Task memory t, uint32 runtimeSec) private {
        address provider = market.getSlots(taskId)[0].provider;
        runtimeSec = uint32(bound(runtimeSec, 0, uint256(t.requirements.maxRuntimeSec) * 2));
        _acted = true;
        vm.prank(provider);
        market.submitResult(taskId, DIGEST, CID, CID, runtimeSec);
    }

    function _commit(uint256 taskId, uint256 slotSeed, uint8 honesty) private {
        (bool ok,, Slot memory slot) = _slotWhere(taskId, slotSeed, SlotStatus.Claimed, true);
        if (!ok) return;
        bytes32 digest;
        honesty %= 4;
        if (honesty < 2) digest = keccak256(abi.encode("honest", taskId));
        else if (honesty == 2) digest = keccak256(abi.encode("colluding", taskId));
        else digest = keccak256(abi.encode("own", taskId, slot.provider));
        bytes32 salt = keccak256(abi.encode("salt", taskId, slot.provider, slotSeed));
        _committed[taskId][slot.provider] = Committed(digest, salt);
        _acted = true;
        vm.prank(slot.provider);
        market.commitResult(taskId, Fixture.commitment(taskId, slot.provider, digest, salt));
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

    function _claimable(uint256, Task memory t) private view returns (bool) {
        return t.status == TaskStatus.Open && currentTime <= t.deadline;
    }

    function _submittable(uint256 taskId, Task memory t) private view returns (bool) {
        return t.replicas == 1 && t.status == TaskStatus.Claimed && currentTime <= market.getSlots(taskId)[0].dueAt;
    }

    function _committable(uint256 taskId, Task memory t) private view returns (bool) {
        if (t.replicas == 1 || (t.status != TaskStatus.Open && t.status != TaskStatus.Claimed)) return false;
        (bool ok,,) = _slotWhere(taskId, 0, SlotStatus.Claimed, true);
        return ok;
    }

    function _revealable(uint256, Task memory t) private view returns (bool) {
        return t.status == TaskStatus.Revealing && currentTime <= t.revealDeadline;
    }

    function _reopenable(uint256 taskId, Task memory t) private view returns (bool) {
        if (t.status != TaskStatus.Open && t.status != TaskStatus.Claimed) return false;
        (bool ok,,) = _slotWhere(taskId, 0, SlotStatus.Claimed, false);
        return ok;
    }

    function _finalizable(uint256, Task memory t) private view returns (bool) {
        return t.status == TaskStatus.Revealing && currentTime > t.revealDeadline;
    }

    function _expirable(uint256, Task memory t) private view returns (bool) {
        return (t.status == TaskStatus.Open || t.status == TaskStatus.Claimed) && currentTime > t.deadline;
    }

    /// @dev A slot in `status`, from a random start; for Claimed slots, one still in time (`inTime`) or one
    /// overdue (`!inTime`). Other statuses ignore `inTime`.
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
            if (topic == ITaskMarket.ReplicaPaid.selector) {
                uint256 taskId = uint256(log.topics[1]);
                (uint8 slot, uint256 payment,) = abi.decode(log.data, (uint8, uint256, uint256));
                ++ghostPaidReplicas;
                ghostPaid[taskId] += payment;
                if (++ghostSlotPaid[taskId][slot] > 1) _violation(taskId, "slot paid twice");
                if (ghostFinalized[taskId] != 0) _violation(taskId, "replica paid after finalization");
                if (ghostPaid[taskId] > ghostEscrow[taskId]) _violation(taskId, "paid more than escrow");
            } else if (topic == ITaskMarket.TaskFinalized.selector) {
                uint256 taskId = uint256(log.topics[1]);
                (, , uint256 paid, uint256 refund) = abi.decode(log.data, (uint8, bytes32, uint256, uint256));
                ++ghostFinalizedTasks;
                if (++ghostFinalized[taskId] > 1) _violation(taskId, "finalized twice");
                if (paid != ghostPaid[taskId]) _violation(taskId, "paid != sum of ReplicaPaid");
                if (paid + refund != ghostEscrow[taskId]) _violation(taskId, "paid + refund != escrow");
                _untrack(taskId);
            } else if (topic == ITaskMarket.ProviderSlashed.selector) {
                ++ghostSlashes;
            }
        }
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
