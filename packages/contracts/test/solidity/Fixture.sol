// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {GridToken} from "../../contracts/GridToken.sol";
import {ProviderRegistry} from "../../contracts/ProviderRegistry.sol";
import {SourceRegistry} from "../../contracts/SourceRegistry.sol";
import {Staking} from "../../contracts/Staking.sol";
import {TaskAudits} from "../../contracts/TaskAudits.sol";
import {TaskMarket} from "../../contracts/TaskMarket.sol";
import {Capabilities} from "../../contracts/interfaces/IProviderRegistry.sol";
import {ISourceRegistry, Requirements} from "../../contracts/interfaces/ISourceRegistry.sol";
import {MarketParams, TaskParams} from "../../contracts/interfaces/ITaskMarket.sol";

/// @notice The whole system, deployed and wired directly (no Ignition), owned by the deploying contract.
struct System {
    GridToken token;
    SourceRegistry sources;
    Staking staking;
    ProviderRegistry providers;
    TaskMarket market;
}

/// @notice Deployment and the values every suite shares.
library Fixture {
    uint256 internal constant INITIAL_SUPPLY = 1_000_000_000e18;
    uint40 internal constant UNBONDING_PERIOD = 7 days;
    uint256 internal constant MIN_PROVIDER_STAKE = 100e18;

    /// @notice DESIGN.md §2.3 defaults (the same as ignition/modules/core.ts).
    function defaultParams() internal pure returns (MarketParams memory) {
        return MarketParams({
            protocolFeeBps: 500,
            stakerShareBps: 1_200,
            collateralBps: 5_000,
            slashToClientBps: 5_000,
            revealWindow: 600,
            claimGrace: 300,
            minCollateral: 0,
            auditBps: 1_000,
            auditJoinWindow: 120
        });
    }

    /// @notice Deploys token, source registry and market (which deploys Staking and ProviderRegistry with
    /// itself as their market); `address(this)` of the caller owns them all, holds the whole supply, and
    /// `treasury` receives the treasury's fees.
    function deploy(MarketParams memory params, address treasury) internal returns (System memory s) {
        s.token = new GridToken(address(this), INITIAL_SUPPLY);
        s.sources = new SourceRegistry();
        s.market = new TaskMarket(
            IERC20(address(s.token)),
            ISourceRegistry(address(s.sources)),
            treasury,
            address(this),
            params,
            UNBONDING_PERIOD,
            MIN_PROVIDER_STAKE,
            new TaskAudits()
        );
        s.staking = Staking(s.market.staking());
        s.providers = ProviderRegistry(s.market.providers());
    }

    /// @notice Requirements every test provider meets.
    function requirements(uint32 maxRuntimeSec, bool deterministic) internal pure returns (Requirements memory) {
        return Requirements({
            minGpus: 1,
            minVramMiB: 16_000,
            minComputeCapability: 80,
            maxRuntimeSec: maxRuntimeSec,
            deterministic: deterministic
        });
    }

    /// @notice A host that meets requirements().
    function capabilities() internal pure returns (Capabilities memory) {
        return Capabilities({gpuCount: 8, vramMiB: 81_920, computeCapability: 90, cpuCores: 64, memoryMiB: 524_288});
    }

    /// @notice Task parameters with no extra requirements or gates.
    function task(uint32 sourceId, uint96 maxPayment, uint80 pricePerSecond, uint8 replicas, uint40 deadline)
        internal
        pure
        returns (TaskParams memory p)
    {
        p.sourceId = sourceId;
        p.inputCID = "bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi";
        p.maxPayment = maxPayment;
        p.pricePerSecond = pricePerSecond;
        p.replicas = replicas;
        p.deadline = deadline;
    }

    /// @notice The commitment the market checks at reveal.
    function commitment(uint256 taskId, address provider, bytes32 digest, bytes32 salt)
        internal
        pure
        returns (bytes32)
    {
        return keccak256(abi.encode(taskId, provider, digest, salt));
    }
}
