/** The local network's chain: a Hardhat devnet with Gridforge deployed, its wallets and its GRID. */
import type { Deployment } from '@gridforge/sdk'
import {
  type Chain,
  type Client,
  createWalletClient,
  erc20Abi,
  type Hex,
  type HttpTransport,
  http,
  nonceManager,
  type PublicActions,
  parseEther,
  parseUnits,
  publicActions,
  type WalletActions,
  type WalletRpcSchema,
} from 'viem'
import { type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts'
import { hardhat } from 'viem/chains'
import { startDevnet } from '../packages/contracts/scripts/devnet.js'

/** A wallet client of the local chain with the public actions: what the SDK's writes and reads take. */
export type LocalWallet = Client<
  HttpTransport,
  Chain,
  PrivateKeyAccount,
  WalletRpcSchema,
  WalletActions<Chain, PrivateKeyAccount> & PublicActions<HttpTransport, Chain, PrivateKeyAccount>
>

export interface LocalChain {
  rpcUrl: string
  chainId: 31337
  deployment: Deployment
  /** The devnet's funded accounts: #0 deployed everything. */
  privateKeys: readonly Hex[]
  /** A wallet of `privateKey` on this chain (a nonce manager, so that writes can overlap). */
  wallet(privateKey: Hex): LocalWallet
  /**
   * Sends each account `grid` GRID from the deployer, and 10 ETH for gas to an account that is not
   * one of the devnet's.
   */
  fund(accounts: readonly Hex[], grid: string): Promise<void>
  /** Stops the chain; idempotent. */
  stop(): Promise<void>
}

function localWallet(rpcUrl: string, privateKey: Hex, pollingInterval: number): LocalWallet {
  return createWalletClient({
    account: privateKeyToAccount(privateKey, { nonceManager }),
    chain: { ...hardhat, id: 31337 as const },
    transport: http(rpcUrl),
    pollingInterval,
  }).extend(publicActions)
}

/**
 * Starts a Hardhat devnet on 127.0.0.1 with the contracts deployed by their Ignition modules, mining
 * a block every second.
 *
 * @example
 * const chain = await startLocalChain({ pollingInterval: 100 })
 * await chain.fund([address], '1000')
 * await chain.stop()
 */
export async function startLocalChain(parameters: {
  port?: number | undefined
  pollingInterval: number
}): Promise<LocalChain> {
  // A block a second, as on a real chain: the agents release held results two blocks after their
  // submission, and audit rounds move on chain time, neither of which a node mining only on
  // transactions would ever reach on a quiet network.
  const devnet = await startDevnet({ port: parameters.port, intervalMiningMs: 1_000 })
  const wallet = (privateKey: Hex) => localWallet(devnet.rpcUrl, privateKey, parameters.pollingInterval)
  const deployer = wallet(devnet.privateKeys[0] as Hex)
  return {
    rpcUrl: devnet.rpcUrl,
    chainId: 31337,
    deployment: devnet.deployment,
    privateKeys: devnet.privateKeys,
    wallet,
    async fund(accounts, grid) {
      const known = new Set(devnet.privateKeys.map((key) => privateKeyToAccount(key).address))
      for (const account of accounts) {
        if (!known.has(account)) {
          const hash = await deployer.sendTransaction({ to: account, value: parseEther('10') })
          await deployer.waitForTransactionReceipt({ hash })
        }
        const hash = await deployer.writeContract({
          address: devnet.deployment.contracts.token,
          abi: erc20Abi,
          functionName: 'transfer',
          args: [account, parseUnits(grid, 18)],
        })
        await deployer.waitForTransactionReceipt({ hash })
      }
    },
    stop: () => devnet.stop(),
  }
}
