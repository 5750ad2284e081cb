// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
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
    /// @notice The client's X25519 public key the tasks name (TaskParams.resultKey): any 32 bytes do here.
    bytes32 internal constant RESULT_KEY = keccak256("result key");

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

    /// @notice Task parameters with no extra requirements or gates, naming RESULT_KEY as the client's key.
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
        p.resultKey = RESULT_KEY;
    }

    /// @notice TaskAudits._ticket, ported: the stake-weighted ticket −log2(u) / stake of `account` (lower wins),
    /// u = (top 64 bits of keccak256(abi.encode(seed, account))) + 1, with 32 fractional bits shifted by 96.
    function ticket(bytes32 seed, address account, uint256 staked) internal pure returns (uint256) {
        if (staked == 0) return type(uint256).max;
        uint256 u = (uint256(keccak256(abi.encode(seed, account))) >> 192) + 1;
        return (((64 << 32) - log2(u)) << 96) / staked;
    }

    /// @notice TaskAudits._log2, ported: log2(x) for 1 ≤ x ≤ 2^64 with 32 fractional bits.
    function log2(uint256 x) internal pure returns (uint256 result) {
        uint256 n = Math.log2(x);
        result = n << 32;
        uint256 y = (x << 64) >> n;
        for (uint256 bit = 1 << 31; bit != 0; bit >>= 1) {
            y = (y * y) >> 64;
            if (y >= 2 << 64) {
                y >>= 1;
                result |= bit;
            }
        }
    }

    /// @notice The seed of the race for the seats of `taskId`: the hash of the block after its submission.
    function raceSeed(bytes32 seedHash, uint256 taskId) internal pure returns (bytes32) {
        return keccak256(abi.encode(seedHash, taskId));
    }

    /// @notice The commitment the market checks at reveal. Replicas commit to the seal of their output's digest
    /// (libraries/Results.sol, sealOf), auditors to the digest they found.
    function commitment(uint256 taskId, address provider, bytes32 digest, bytes32 salt)
        internal
        pure
        returns (bytes32)
    {
        return keccak256(abi.encode(taskId, provider, digest, salt));
    }
}
