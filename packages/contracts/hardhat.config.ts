import { createRequire } from 'node:module'
import hardhatToolboxViem from '@nomicfoundation/hardhat-toolbox-viem'
import { configVariable, defineConfig } from 'hardhat/config'

const require = createRequire(import.meta.url)

// Hardhat cannot download compilers on machines without internet access, so the
// compiler is the `solc` npm package pinned to the same version.
const solc = {
  version: '0.8.30',
  path: require.resolve('solc/soljson.js'),
  settings: {
    optimizer: { enabled: true, runs: 200 },
    evmVersion: 'cancun',
    // The IR pipeline packs storage writes (no read-modify-write of fresh slots): about 3% less gas per lifecycle.
    viaIR: true,
  },
} as const

export default defineConfig({
  plugins: [hardhatToolboxViem],
  solidity: {
    // Hardhat 3 only builds npm contracts that are listed here; the governed module deploys OZ's timelock
    // and reads any ERC-20 asset through IERC20.
    npmFilesToBuild: [
      '@openzeppelin/contracts/governance/TimelockController.sol',
      '@openzeppelin/contracts/token/ERC20/IERC20.sol',
    ],
    profiles: {
      default: solc,
      production: solc,
    },
  },
  test: {
    solidity: {
      // `hardhat test solidity` runs the default campaign (set in the test files); CI can go deeper with
      // `hardhat test solidity --test-profile deep`.
      profiles: {
        default: {},
        deep: { fuzz: { runs: 5_000 }, invariant: { runs: 256, depth: 200 } },
      },
    },
  },
  paths: {
    tests: {
      solidity: './test/solidity',
      nodejs: './test/nodejs',
    },
  },
  networks: {
    hardhat: {
      type: 'edr-simulated',
      chainType: 'l1',
    },
    localhost: {
      type: 'http',
      chainType: 'l1',
      url: 'http://127.0.0.1:8545',
    },
    // A throwaway local node on any port (scripts/devnet.ts sets GRIDFORGE_DEVNET_URL).
    devnet: {
      type: 'http',
      chainType: 'l1',
      url: configVariable('GRIDFORGE_DEVNET_URL'),
    },
    // Any real network: set GRIDFORGE_RPC_URL and GRIDFORGE_DEPLOYER_KEY
    // (with `hardhat keystore set` or environment variables).
    custom: {
      type: 'http',
      chainType: 'l1',
      url: configVariable('GRIDFORGE_RPC_URL'),
      accounts: [configVariable('GRIDFORGE_DEPLOYER_KEY')],
    },
  },
})
