import {
  ConnectorNotConnectedError,
  connect,
  createConfig,
  disconnect,
  getChainId,
  getConnection,
  http,
  sendTransaction,
  signMessage,
  switchChain,
  waitForTransactionReceipt,
} from '@wagmi/core'
import { createPublicClient, parseEther, SwitchChainError, verifyMessage } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { hardhat, localhost, mainnet } from 'viem/chains'
import { describe, expect, it } from 'vitest'
import { devnet } from '../../../sdk/test/chain.js'
import { countingTransport, rejection } from '../../../sdk/test/fixtures.js'
import { testConfig } from '../../test/config.js'
import { localAccount } from './localAccount.js'

const node = () => createPublicClient({ chain: hardhat, transport: http(devnet().rpcUrl) })
/** A JSON-RPC request to the node, untyped (for methods viem's public client does not list). */
const nodeRequest = (method: string, params: unknown[] = []) =>
  (node().request as (args: { method: string; params: unknown[] }) => Promise<unknown>)({ method, params })

describe('localAccount', () => {
  it('connects, answers accounts and chain locally, and disconnects', async () => {
    const { config, connector, address } = await testConfig({ grid: '0', connected: false })
    expect(connector).toMatchObject({ id: 'localAccount', name: 'Local account', type: 'localAccount' })
    expect(await connector.isAuthorized()).toBe(false)
    expect(await rejection(connector.getAccounts())).toBeInstanceOf(ConnectorNotConnectedError)
    const provider = (await connector.getProvider()) as {
      request(args: { method: string }): Promise<unknown>
    }
    expect(await provider.request({ method: 'eth_accounts' })).toEqual([])

    const connected = await connect(config, { connector })
    expect(connected).toEqual({ accounts: [address], chainId: 31337 })
    expect(getConnection(config)).toMatchObject({ status: 'connected', address, chainId: 31337 })
    expect(await connector.isAuthorized()).toBe(true)
    expect(await connector.getAccounts()).toEqual([address])
    expect(await provider.request({ method: 'eth_accounts' })).toEqual([address])
    expect(await provider.request({ method: 'eth_requestAccounts' })).toEqual([address])
    expect(await provider.request({ method: 'eth_chainId' })).toBe('0x7a69')
    // Anything else goes to the chain.
    expect(await provider.request({ method: 'eth_blockNumber' })).toMatch(/^0x[0-9a-f]+$/)

    await disconnect(config, { connector })
    expect(getConnection(config)).toMatchObject({ status: 'disconnected', address: undefined })
    expect(await connector.isAuthorized()).toBe(false)
    expect(await rejection(connector.getAccounts())).toBeInstanceOf(ConnectorNotConnectedError)
    expect(await provider.request({ method: 'eth_accounts' })).toEqual([])
  })

  it('takes a viem local account instead of a key', async () => {
    const account = privateKeyToAccount(generatePrivateKey())
    const config = createConfig({
      chains: [hardhat],
      connectors: [localAccount({ account })],
      transports: { [hardhat.id]: http(devnet().rpcUrl) },
      storage: null,
      multiInjectedProviderDiscovery: false,
    })
    const [connector] = config.connectors
    if (connector === undefined) throw new Error('no connector')
    expect(await connect(config, { connector })).toEqual({ accounts: [account.address], chainId: 31337 })
  })

  it('signs transactions in the page: the node has no such account, and only ever sees raw transactions', async () => {
    const rpc = countingTransport(devnet().rpcUrl)
    const { config, address } = await testConfig({ grid: '0', transport: rpc.transport })
    const recipient = privateKeyToAccount(generatePrivateKey()).address
    const unlocked = (await nodeRequest('eth_accounts')) as string[]
    expect(unlocked.map((account) => account.toLowerCase())).not.toContain(address.toLowerCase())
    // Asked to sign for it, the node refuses.
    const refused = await rejection(
      nodeRequest('eth_sendTransaction', [{ from: address, to: recipient, value: '0x1' }]),
    )
    expect((refused as Error).message).toMatch(/unknown account|not.*(owned|unlocked)|sender/i)

    const hash = await sendTransaction(config, { to: recipient, value: parseEther('1.5') })
    const receipt = await waitForTransactionReceipt(config, { hash })
    expect(receipt).toMatchObject({
      status: 'success',
      from: address.toLowerCase(),
      to: recipient.toLowerCase(),
    })
    expect(await node().getBalance({ address: recipient })).toBe(parseEther('1.5'))
    expect(rpc.methods()).toContain('eth_sendRawTransaction')
    expect(rpc.methods()).not.toContain('eth_sendTransaction')

    const signature = await signMessage(config, { message: 'gridforge' })
    expect(await verifyMessage({ address, message: 'gridforge', signature })).toBe(true)
    expect(rpc.methods()).not.toContain('personal_sign')
    expect(rpc.methods()).not.toContain('eth_sign')
  })

  it('switches between configured chains and refuses others with SwitchChainError', async () => {
    const { config, connector } = await testConfig({
      grid: '0',
      otherChains: [{ chain: localhost, transport: http('http://127.0.0.1:1') }],
    })
    const refused = await rejection(connector.switchChain?.({ chainId: mainnet.id }) ?? Promise.resolve())
    expect(refused).toBeInstanceOf(SwitchChainError)
    expect(refused).toMatchObject({ name: 'SwitchChainError', cause: { name: 'ChainNotConfiguredError' } })
    const viaWagmi = await rejection(switchChain(config, { chainId: mainnet.id as never }))
    expect(viaWagmi).toBeInstanceOf(SwitchChainError)
    expect(await connector.getChainId()).toBe(31337)

    expect(await switchChain(config, { chainId: localhost.id })).toMatchObject({ id: 1337 })
    expect(await connector.getChainId()).toBe(1337)
    expect(getChainId(config)).toBe(1337)
    expect(getConnection(config).chainId).toBe(1337)
    const provider = (await connector.getProvider()) as {
      request(args: { method: string }): Promise<unknown>
    }
    expect(await provider.request({ method: 'eth_chainId' })).toBe('0x539')
    await switchChain(config, { chainId: hardhat.id })
    expect(getConnection(config).chainId).toBe(31337)
  })
})
