import { createRequire } from 'node:module'
import hardhatIgnitionViem from '@nomicfoundation/hardhat-ignition-viem'
import hardhatKeystore from '@nomicfoundation/hardhat-keystore'
import hardhatVerify from '@nomicfoundation/hardhat-verify'
import { configVariable, defineConfig } from 'hardhat/config'

const require = createRequire(import.meta.url)

// The settings @gridforge/contracts is built and tested with, for `hardhat compile` (the default
// profile) and `hardhat ignition deploy` (the production profile, which Hardhat builds one contract
// at a time). The compiler is the `solc` npm package (solc 0.8.30 as WebAssembly): nothing to download.
const solc = {
  version: '0.8.30',
  path: require.resolve('solc/soljson.js'),
  settings: { optimizer: { enabled: true, runs: 200 }, evmVersion: 'cancun', viaIR: true },
} as const

export default defineConfig({
  plugins: [hardhatIgnitionViem, hardhatKeystore, hardhatVerify],
  solidity: {
    // Hardhat 3 builds npm contracts only when listed: the Ignition modules of @gridforge/contracts
    // name these contracts, so their artifacts must exist in this project.
    npmFilesToBuild: [
      '@gridforge/contracts/contracts/GridToken.sol',
      '@gridforge/contracts/contracts/SourceRegistry.sol',
      '@gridforge/contracts/contracts/Staking.sol',
      '@gridforge/contracts/contracts/ProviderRegistry.sol',
      '@gridforge/contracts/contracts/TaskAudits.sol',
      '@gridforge/contracts/contracts/TaskMarket.sol',
      '@gridforge/contracts/contracts/LeaseMarket.sol',
      // The timelock-governed module (ignition/modules/Gridforge.ts) also deploys OpenZeppelin's
      // TimelockController and reads the asset through IERC20.
      '@openzeppelin/contracts/governance/TimelockController.sol',
      '@openzeppelin/contracts/token/ERC20/IERC20.sol',
    ],
    profiles: { default: solc, production: solc },
  },
  networks: {
    // Your network. Set both variables with `hardhat keystore set <name>` (encrypted on disk) or as
    // environment variables. The key only pays gas: the deployer owns the local module's contracts,
    // and gives up every role in the governed one.
    custom: {
      type: 'http',
      chainType: 'l1',
      url: configVariable('GRIDFORGE_DEPLOY_RPC_URL'),
      accounts: [configVariable('GRIDFORGE_DEPLOY_KEY')],
    },
  },
})
