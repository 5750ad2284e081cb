/**
 * The test chain (started by test/globalSetup.ts) and fresh, funded accounts
 * for each test, so test files can run in parallel on one chain without
 * sharing a nonce.
 */
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import path from 'node:path'
import {
  type Address,
  createPublicClient,
  createTestClient,
  createWalletClient,
  erc20Abi,
  type Hex,
  http,
  parseEther,
  parseUnits,
  publicActions,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { hardhat } from 'viem/chains'
import { inject } from 'vitest'
import { gridforgeActions } from '../src/clients/decorators/gridforge.js'
import type { Deployment } from '../src/types/deployment.js'

/** The chain every SDK test runs on. */
export function devnet() {
  return inject('devnet')
}

/** The deployment on the test chain. */
export function deployment(): Deployment {
  return devnet().deployment
}

/** A transport to the test chain. */
export function transport() {
  return http(devnet().rpcUrl)
}

/** Hardhat's test actions (mine, increaseTime, setBalance, snapshot) on the test chain. */
export function testClient() {
  return createTestClient({ chain: hardhat, mode: 'hardhat', transport: transport() })
}

/**
 * The deployer (Hardhat account 0, owner of every contract and of the whole
 * GRID supply). It is an unlocked node account, so the node assigns its nonces
 * and parallel test files can all use it.
 */
export function deployerClient() {
  return createWalletClient({
    account: privateKeyToAccount(devnet().privateKeys[0]!).address,
    chain: hardhat,
    transport: transport(),
  }).extend(publicActions)
}

/**
 * A new account (or `privateKey`'s) with `eth` ETH and `grid` GRID (token units), as a wallet +
 * public client extended with the Gridforge actions.
 */
export async function fundedClient({
  grid = '1000',
  eth = '100',
  privateKey = generatePrivateKey(),
}: {
  grid?: string
  eth?: string
  privateKey?: `0x${string}` | undefined
} = {}) {
  const account = privateKeyToAccount(privateKey)
  await testClient().setBalance({ address: account.address, value: parseEther(eth) })
  if (grid !== '0') {
    const deployer = deployerClient()
    const hash = await deployer.writeContract({
      address: deployment().contracts.token,
      abi: erc20Abi,
      functionName: 'transfer',
      args: [account.address, parseUnits(grid, 18)],
    })
    await deployer.waitForTransactionReceipt({ hash })
  }
  return createWalletClient({ account, chain: hardhat, transport: transport() })
    .extend(publicActions)
    .extend(gridforgeActions({ deployment: deployment() }))
}

/** Multicall3's canonical address, where {@link installMulticall3} places it. */
export const multicall3Address: Address = '0xcA11bde05977b3631167028862bE2a173976CA11'

/**
 * Places Multicall3's runtime code at its canonical address on the test chain
 * (Hardhat has none), from the creation code viem ships (it has no public
 * export), and returns the address: for a client whose chain names it.
 */
export async function installMulticall3(): Promise<Address> {
  const viemEntry = createRequire(import.meta.url).resolve('viem')
  const constants = path.join(path.dirname(viemEntry), '..', '_esm', 'constants', 'contracts.js')
  const creation = /multicall3Bytecode\s*=\s*'(0x[0-9a-f]+)'/.exec(await readFile(constants, 'utf8'))?.[1]
  if (creation === undefined) throw new Error('Multicall3 creation code not found in viem')
  const { data } = await createPublicClient({ chain: hardhat, transport: transport() }).call({
    data: creation as Hex,
  })
  if (data === undefined) throw new Error('Multicall3 creation returned no code')
  await testClient().setCode({ address: multicall3Address, bytecode: data })
  return multicall3Address
}
