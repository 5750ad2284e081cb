// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {GridToken} from "../../contracts/GridToken.sol";
import {LeaseMarket} from "../../contracts/LeaseMarket.sol";
import {Staking} from "../../contracts/Staking.sol";
import {ProviderRegistry} from "../../contracts/ProviderRegistry.sol";
import {SourceRegistry} from "../../contracts/SourceRegistry.sol";
import {Lease, LeaseParams, LeaseRequest, LeaseStatus} from "../../contracts/interfaces/ILeaseMarket.sol";
import {ITaskMarket} from "../../contracts/interfaces/ITaskMarket.sol";
import {Fixture, System} from "./Fixture.sol";
import {TestBase} from "./Vm.sol";

/// @title Lease handler
/// @notice Random sequences of every lease action by two renters and two providers, with chain time moving.
/// Acknowledgements are signed by the renters' session key with any `servedSec` the chain could accept, so the
/// campaign explores what a provider can redeem, not only what an honest renter would sign.
contract LeaseHandler is TestBase {
    uint256 internal constant SESSION_KEY = 0xA11CE;
    uint256 internal constant ACTORS = 4;

    GridToken public token;
    Staking public staking;
    ProviderRegistry public providers;
    LeaseMarket public leases;
    address public sessionSigner;
    address[ACTORS] internal _actors;
    uint32 internal _sourceId;

    constructor() {
        System memory s = Fixture.deploy(Fixture.defaultParams(), address(0xFEE));
        token = s.token;
        staking = s.staking;
        providers = s.providers;
        leases = new LeaseMarket(
            ITaskMarket(address(s.market)),
            address(this),
            LeaseParams({
                protocolFeeBps: 500,
                ackGrace: 300,
                offlineAfter: 900,
                responseWindow: 600,
                claimWindow: 3_600,
                noticePeriod: 3_600
            })
        );
        staking.setLeaseMarket(address(leases));
        sessionSigner = vm.addr(SESSION_KEY);
        _sourceId = s.sources.publish(
            keccak256("jupyter"), "bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy",
            Fixture.requirements(3_600, false), 0, 0, 0, 0
        );
        for (uint256 i; i < ACTORS; ++i) {
            address actor = address(uint160(0x1000 + i));
            _actors[i] = actor;
            token.transfer(actor, 1_000_000e18);
            vm.startPrank(actor);
            token.approve(address(leases), type(uint256).max);
            // Actors 2 and 3 are providers.
            if (i >= 2) {
                token.approve(address(staking), type(uint256).max);
                staking.stake(10_000e18);
                providers.register(Fixture.capabilities(), "bafkreibm6jg3ux5qumhcn2b3flc3tyu6dmlb4xa7u5bf44yegnrjhc4yeq");
                uint32[] memory ids = new uint32[](1);
                ids[0] = _sourceId;
                providers.subscribe(ids);
            }
            vm.stopPrank();
        }
    }

    function actors() external view returns (address[ACTORS] memory) {
        return _actors;
    }

    function provider(uint256 i) public view returns (address) {
        return _actors[2 + i % 2];
    }

    // ─── Actions ───

    function request(uint256 renterSeed, uint256 price, uint256 duration, uint256 deposit, uint256 penalty, uint256 uptime)
        external
    {
        price = bound(price, 1, 1e16);
        LeaseRequest memory r = LeaseRequest({
            sourceId: _sourceId,
            maxPricePerSec: uint80(price),
            duration: uint40(bound(duration, 1, 30 days)),
            deposit: uint96(bound(deposit, price * 300, price * 40 days)),
            penaltySec: uint24(bound(penalty, 0, 7 days)),
            minUptimeBps: uint16(bound(uptime, 0, 10_000)),
            ackSigner: sessionSigner,
            acceptBy: uint40(vm.getBlockTimestamp() + 1 days)
        });
        vm.prank(_actors[renterSeed % 2]);
        leases.requestLease(r);
    }

    function accept(uint256 leaseSeed, uint256 providerSeed, uint256 price) external {
        uint256 id = _lease(leaseSeed);
        if (id == 0) return;
        Lease memory l = leases.getLease(id);
        vm.prank(provider(providerSeed));
        try leases.acceptLease(id, uint80(bound(price, 1, l.pricePerSec))) {} catch {}
    }

    /// @dev Any acknowledgement the chain could accept: `at` between the last proof and now, `servedSec` between
    /// what was redeemed and the time since the start.
    function redeem(uint256 leaseSeed, uint256 atSeed, uint256 servedSeed, bool byProvider) external {
        uint256 id = _lease(leaseSeed);
        if (id == 0) return;
        Lease memory l = leases.getLease(id);
        if (l.status != LeaseStatus.Active) return;
        (uint40 at, uint40 served) = _ack(l, atSeed, servedSeed);
        bytes memory signature = _sign(id, served, at);
        vm.prank(byProvider ? l.provider : l.renter);
        try leases.redeemUsage(id, served, at, signature) {} catch {}
    }

    function close(uint256 leaseSeed) external {
        uint256 id = _lease(leaseSeed);
        if (id == 0) return;
        vm.prank(leases.getLease(id).renter);
        try leases.closeLease(id) {} catch {}
    }

    function topUp(uint256 leaseSeed, uint256 amount) external {
        uint256 id = _lease(leaseSeed);
        if (id == 0) return;
        vm.prank(leases.getLease(id).renter);
        try leases.topUp(id, bound(amount, 1, 100e18)) {} catch {}
    }

    function extend(uint256 leaseSeed, uint256 extra) external {
        uint256 id = _lease(leaseSeed);
        if (id == 0) return;
        vm.prank(leases.getLease(id).renter);
        try leases.extend(id, uint40(bound(extra, 1, 30 days))) {} catch {}
    }

    function report(uint256 leaseSeed) external {
        uint256 id = _lease(leaseSeed);
        if (id == 0) return;
        vm.prank(leases.getLease(id).renter);
        try leases.reportOffline(id) {} catch {}
    }

    function notice(uint256 leaseSeed) external {
        uint256 id = _lease(leaseSeed);
        if (id == 0) return;
        vm.prank(leases.getLease(id).provider);
        try leases.giveNotice(id) {} catch {}
    }

    function endForSilence(uint256 leaseSeed, uint256 atSeed, uint256 servedSeed, bool withAck) external {
        uint256 id = _lease(leaseSeed);
        if (id == 0) return;
        Lease memory l = leases.getLease(id);
        if (l.status != LeaseStatus.Active) return;
        vm.prank(l.provider);
        if (!withAck) {
            try leases.endForSilence(id, 0, 0, "") {} catch {}
            return;
        }
        (uint40 at, uint40 served) = _ack(l, atSeed, servedSeed);
        bytes memory signature = _sign(id, served, at);
        try leases.endForSilence(id, served, at, signature) {} catch {}
    }

    function settle(uint256 leaseSeed, uint256 callerSeed) external {
        uint256 id = _lease(leaseSeed);
        if (id == 0) return;
        vm.prank(_actors[callerSeed % ACTORS]);
        try leases.settleLease(id) {} catch {}
    }

    function withdraw(uint256 actorSeed) external {
        address actor = _actors[actorSeed % ACTORS];
        uint256 balance = leases.balanceOf(actor);
        if (balance == 0) return;
        vm.prank(actor);
        leases.withdrawTo(actor, balance);
    }

    function warp(uint256 seconds_) external {
        vm.warp(vm.getBlockTimestamp() + bound(seconds_, 1, 12 hours));
    }

    // ─── Helpers ───

    function sign(uint256 id, uint40 served, uint40 at) external view returns (bytes memory) {
        return _sign(id, served, at);
    }

    function _sign(uint256 id, uint40 served, uint40 at) internal view returns (bytes memory) {
        (uint8 v, bytes32 r, bytes32 s) = vm.sign(SESSION_KEY, leases.usageDigest(id, served, at));
        return abi.encodePacked(r, s, v);
    }

    function _ack(Lease memory l, uint256 atSeed, uint256 servedSeed) internal view returns (uint40 at, uint40 served) {
        uint256 now_ = vm.getBlockTimestamp();
        uint256 from = l.lastProofAt > l.startedAt ? l.lastProofAt : l.startedAt;
        at = uint40(bound(atSeed, from, now_ > from ? now_ : from));
        served = uint40(bound(servedSeed, l.servedSec, at - l.startedAt > l.servedSec ? at - l.startedAt : l.servedSec));
    }

    function _lease(uint256 seed) internal view returns (uint256) {
        uint256 count = leases.leaseCount();
        return count == 0 ? 0 : 1 + seed % count;
    }
}

/// @title Lease invariants
/// @notice ILeaseMarket's ledger always balances (tokens = balances + deposits of leases not settled + fees),
/// collateral locked in Staking is exactly what active leases hold, a settled lease holds nothing, and after any
/// history every lease can be settled by someone and every token withdrawn.
contract LeaseInvariantsTest is TestBase {
    struct FuzzSelector {
        address addr;
        bytes4[] selectors;
    }

    LeaseHandler internal handler;
    LeaseMarket internal leases;
    GridToken internal token;
    Staking internal staking;

    function setUp() public {
        handler = new LeaseHandler();
        leases = handler.leases();
        token = handler.token();
        staking = handler.staking();
    }

    function targetContracts() public view returns (address[] memory targets) {
        targets = new address[](1);
        targets[0] = address(handler);
    }

    function targetSelectors() public view returns (FuzzSelector[] memory targets) {
        targets = new FuzzSelector[](1);
        bytes4[] memory selectors = new bytes4[](14);
        selectors[0] = LeaseHandler.request.selector;
        selectors[1] = LeaseHandler.accept.selector;
        selectors[2] = LeaseHandler.redeem.selector;
        selectors[3] = LeaseHandler.close.selector;
        selectors[4] = LeaseHandler.topUp.selector;
        selectors[5] = LeaseHandler.extend.selector;
        selectors[6] = LeaseHandler.report.selector;
        selectors[7] = LeaseHandler.notice.selector;
        selectors[8] = LeaseHandler.endForSilence.selector;
        selectors[9] = LeaseHandler.settle.selector;
        selectors[10] = LeaseHandler.withdraw.selector;
        selectors[11] = LeaseHandler.warp.selector;
        selectors[12] = LeaseHandler.accept.selector;
        selectors[13] = LeaseHandler.redeem.selector;
        targets[0] = FuzzSelector({addr: address(handler), selectors: selectors});
    }

    /**
     * hardhat-config: default.invariant.runs = 32
     * hardhat-config: default.invariant.depth = 60
     */
    function invariant_leaseLedger() public view {
        uint256 deposits;
        uint256 count = leases.leaseCount();
        for (uint256 id = 1; id <= count; ++id) {
            Lease memory l = leases.getLease(id);
            if (l.status == LeaseStatus.Settled) assertEq(l.deposit, 0, "a settled lease holds a deposit");
            else deposits += l.deposit;
        }
        assertEq(
            token.balanceOf(address(leases)),
            _balances() + deposits + leases.feesAccrued(),
            "lease market tokens != balances + deposits + fees"
        );
    }

    /**
     * hardhat-config: default.invariant.runs = 32
     * hardhat-config: default.invariant.depth = 60
     */
    function invariant_collateralMatchesActiveLeases() public view {
        for (uint256 p; p < 2; ++p) {
            address who = handler.provider(p);
            uint256 expected;
            uint256 count = leases.leaseCount();
            for (uint256 id = 1; id <= count; ++id) {
                Lease memory l = leases.getLease(id);
                if (l.status == LeaseStatus.Active && l.provider == who) expected += uint256(l.pricePerSec) * l.penaltySec;
            }
            assertEq(staking.stakeOf(who).locked, expected, "locked stake != collateral of active leases");
        }
    }

    /// @dev The handler's actions do what they say (a campaign whose calls all reverted would prove nothing).
    function test_handlerRunsALeaseToItsEnd() public {
        handler.request(0, 1e15, 1 days, 10e18, 3_600, 9_500);
        handler.accept(0, 0, 1e15);
        Lease memory l = leases.getLease(1);
        assertTrue(l.status == LeaseStatus.Active, "not accepted");
        handler.warp(600);
        // In range, bound() keeps its input: at = start + 600, servedSec = 600.
        handler.redeem(0, uint256(l.startedAt) + 600, 600, true);
        assertEq(leases.getLease(1).servedSec, 600, "not redeemed");
        handler.close(0);
        handler.settle(0, 2); // the provider (actor 2) settles at once after the end
        assertTrue(leases.getLease(1).status == LeaseStatus.Settled, "not settled");
        assertEq(leases.balanceOf(handler.provider(0)), 600 * 1e15 * 9_500 / 10_000, "provider not paid");
    }

    /// @dev After any history: every lease settles (once its windows pass, by anyone) and every token leaves.
    function afterInvariant() public {
        vm.warp(vm.getBlockTimestamp() + 400 days);
        uint256 count = leases.leaseCount();
        for (uint256 id = 1; id <= count; ++id) {
            if (leases.getLease(id).status != LeaseStatus.Settled) leases.settleLease(id);
            assertTrue(leases.getLease(id).status == LeaseStatus.Settled, "a lease cannot be settled");
        }
        address[4] memory actors = handler.actors();
        for (uint256 i; i < actors.length; ++i) {
            uint256 balance = leases.balanceOf(actors[i]);
            if (balance == 0) continue;
            vm.prank(actors[i]);
            leases.withdrawTo(actors[i], balance);
        }
        if (leases.feesAccrued() != 0) leases.releaseFees();
        assertEq(token.balanceOf(address(leases)), 0, "tokens stuck in the lease market");
        for (uint256 p; p < 2; ++p) {
            assertEq(staking.stakeOf(handler.provider(p)).locked, 0, "collateral still locked");
        }
    }

    function _balances() internal view returns (uint256 sum) {
        address[4] memory actors = handler.actors();
        for (uint256 i; i < actors.length; ++i) {
            sum += leases.balanceOf(actors[i]);
        }
    }
}
