/**
 * A wagmi config per test: the test chain, a `localAccount` connector with a
 * fresh funded key (so test files can run in parallel on one chain without
 * sharing a nonce), polling every 100 ms, no storage. Lives outside src/, so
 * it is never published.
 */
import { getDeployment } from '@gridforge/contracts'
import { type Deployment, gridforgeActions } from '@gridforge/sdk'
import { connect, createConfig, http } from '@wagmi/core'
import {
  type Chain,
  createTestClient,
  createWalletClient,
  erc20Abi,
  type Hex,
  parseEther,
  parseUnits,
  publicActions,
  type Transport,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { hardhat } from 'viem/chains'
import { devnet, fundedClient } from '../../sdk/test/chain.js'
import { localAccount } from '../src/connectors/localAccount.js'

/** A chain with Gridforge deployed: the shared test chain (`devnet()`) or one a test file starts for itself. */
export interface TestChain {
  rpcUrl: string
  deployment: Deployment
  privateKeys: readonly Hex[]
}

export interface TestConfigOptions {
  /** GRID (token units) the account starts with (default '1000'). */
  grid?: string
  /** Connect the account before returning (default true). */
  connected?: boolean
  /** The transport to the chain (default `http(rpcUrl)`), e.g. a request-counting one. */
  transport?: Transport
  /** More chains besides Hardhat, with their transports (e.g. one without a Gridforge deployment). */
  otherChains?: readonly { chain: Chain; transport: Transport }[]
  /** The chain (default: the shared test chain). */
  chain?: TestChain
}

/**
 * A wagmi config whose only connector is `localAccount` with a new key
 * holding 100 ETH and `grid` GRID, connected unless `connected: false`.
 * `client` is the same account as a wallet + public client with the SDK
 * actions bound to the chain's deployment.
 */
export async function testConfig({
  grid = '1000',
  connected = true,
  transport,
  otherChains = [],
  chain,
}: TestConfigOptions = {}) {
  const privateKey = generatePrivateKey()
  const rpcUrl = chain?.rpcUrl ?? devnet().rpcUrl
  const client =
    chain === undefined
      ? await fundedClient({ grid, privateKey })
      : await fundOnChain(chain, { grid, privateKey })
  const config = createConfig({
    chains: [hardhat, ...otherChains.map((other) => other.chain)],
    connectors: [localAccount({ privateKey })],
    transports: {
      [hardhat.id]: transport ?? http(rpcUrl),
      ...Object.fromEntries(otherChains.map((other) => [other.chain.id, other.transport])),
    },
    pollingInterval: 100,
    storage: null,
    multiInjectedProviderDiscovery: false,
  })
  const connector = config.connectors[0]
  if (connector === undefined) throw new Error('testConfig: no connector')
  if (connected) await connect(config, { connector })
  return { config, connector, privateKey, address: client.account.address, client }
}

/**
 * Checks that `chain` has Gridforge where `@gridforge/contracts` says it is on
 * 31337, so that hooks used without `deployment` talk to it.
 */
export function assertKnownDeployment(chain: { deployment: Deployment }) {
  const known = getDeployment(31337).contracts
  const { contracts } = chain.deployment
  if (contracts.market !== known.market || contracts.staking !== known.staking)
    throw new Error(
      `the test chain's deployment (market ${contracts.market}) is not the known 31337 one (${known.market})`,
    )
}

/** Gives a new account on `chain` ETH and GRID from the deployer (account 0). */
export async function fundOnChain(
  chain: TestChain,
  { grid = '1000', privateKey = generatePrivateKey() }: { grid?: string; privateKey?: Hex } = {},
) {
  const transport = http(chain.rpcUrl)
  const account = privateKeyToAccount(privateKey)
  await createTestClient({ chain: hardhat, mode: 'hardhat', transport }).setBalance({
    address: account.address,
    value: parseEther('100'),
  })
  const deployerKey = chain.privateKeys[0]
  if (deployerKey === undefined) throw new Error('fundOnChain: no deployer key')
  const deployer = createWalletClient({
    account: privateKeyToAccount(deployerKey),
    chain: hardhat,
    transport,
  }).extend(publicActions)
  if (grid !== '0') {
    await deployer.waitForTransactionReceipt({
      hash: await deployer.writeContract({
        address: chain.deployment.contracts.token,
        abi: erc20Abi,
        functionName: 'transfer',
        args: [account.address, parseUnits(grid, 18)],
      }),
    })
  }
  return createWalletClient({ account, chain: hardhat, transport })
    .extend(publicActions)
    .extend(gridforgeActions({ deployment: chain.deployment }))
}
