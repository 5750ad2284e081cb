import { ChainNotConfiguredError, ConnectorNotConnectedError, createConnector } from '@wagmi/core'
import {
  type Chain,
  createWalletClient,
  type EIP1193RequestFn,
  type Hex,
  type LocalAccount,
  numberToHex,
  SwitchChainError,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'

export type LocalAccountParameters =
  | {
      /** The account's private key. It lives in the page: local development and tests only. */
      privateKey: Hex
    }
  | {
      /** A viem local account (`privateKeyToAccount`, `mnemonicToAccount`, …). */
      account: LocalAccount
    }

/** The EIP-1193 provider the connector exposes: account and chain answered locally, the rest sent to the chain. */
export type LocalAccountProvider = { request: EIP1193RequestFn }

localAccount.type = 'localAccount' as const

/**
 * A wagmi connector for an account whose key is in the page: transactions are
 * signed locally (viem local account) and sent as raw transactions through the
 * config's transport for the chain, so it works against any node, not only
 * one with unlocked accounts. Meant for local development chains and tests —
 * never put a key that holds real funds in a web page.
 *
 * @example
 * import { localAccount } from '@gridforge/react-hooks'
 * import { createConfig, http } from 'wagmi'
 * import { hardhat } from 'wagmi/chains'
 *
 * const config = createConfig({
 *   chains: [hardhat],
 *   connectors: [localAccount({ privateKey: '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d' })],
 *   transports: { [hardhat.id]: http('http://127.0.0.1:8545') },
 * })
 */
export function localAccount(parameters: LocalAccountParameters) {
  const account = 'account' in parameters ? parameters.account : privateKeyToAccount(parameters.privateKey)
  let connected = false
  let currentChainId: number | undefined

  return createConnector<LocalAccountProvider>((config) => {
    const chainOf = (chainId: number | undefined): Chain => {
      const id = chainId ?? currentChainId ?? config.chains[0].id
      const chain = config.chains.find((candidate) => candidate.id === id)
      if (chain === undefined) throw new ChainNotConfiguredError()
      return chain
    }
    const clientOf = (chainId: number | undefined) => {
      const chain = chainOf(chainId)
      const transport = config.transports?.[chain.id]
      if (transport === undefined) throw new ChainNotConfiguredError()
      return createWalletClient({ account, chain, transport })
    }

    return {
      id: 'localAccount',
      name: 'Local account',
      type: localAccount.type,
      async setup() {
        currentChainId = config.chains[0].id
      },
      async connect({ chainId, withCapabilities } = {}) {
        if (chainId !== undefined && chainId !== currentChainId) await this.switchChain?.({ chainId })
        connected = true
        return {
          accounts: (withCapabilities
            ? [{ address: account.address, capabilities: {} }]
            : [account.address]) as never,
          chainId: chainOf(currentChainId).id,
        }
      },
      async disconnect() {
        connected = false
      },
      async getAccounts() {
        if (!connected) throw new ConnectorNotConnectedError()
        return [account.address]
      },
      async getChainId() {
        return chainOf(currentChainId).id
      },
      async isAuthorized() {
        return connected
      },
      async switchChain({ chainId }) {
        const chain = config.chains.find((candidate) => candidate.id === chainId)
        if (chain === undefined) throw new SwitchChainError(new ChainNotConfiguredError())
        currentChainId = chainId
        config.emitter.emit('change', { chainId })
        return chain
      },
      // wagmi uses this client for every write: viem signs with the local account.
      async getClient({ chainId } = {}) {
        return clientOf(chainId)
      },
      async getProvider({ chainId } = {}) {
        const client = clientOf(chainId)
        const request: EIP1193RequestFn = async (args) => {
          switch (args.method) {
            case 'eth_accounts':
            case 'eth_requestAccounts':
              return (connected ? [account.address] : []) as never
            case 'eth_chainId':
              return numberToHex(client.chain.id) as never
            default:
              return client.request(args as never) as never
          }
        }
        return { request }
      },
      onAccountsChanged() {},
      onChainChanged(chainId) {
        currentChainId = Number(chainId)
        config.emitter.emit('change', { chainId: currentChainId })
      },
      onDisconnect() {
        connected = false
        config.emitter.emit('disconnect')
      },
    }
  })
}
