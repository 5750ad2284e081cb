import {
  type Account,
  type Address,
  type Chain,
  type Client,
  isAddressEqual,
  type LocalAccount,
  type Transport,
} from 'viem'
import { parseAccount } from 'viem/accounts'
import { signTypedData } from 'viem/actions'
import { getAction } from 'viem/utils'
import { InvalidParametersError, type InvalidParametersErrorType } from '../errors/validation.js'
import {
  type InvalidReceiptErrorType,
  ReceiptSignerMismatchError,
  type ReceiptSignerMismatchErrorType,
} from './errors.js'
import { parseUnsignedReceipt, type Receipt, type UnsignedReceipt } from './schema.js'
import { receiptTypedData } from './typedData.js'

export type SignReceiptParameters = {
  /** The receipt to sign; a `signature` already on it is replaced. */
  receipt: UnsignedReceipt & { signature?: unknown }
  /** The provider account; defaults to the client's. Ignored when signing with a local account directly. */
  account?: Account | Address | undefined
}

/** The signed receipt document, ready for `store.putJson`. */
export type SignReceiptReturnType = Receipt

export type SignReceiptErrorType =
  | InvalidReceiptErrorType
  | ReceiptSignerMismatchErrorType
  | InvalidParametersErrorType
  | Error

/**
 * Signs a receipt with the provider's key (EIP-712, see `receiptTypedData`)
 * and returns the signed document. The receipt is checked against the schema
 * first, and the signer must be the receipt's `provider`.
 *
 * Pass a wallet client (its account, or `account`, signs: a local key or the
 * wallet's `eth_signTypedData_v4`), or a viem local account directly.
 *
 * @example
 * import { privateKeyToAccount } from 'viem/accounts'
 * import { signReceipt } from '@gridforge/sdk'
 *
 * const account = privateKeyToAccount(key)
 * const receipt = await signReceipt(account, {
 *   receipt: {
 *     version: 1, chainId: 31337, market, taskId: '42', slot: 0, sourceId: 1, imageDigest,
 *     inputCID, outputCID, logsCID, provider: account.address,
 *     startedAt: 1_700_000_000, finishedAt: 1_700_000_090, runtimeSec: 90, exitCode: 0,
 *     hardware: { gpus: [{ name: 'NVIDIA L4', vramMiB: 23_034, computeCapability: 89 }], cpuCores: 8, memoryMiB: 32_768 },
 *   },
 * })
 */
export async function signReceipt(
  signer: Client<Transport, Chain | undefined, Account | undefined> | LocalAccount,
  parameters: SignReceiptParameters,
): Promise<SignReceiptReturnType> {
  const { signature: _, ...unsigned } = parameters.receipt
  const receipt = parseUnsignedReceipt(unsigned)
  const typedData = receiptTypedData(receipt)

  if (isLocalAccount(signer)) {
    assertProvider(receipt.provider, signer.address)
    return { ...receipt, signature: await signer.signTypedData(typedData) }
  }
  const given = parameters.account ?? signer.account
  if (given === undefined) {
    throw new InvalidParametersError({
      action: 'signReceipt',
      fields: [{ path: 'account', message: 'pass the provider account, or use a client that has one' }],
    })
  }
  const account = parseAccount(given)
  assertProvider(receipt.provider, account.address)
  const signature = await getAction(signer, signTypedData, 'signTypedData')({ account, ...typedData })
  return { ...receipt, signature }
}

function isLocalAccount(value: unknown): value is LocalAccount {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { type?: unknown }).type === 'local' &&
    typeof (value as { signTypedData?: unknown }).signTypedData === 'function'
  )
}

function assertProvider(provider: Address, signer: Address) {
  if (!isAddressEqual(provider, signer)) throw new ReceiptSignerMismatchError({ provider, signer })
}
