import { x25519 } from '@noble/curves/ed25519.js'
import {
  type Account,
  type Address,
  bytesToHex,
  type Chain,
  type Client,
  getAddress,
  type Hex,
  hexToBytes,
  keccak256,
  type Transport,
} from 'viem'
import { getChainId, signMessage } from 'viem/actions'
import { getAction } from 'viem/utils'
import * as z from 'zod/mini'
import type { InvalidParametersErrorType } from '../errors/validation.js'
import * as s from '../internal/schemas.js'
import { validate } from '../internal/validate.js'
import type { DeploymentParameter } from '../types/deployment.js'
import { accountAddress } from '../wallet/account.js'

/** A client's result key pair: the public key goes in tasks (`resultKey`), the secret key opens their outputs. */
export interface ResultKey {
  /** The X25519 public key, as tasks name it (`submitTask`'s `resultKey`). */
  publicKey: Hex
  /** The X25519 secret key that opens outputs sealed to `publicKey` (`openOutput`). Keep it secret. */
  secretKey: Hex
}

export type ResultKeyMessageParameters = {
  /** The chain the market is on. */
  chainId: number
  /** The TaskMarket contract. */
  market: Address
  /** The client account whose results the key opens. */
  account: Address
}

export type ResultKeyMessageReturnType = string

export type ResultKeyMessageErrorType = InvalidParametersErrorType

const messageSchema = /* @__PURE__ */ z.object({
  chainId: s.uint(53, Number.MAX_SAFE_INTEGER, 1),
  market: s.address,
  account: s.address,
})

/**
 * The message a client signs (EIP-191, `personal_sign`) to derive its result
 * key: it says in words what signing does (derive the key that decrypts this
 * account's task results on this market), so that a wallet shows the user
 * what they agree to. Addresses are checksummed, so one account, market and
 * chain always give the same message, hence the same key.
 *
 * @example
 * import { resultKeyMessage } from '@gridforge/sdk/results'
 *
 * resultKeyMessage({ chainId: 31337, market: deployment.contracts.market, account: client.account.address })
 * // 'Gridforge: derive the key that decrypts your task results.\n\n…'
 */
export function resultKeyMessage(parameters: ResultKeyMessageParameters): ResultKeyMessageReturnType {
  const { chainId, market, account } = validate('resultKeyMessage', messageSchema, parameters)
  return [
    'Gridforge: derive the key that decrypts your task results.',
    '',
    `Signing this message derives the key that decrypts the outputs of the tasks account ${getAddress(account)} submits to the Gridforge market ${getAddress(market)} on chain ${chainId}. Providers encrypt each output to this key, so that only you can read it.`,
    '',
    'It sends no transaction and costs nothing. Whoever holds this signature can read those outputs: sign it only in apps you trust with them.',
    '',
    `Account: ${getAddress(account)}`,
    `Market: ${getAddress(market)}`,
    `Chain ID: ${chainId}`,
    'Version: 1',
  ].join('\n')
}

export type DeriveResultKeyParameters = DeploymentParameter & {
  /** The client account that signs (default: the client's). It must be the tasks' client. */
  account?: Account | Address | undefined
}

export type DeriveResultKeyReturnType = ResultKey

export type DeriveResultKeyErrorType = InvalidParametersErrorType | Error

/**
 * Derives the client's result key from its account: signs
 * {@link resultKeyMessage} for this account, market and chain, and takes
 * `keccak256(signature)` as an X25519 secret key. Nothing is stored: the
 * same account derives the same key again anywhere, because local accounts
 * sign deterministically (RFC 6979), as do hardware wallets and most
 * browser wallets. Pass `publicKey` as `resultKey` when submitting tasks,
 * and `secretKey` to `openOutput`.
 *
 * The chain id comes from the deployment, else the client's chain, else
 * the node (`eth_chainId`).
 *
 * @example
 * import { submitTask } from '@gridforge/sdk'
 * import { deriveResultKey, openOutput } from '@gridforge/sdk/results'
 *
 * const { publicKey, secretKey } = await deriveResultKey(client, { deployment })
 * const { taskId } = await submitTask(client, { deployment, sourceId: 1, input, maxPayment: '5', resultKey: publicKey })
 * // … once it completed, with its result CID:
 * const { cid } = await openOutput(store, { cid: resultCID, secretKey })
 */
export async function deriveResultKey(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: DeriveResultKeyParameters,
): Promise<DeriveResultKeyReturnType> {
  const { deployment, account } = parameters
  const action = 'deriveResultKey'
  const address = accountAddress(client, action, account)
  const chainId =
    deployment.chainId ?? client.chain?.id ?? (await getAction(client, getChainId, 'getChainId')({}))
  const message = resultKeyMessage({ chainId, market: deployment.contracts.market, account: address })
  const signer = account ?? client.account
  const signature = await getAction(
    client,
    signMessage,
    'signMessage',
  )({ account: signer as Account | Address, message })
  return resultKeyFromSecret(keccak256(signature))
}

export type ResultKeyFromSecretErrorType = InvalidParametersErrorType

const secretSchema = /* @__PURE__ */ z.object({ secretKey: s.bytes32 })

/**
 * The result key pair of an X25519 secret key (32 bytes): its public key
 * beside it. For a secret key kept elsewhere (a key file, a key management
 * system) rather than derived with {@link deriveResultKey}.
 *
 * @example
 * import { resultKeyFromSecret } from '@gridforge/sdk/results'
 *
 * const { publicKey } = resultKeyFromSecret(process.env.RESULT_SECRET_KEY as `0x${string}`)
 */
export function resultKeyFromSecret(secretKey: Hex): ResultKey {
  validate('resultKeyFromSecret', secretSchema, { secretKey })
  return { publicKey: bytesToHex(x25519.getPublicKey(hexToBytes(secretKey))), secretKey }
}
