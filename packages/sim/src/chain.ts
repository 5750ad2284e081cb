/**
 * The in-process chain a simulation runs on: Hardhat 3's EDR network with the contracts deployed by the
 * `LocalGridforge` Ignition module, so the simulator settles every task with the real contracts.
 *
 * The Hardhat project is the contracts package itself (its config and the artifacts `pnpm build` compiled):
 * nothing is compiled twice and the bytecode is the one the tests and the gas bench use.
 */
import { createRequire } from 'node:module'
import path from 'node:path'
import { localGridforgeModule } from '@gridforge/contracts/ignition'
import { createHardhatRuntimeEnvironment, importUserConfig, resolveHardhatConfigPath } from 'hardhat/hre'
import type { HookContext } from 'hardhat/types/hooks'
import type { NetworkConnection } from 'hardhat/types/network'
import type { JsonRpcRequest, JsonRpcResponse } from 'hardhat/types/providers'
import type { Address, EIP1193Provider, Hex } from 'viem'
import { mnemonicToAccount, privateKeyToAddress } from 'viem/accounts'

/** The genesis block's time: fixed, so that block hashes do not depend on when the simulation runs. */
const GENESIS_DATE = '2026-01-01T00:00:00Z'

/** Hardhat's default accounts: this mnemonic, `accountCount` accounts, 10,000 ETH each. */
const mnemonic = 'test test test test test test test test test test test junk'

/** What the simulator uses of hardhat-ignition-viem's `connection.ignition`. */
interface IgnitionViem {
  deploy(
    module: typeof localGridforgeModule,
    options: { displayUi: boolean },
  ): Promise<
    Record<'token' | 'sources' | 'staking' | 'providers' | 'market' | 'leases', { address: Address }>
  >
}

export interface Chain {
  /** The EIP-1193 provider of the in-process chain. */
  provider: EIP1193Provider
  /** Addresses of the deployed contracts. */
  contracts: {
    token: Address
    sources: Address
    staking: Address
    providers: Address
    market: Address
    /** The lease market (`LeaseMarket`), beside the task market. */
    leases: Address
  }
  /** The funded accounts; account 0 deployed and owns everything and holds the whole GRID supply. */
  accounts: readonly Address[]
  /** Private keys of `accounts`, in the same order. */
  privateKeys: readonly Hex[]
  /** Saves the chain's state; `revert(id)` goes back to it (once per id). */
  snapshot(): Promise<Hex>
  revert(id: Hex): Promise<void>
  close(): Promise<void>
}

/** A network hook that mines each transaction sent one second after the last block. */
function pinTimestamps(provider: EIP1193Provider) {
  return {
    async onRequest<T extends string>(
      context: HookContext,
      connection: NetworkConnection<T>,
      request: JsonRpcRequest,
      next: (
        context: HookContext,
        connection: NetworkConnection<T>,
        request: JsonRpcRequest,
      ) => Promise<JsonRpcResponse>,
    ): Promise<JsonRpcResponse> {
      if (request.method === 'eth_sendTransaction' || request.method === 'eth_sendRawTransaction') {
        const latest = await provider.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })
        const time = Number(latest?.timestamp ?? 0) + 1
        await provider.request({ method: 'evm_setNextBlockTimestamp' as never, params: [time] as never })
      }
      return next(context, connection, request)
    },
  }
}

/** Starts an in-process chain with `accountCount` funded accounts and deploys Gridforge on it. */
export async function startChain({ accountCount }: { accountCount: number }): Promise<Chain> {
  const require = createRequire(import.meta.url)
  const root = path.dirname(require.resolve('@gridforge/contracts/package.json'))
  const configPath = await resolveHardhatConfigPath(path.join(root, 'hardhat.config.ts'))
  const userConfig = await importUserConfig(configPath)
  const config = {
    ...userConfig,
    networks: {
      ...userConfig.networks,
      simulation: {
        type: 'edr-simulated' as const,
        chainType: 'l1' as const,
        accounts: { mnemonic, count: accountCount },
        // Blocks are mined one per transaction and their time is set by the simulation.
        allowBlocksWithSameTimestamp: false,
        initialDate: GENESIS_DATE,
      },
    },
  }
  const hre = await createHardhatRuntimeEnvironment(config, { config: configPath }, root)
  const connection = await hre.network.create('simulation')
  const provider = connection.provider as unknown as EIP1193Provider
  // The contracts' config brings hardhat-ignition-viem; its type augmentation is not visible from here.
  const { ignition } = connection as unknown as { ignition: IgnitionViem }
  // Block hashes (which audit draws read) chain every block before them: the deployment's blocks are mined one
  // second apart from a fixed genesis, not at the wall clock's time, so that a seed gives the same market in
  // every process.
  const pin = pinTimestamps(provider)
  hre.hooks.registerHandlers('network', pin)
  let deployed: Awaited<ReturnType<IgnitionViem['deploy']>>
  try {
    deployed = await ignition.deploy(localGridforgeModule, { displayUi: false })
  } finally {
    hre.hooks.unregisterHandlers('network', pin)
  }
  const { token, sources, staking, providers, market, leases } = deployed
  const keys = Array.from({ length: accountCount }, (_, addressIndex) => {
    const key = mnemonicToAccount(mnemonic, { addressIndex }).getHdKey().privateKey
    if (key === null) throw new Error('sim: could not derive a private key')
    return `0x${Buffer.from(key).toString('hex')}` as Hex
  })
  return {
    provider,
    contracts: {
      token: token.address,
      sources: sources.address,
      staking: staking.address,
      providers: providers.address,
      market: market.address,
      leases: leases.address,
    },
    accounts: keys.map((key) => privateKeyToAddress(key)),
    privateKeys: keys,
    snapshot: async () => (await provider.request({ method: 'evm_snapshot' as never })) as Hex,
    async revert(id) {
      const ok = await provider.request({ method: 'evm_revert' as never, params: [id] as never })
      if (ok !== true) throw new Error(`sim: could not revert to snapshot ${id}`)
    },
    close: () => connection.close(),
  }
}
