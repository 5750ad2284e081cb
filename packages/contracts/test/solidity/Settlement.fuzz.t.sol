// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {GridToken} from "../../contracts/GridToken.sol";
import {ProviderRegistry} from "../../contracts/ProviderRegistry.sol";
import {SourceRegistry} from "../../contracts/SourceRegistry.sol";
import {Staking} from "../../contracts/Staking.sol";
import {TaskMarket} from "../../contracts/TaskMarket.sol";
import {DiscountTier} from "../../contracts/interfaces/IStaking.sol";
import {MarketParams, Task, TaskParams} from "../../contracts/interfaces/ITaskMarket.sol";
import {Fixture, System} from "./Fixture.sol";
import {TestBase} from "./Vm.sol";

/// @title Settlement fuzz tests
/// @notice Drives real tasks through the deployed contracts with random parameters and checks every amount
/// against DESIGN.md §2.3: the payment split, the metering cap, collateral and slashing.
contract SettlementFuzzTest is TestBase {
    uint256 internal constant BPS = 10_000;
    uint96 internal constant MAX_PAYMENT = 1_000_000e18;
    uint32 internal constant MAX_RUNTIME = 3_600;
    string internal constant CID = "bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku";
    /// @dev Stands for the sha2-256 digest of CID (the market compares digests; it does not parse CIDs).
    bytes32 internal constant DIGEST = keccak256("output");

    address internal constant TREASURY = address(0x7EA5);
    address internal constant CLIENT = address(0xC11E47);
    address internal constant CREATOR = address(0xC4EA70);
    address internal constant PROVIDER = address(0x9E0F1DE4);
    address internal constant PROVIDER_2 = address(0x9E0F1DE5);

    GridToken internal token;
    SourceRegistry internal sources;
    Staking internal staking;
    ProviderRegistry internal providers;
    TaskMarket internal market;
    /// @dev The source the test published last (whose creator fees a settlement accrues).
    uint32 internal sourceId_;

    /// @dev What one settlement moved, read from the ledgers.
    struct Deltas {
        uint256 provider;
        uint256 client;
        uint256 creator;
        uint256 stakers;
        uint256 treasury;
    }

    function setUp() public {
        vm.warp(1_750_000_000);
        System memory s = Fixture.deploy(Fixture.defaultParams(), TREASURY);
        (token, sources, staking, providers, market) = (s.token, s.sources, s.staking, s.providers, s.market);

        token.transfer(CLIENT, 100_000_000e18);
        vm.prank(CLIENT);
        token.approve(address(market), type(uint256).max);
        vm.prank(CLIENT);
        token.approve(address(staking), type(uint256).max);
        _provider(PROVIDER);
        _provider(PROVIDER_2);
    }

    function _provider(address provider) internal {
        token.transfer(provider, 10_000_000e18);
        vm.prank(provider);
        token.approve(address(staking), type(uint256).max);
        vm.prank(provider);
        staking.stake(10_000_000e18);
        vm.prank(provider);
        providers.register(Fixture.capabilities(), CID);
    }

    function _publish(uint16 creatorFeeBps, bool deterministic) internal returns (uint32 sourceId) {
        vm.prank(CREATOR);
        sourceId = sources.publish(
            keccak256("image"), CID, Fixture.requirements(MAX_RUNTIME, deterministic), creatorFeeBps, 0
        );
        sourceId_ = sourceId;
        uint32[] memory ids = new uint32[](1);
        ids[0] = sourceId;
        vm.prank(PROVIDER);
        providers.subscribe(ids);
        vm.prank(PROVIDER_2);
        providers.subscribe(ids);
    }

    function _setParams(uint16 protocolFeeBps, uint16 stakerShareBps) internal {
        MarketParams memory p = Fixture.defaultParams();
        p.protocolFeeBps = protocolFeeBps;
        p.stakerShareBps = stakerShareBps;
        market.setParams(p);
    }

    /// @dev Gives CLIENT a fee discount of `discountBps` through a one-tier table and a matching stake.
    function _discount(uint16 discountBps) internal {
        DiscountTier[] memory tiers = new DiscountTier[](1);
        tiers[0] = DiscountTier({minStake: 1e18, discountBps: discountBps});
        staking.setDiscountTiers(tiers);
        vm.prank(CLIENT);
        staking.stake(1e18);
    }

    function _submit(uint32 sourceId, uint96 maxPayment, uint80 pricePerSecond, uint8 replicas)
        internal
        returns (uint256 taskId)
    {
        TaskParams memory p =
            Fixture.task(sourceId, maxPayment, pricePerSecond, replicas, uint40(vm.getBlockTimestamp() + 1 days));
        vm.prank(CLIENT);
        taskId = market.submitTask(p);
    }

    function _snapshot() internal view returns (Deltas memory d) {
        d.provider = market.balanceOf(PROVIDER) + market.balanceOf(PROVIDER_2);
        d.client = market.balanceOf(CLIENT);
        d.creator = sourceId_ == 0 ? 0 : market.creatorFeesOf(sourceId_);
        d.stakers = market.pendingStakerFees();
        d.treasury = market.treasuryAccrued();
    }

    function _since(Deltas memory before) internal view returns (Deltas memory d) {
        Deltas memory current = _snapshot();
        d.provider = current.provider - before.provider;
        d.client = current.client - before.client;
        d.creator = current.creator - before.creator;
        d.stakers = current.stakers - before.stakers;
        d.treasury = current.treasury - before.treasury;
    }

    /// @dev The market holds Σ internal balances + Σ creator fees + `liveEscrow` + treasury + stakers' fees.
    function _assertMarketLedger(uint256 liveEscrow) internal view {
        uint256 owed = market.balanceOf(CLIENT) + market.balanceOf(CREATOR) + market.balanceOf(PROVIDER)
            + market.balanceOf(PROVIDER_2) + liveEscrow + market.treasuryAccrued() + market.pendingStakerFees();
        for (uint32 id = 1; id <= sources.sourceCount(); ++id) {
            owed += market.creatorFeesOf(id);
        }
        assertEq(token.balanceOf(address(market)), owed, "market token balance != what it owes");
    }

    /// @dev One fuzzed k = 1 settlement.
    struct Case {
        uint16 protocolFeeBps;
        uint16 stakerShareBps;
        uint16 creatorFeeBps;
        uint16 discountBps;
        uint96 maxPayment;
        uint80 pricePerSecond;
        uint32 runtimeSec;
        uint32 elapsed;
    }

    /// @notice payment = provider + rebate + creator + stakers + treasury, each by its formula, for any rates.
    function testFuzz_paymentSplitSumsToPayment(Case memory c) public {
        c.protocolFeeBps = uint16(bound(c.protocolFeeBps, 0, 2_000));
        c.stakerShareBps = uint16(bound(c.stakerShareBps, 0, 5_000));
        c.creatorFeeBps = uint16(bound(c.creatorFeeBps, 0, sources.MAX_CREATOR_FEE_BPS()));
        c.discountBps = uint16(bound(c.discountBps, 0, staking.MAX_DISCOUNT_BPS()));
        c.maxPayment = uint96(bound(c.maxPayment, 1, MAX_PAYMENT));
        if (c.pricePerSecond % 4 == 0) c.pricePerSecond = 0; // fixed price a quarter of the time
        else c.pricePerSecond = uint80(bound(c.pricePerSecond, 1, uint256(c.maxPayment)));
        c.elapsed = uint32(bound(c.elapsed, 0, MAX_RUNTIME));
        _setParams(c.protocolFeeBps, c.stakerShareBps);
        if (c.discountBps != 0) _discount(c.discountBps);
        uint32 sourceId = _publish(c.creatorFeeBps, false);

        uint256 taskId = _submit(sourceId, c.maxPayment, c.pricePerSecond, 1);
        vm.prank(PROVIDER);
        market.claimTask(taskId);
        vm.warp(vm.getBlockTimestamp() + c.elapsed);
        Deltas memory before = _snapshot();
        vm.prank(PROVIDER);
        market.submitResult(taskId, DIGEST, CID, CID, c.runtimeSec);
        _assertSplit(c, _since(before));
        _assertMarketLedger(0);
    }

    function _assertSplit(Case memory c, Deltas memory d) internal pure {
        uint256 runtime = _min(c.runtimeSec, c.elapsed);
        uint256 payment =
            c.pricePerSecond == 0 ? c.maxPayment : _min(c.maxPayment, uint256(c.pricePerSecond) * runtime);
        uint256 fee = payment * c.protocolFeeBps / BPS;
        uint256 rebate = fee * c.discountBps / BPS;
        uint256 net = fee - rebate;
        uint256 toCreator = net * c.creatorFeeBps / BPS;
        uint256 toStakers = net * c.stakerShareBps / BPS;
        uint256 refund = c.maxPayment - payment;

        assertEq(d.provider, payment - fee, "provider != payment - fee");
        assertEq(d.client, refund + rebate, "client != refund + rebate");
        assertEq(d.creator, toCreator, "creator fee");
        assertEq(d.stakers, toStakers, "stakers' share");
        assertEq(d.treasury, net - toCreator - toStakers, "treasury share");
        assertEq(
            d.provider + (d.client - refund) + d.creator + d.stakers + d.treasury,
            payment,
            "split does not sum to the payment"
        );
    }

    /// @notice Metering: payment = min(maxPayment, price × runtime) with runtime never above the time between
    /// the claim and the submission; over-reporting gains nothing and the rest goes back to the client.
    function testFuzz_meteringCapsPayment(uint96 maxPayment, uint80 pricePerSecond, uint32 reported, uint32 elapsed)
        public
    {
        maxPayment = uint96(bound(maxPayment, 1, MAX_PAYMENT));
        pricePerSecond = uint80(bound(pricePerSecond, 1, type(uint80).max));
        elapsed = uint32(bound(elapsed, 0, MAX_RUNTIME));
        uint32 sourceId = _publish(0, false);
        uint256 taskId = _submit(sourceId, maxPayment, pricePerSecond, 1);
        vm.prank(PROVIDER);
        market.claimTask(taskId);
        vm.warp(vm.getBlockTimestamp() + elapsed);
        uint256 clientBefore = market.balanceOf(CLIENT);
        uint64 runtimeBefore = providers.getReputation(PROVIDER).totalRuntimeSec;
        vm.prank(PROVIDER);
        market.submitResult(taskId, DIGEST, CID, CID, reported);

        uint256 runtime = reported < elapsed ? reported : elapsed;
        uint256 payment = _min(maxPayment, uint256(pricePerSecond) * runtime);
        assertLe(payment, maxPayment, "payment above maxPayment");
        assertLe(payment, uint256(pricePerSecond) * elapsed, "paid for more time than elapsed on chain");
        assertEq(
            providers.getReputation(PROVIDER).totalRuntimeSec - runtimeBefore, runtime, "runtime not capped"
        );
        assertEq(market.balanceOf(CLIENT) - clientBefore, maxPayment - payment, "client refund");
        _assertMarketLedger(0);
    }

    /// @notice k > 1: a replica's runtime is capped at its commit time, however late it reveals.
    function testFuzz_consensusPaysTheMedianOfCappedRuntimes(
        uint96 maxPayment,
        uint80 pricePerSecond,
        uint32 commit1,
        uint32 commit2,
        uint32 reported
    ) public {
        maxPayment = uint96(bound(maxPayment, 1, MAX_PAYMENT));
        pricePerSecond = uint80(bound(pricePerSecond, 1, uint256(maxPayment)));
        commit1 = uint32(bound(commit1, 0, MAX_RUNTIME));
        commit2 = uint32(bound(commit2, commit1, MAX_RUNTIME));
        uint256 taskId = _submit(_publish(0, true), maxPayment, pricePerSecond, 2);
        uint256 start = vm.getBlockTimestamp();
        vm.prank(PROVIDER);
        market.claimTask(taskId);
        vm.prank(PROVIDER_2);
        market.claimTask(taskId);
        _commitAt(taskId, PROVIDER, start + commit1);
        _commitAt(taskId, PROVIDER_2, start + commit2);

        vm.warp(vm.getBlockTimestamp() + 599); // reveal as late as the window allows
        uint256[3] memory before = [market.balanceOf(PROVIDER), market.balanceOf(PROVIDER_2), market.balanceOf(CLIENT)];
        _reveal(taskId, PROVIDER, reported);
        _reveal(taskId, PROVIDER_2, reported);

        // Each revealed runtime is capped by its commit time (≤ the limit here); both winners are paid for the
        // lower median of the two, the smaller.
        uint256 feeBps = market.getTask(taskId).feeBps;
        uint256 runtime = _min(_min(reported, commit1), _min(reported, commit2));
        uint256 pay = _min(maxPayment, uint256(pricePerSecond) * runtime);
        assertEq(market.balanceOf(PROVIDER) - before[0], pay - pay * feeBps / BPS, "replica 1 not capped");
        assertEq(market.balanceOf(PROVIDER_2) - before[1], pay - pay * feeBps / BPS, "replica 2 not capped");
        assertEq(market.balanceOf(CLIENT) - before[2], 2 * uint256(maxPayment) - 2 * pay, "client refund");
        _assertMarketLedger(0);
    }

    /// @dev Both replicas commit to the same output, each with its own salt (its address).
    function _commitAt(uint256 taskId, address provider, uint256 time) internal {
        vm.warp(time);
        bytes32 salt = bytes32(uint256(uint160(provider)));
        vm.prank(provider);
        market.commitResult(taskId, Fixture.commitment(taskId, provider, keccak256("output"), salt));
    }

    function _reveal(uint256 taskId, address provider, uint32 runtimeSec) internal {
        bytes32 salt = bytes32(uint256(uint160(provider)));
        vm.prank(provider);
        market.revealResult(taskId, keccak256("output"), salt, CID, CID, runtimeSec);
    }

    /// @notice collateral = max(minCollateral, maxPayment × collateralBps / 10000), quoted and locked alike.
    function testFuzz_collateralFormula(uint96 maxPayment, uint16 collateralBps, uint80 minCollateral) public {
        maxPayment = uint96(bound(maxPayment, 1, MAX_PAYMENT));
        collateralBps = uint16(bound(collateralBps, 1_000, 20_000));
        minCollateral = uint80(bound(minCollateral, 0, 1e24));
        MarketParams memory p = Fixture.defaultParams();
        p.collateralBps = collateralBps;
        p.minCollateral = minCollateral;
        market.setParams(p);

        uint256 expected = _max(minCollateral, uint256(maxPayment) * collateralBps / BPS);
        assertEq(market.collateralFor(maxPayment, 0), expected, "collateralFor");
        uint256 taskId = _submit(_publish(0, false), maxPayment, 0, 1);
        assertEq(market.getTask(taskId).collateral, expected, "task collateral");
        uint256 lockedBefore = staking.stakeOf(PROVIDER).locked;
        vm.prank(PROVIDER);
        market.claimTask(taskId);
        assertEq(staking.stakeOf(PROVIDER).locked - lockedBefore, expected, "locked at claim");
        vm.prank(PROVIDER);
        market.submitResult(taskId, DIGEST, CID, CID, 1);
        assertEq(staking.stakeOf(PROVIDER).locked, lockedBefore, "unlocked after settlement");
    }

    /// @notice A no-show loses its whole collateral: slashToClientBps of it to the client, the rest to the
    /// treasury, nothing created or lost.
    function testFuzz_noShowSlashSplit(uint96 maxPayment, uint16 slashToClientBps, uint32 late) public {
        maxPayment = uint96(bound(maxPayment, 1, MAX_PAYMENT));
        slashToClientBps = uint16(bound(slashToClientBps, 0, BPS));
        late = uint32(bound(late, 1, 1 days));
        MarketParams memory p = Fixture.defaultParams();
        p.slashToClientBps = slashToClientBps;
        market.setParams(p);
        uint256 taskId = _submit(_publish(0, false), maxPayment, 0, 1);
        vm.prank(PROVIDER);
        market.claimTask(taskId);
        uint40 dueAt = market.getSlots(taskId)[0].dueAt;
        vm.warp(uint256(dueAt) + late);

        uint256 amount = market.getTask(taskId).collateral;
        uint256 staked = staking.totalStaked();
        Deltas memory before = _snapshot();
        market.reopenSlot(taskId, 0);
        Deltas memory d = _since(before);
        uint256 toClient = amount * slashToClientBps / BPS;
        assertEq(staking.totalStaked(), staked - amount, "stake not slashed");
        assertEq(d.client, toClient, "client's share of the slash");
        assertEq(d.treasury, amount - toClient, "treasury's share of the slash");
        assertEq(providers.getReputation(PROVIDER).failed, 1, "failure not counted");
        _assertMarketLedger(maxPayment);
    }

    function _min(uint256 a, uint256 b) internal pure returns (uint256) {
        return a < b ? a : b;
    }

    function _max(uint256 a, uint256 b) internal pure returns (uint256) {
        return a > b ? a : b;
    }
}
