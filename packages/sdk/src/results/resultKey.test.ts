import { x25519 } from '@noble/curves/ed25519.js'
import { bytesToHex, createWalletClient, custom, hexToBytes, keccak256 } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { hardhat, mainnet } from 'viem/chains'
import { describe, expect, it } from 'vitest'
import { InvalidParametersError } from '../errors/validation.js'
import type { Deployment } from '../types/deployment.js'
import { deriveResultKey, resultKeyFromSecret, resultKeyMessage } from './resultKey.js'

const account = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d')
const market = '0x5fbdb2315678afecb367f032d93f642f64180aa3'
const deployment = (overrides: Partial<Deployment> = {}) =>
  ({
    contracts: { market, token: market, sources: market, providers: market, staking: market },
    blockNumber: 0,
    ...overrides,
  }) as unknown as Deployment

/** A client that must never reach a node: local accounts sign without one. */
const offline = (chain = hardhat) =>
  createWalletClient({
    account,
    chain,
    transport: custom({
      request: async ({ method }) => {
        throw new Error(`no node here (${method})`)
      },
    }),
  })

describe('resultKeyMessage', () => {
  it('says in words what signing does, for one account, market and chain', () => {
    const message = resultKeyMessage({ chainId: 31337, market, account: account.address })
    expect(message).toBe(
      [
        'Gridforge: derive the key that decrypts your task results.',
        '',
        'Signing this message derives the key that decrypts the outputs of the tasks account 0x70997970C51812dc3A010C7d01b50e0d17dc79C8 submits to the Gridforge market 0x5FbDB2315678afecb367f032d93F642f64180aa3 on chain 31337. Providers encrypt each output to this key, so that only you can read it.',
        '',
        'It sends no transaction and costs nothing. Whoever holds this signature can read those outputs: sign it only in apps you trust with them.',
        '',
        'Account: 0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
        'Market: 0x5FbDB2315678afecb367f032d93F642f64180aa3',
        'Chain ID: 31337',
        'Version: 1',
      ].join('\n'),
    )
    // Addresses are checksummed: their spelling does not change the message.
    expect(
      resultKeyMessage({ chainId: 31337, market, account: account.address.toLowerCase() as never }),
    ).toBe(message)
  })

  it('names every bad field', () => {
    try {
      resultKeyMessage({ chainId: 0, market: '0x12' as never, account: account.address })
      expect.unreachable()
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidParametersError)
      expect((error as InvalidParametersError).fields.map((field) => field.path)).toEqual([
        'chainId',
        'market',
      ])
    }
  })
})

describe('deriveResultKey', () => {
  it("is keccak256 of the account's signature of the message, as an X25519 key pair", async () => {
    const key = await deriveResultKey(offline(), { deployment: deployment() })
    const signature = await account.signMessage({
      message: resultKeyMessage({ chainId: hardhat.id, market, account: account.address }),
    })
    expect(key.secretKey).toBe(keccak256(signature))
    expect(key.publicKey).toBe(bytesToHex(x25519.getPublicKey(hexToBytes(keccak256(signature)))))
  })

  it('derives the same key every time (RFC 6979 signatures), and another one per market and chain', async () => {
    const first = await deriveResultKey(offline(), { deployment: deployment() })
    expect(await deriveResultKey(offline(), { deployment: deployment() })).toEqual(first)
    const otherMarket = await deriveResultKey(offline(), {
      deployment: deployment({
        contracts: { ...deployment().contracts, market: '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512' },
      }),
    })
    expect(otherMarket.publicKey).not.toBe(first.publicKey)
    // The deployment's chain id comes first, then the client's chain.
    expect(
      await deriveResultKey(offline(mainnet as never), { deployment: deployment({ chainId: hardhat.id }) }),
    ).toEqual(first)
    expect(
      (await deriveResultKey(offline(mainnet as never), { deployment: deployment() })).publicKey,
    ).not.toBe(first.publicKey)
  })

  it('needs an account', async () => {
    const client = createWalletClient({ chain: hardhat, transport: custom({ request: async () => null }) })
    await expect(deriveResultKey(client, { deployment: deployment() })).rejects.toBeInstanceOf(
      InvalidParametersError,
    )
  })
})

describe('resultKeyFromSecret', () => {
  it("is X25519's public key of the secret (RFC 7748, section 6.1)", () => {
    const secretKey = '0x77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a'
    expect(resultKeyFromSecret(secretKey)).toEqual({
      secretKey,
      publicKey: '0x8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a',
    })
    expect(() => resultKeyFromSecret('0x1234')).toThrow(InvalidParametersError)
  })
})
