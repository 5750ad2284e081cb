import type { Account, Address, Chain, Client, Hex, Transport, TypedDataDomain } from 'viem'
import { parseSignature } from 'viem'
import { getBlock, getChainId, readContract, signTypedData } from 'viem/actions'
import { getAction } from 'viem/utils'
import * as z from 'zod/mini'
import { eip712Domain, name as nameFunction, nonces } from '../abis/gridToken.js'
import { BaseError } from '../errors/base.js'
import { InvalidParametersError, type InvalidParametersErrorType } from '../errors/validation.js'
import * as s from '../internal/schemas.js'
import { validate } from '../internal/validate.js'
import type { DeploymentParameter } from '../types/deployment.js'
import { type Amount, gridToken } from '../utils/amount.js'
import type { Duration } from '../utils/duration.js'
import { accountAddress } from './account.js'

/** A signed EIP-2612 permit, ready for the `…WithPermit` functions of the market and of Staking. */
export interface PermitSignature {
  /** The token holder the permit is for (the sender of the transaction that uses it). */
  owner: Address
  /** The contract allowed to pull the tokens. */
  spender: Address
  /** The allowance granted, in base units. */
  value: bigint
  /** The token nonce the permit consumes. */
  nonce: bigint
  /** Unix seconds after which the permit is refused. */
  deadline: bigint
  /** The 65-byte signature. */
  signature: Hex
  v: number
  r: Hex
  s: Hex
}

export type SignPermitParameters = DeploymentParameter & {
  /** The contract to allow, e.g. `deployment.contracts.staking`. */
  spender: Address
  /** The allowance to grant, e.g. `'100'` (token units) or a bigint (base units). */
  amount: Amount
  /** How long the permit is valid, from the latest block (default `'1h'`), or until when. */
  deadline?: Duration | Date | undefined
  /** The signer; defaults to the client's account. */
  account?: Account | Address | undefined
}

export type SignPermitReturnType = PermitSignature

export type SignPermitErrorType = InvalidParametersErrorType | PermitNotSupportedErrorType | Error

export type PermitNotSupportedErrorType = PermitNotSupportedError & { name: 'PermitNotSupportedError' }

/** The deployment's token has no EIP-2612 `nonces` or EIP-712 domain. */
export class PermitNotSupportedError extends BaseError {
  override name = 'PermitNotSupportedError' as const
  readonly token: Address

  constructor({ token, cause }: { token: Address; cause: unknown }) {
    super(`The token ${token} does not support EIP-2612 permits`, {
      cause,
      metaMessages: ['Leave out `permit` and approve the spender instead (`approve: true`).'],
    })
    this.token = token
  }
}

const schema = (decimals: number) =>
  z.object({
    spender: s.address,
    amount: s.amount(decimals),
    deadline: z.optional(s.deadline),
  })

/**
 * Signs an EIP-2612 permit for the deployment's token: reads the holder's
 * nonce and the token's EIP-712 domain (ERC-5267 `eip712Domain()`, else its
 * `name()` with version `'1'`) and signs with the account. Nothing is sent.
 * `stake`, `deposit` and `submitTask` do this for you with `permit: true`.
 *
 * @example
 * import { signPermit, stake } from '@gridforge/sdk'
 *
 * const permit = await signPermit(client, {
 *   deployment,
 *   spender: deployment.contracts.staking,
 *   amount: '100',
 *   deadline: '10m',
 * })
 * // Later, or from a relayer's view of the same account:
 * await stake(client, { deployment, amount: '100', permit })
 */
export async function signPermit(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: SignPermitParameters,
): Promise<SignPermitReturnType> {
  const { deployment } = parameters
  const action = 'signPermit'
  const token = deployment.token ?? gridToken
  const params = validate(action, schema(token.decimals), parameters)
  const owner = accountAddress(client, action, parameters.account)
  const address = deployment.contracts.token
  const [domain, nonce, deadline] = await Promise.all([
    tokenDomain(client, address),
    getAction(
      client,
      readContract,
      'readContract',
    )({ address, abi: [nonces], functionName: 'nonces', args: [owner] }).catch((cause: unknown) => {
      throw new PermitNotSupportedError({ token: address, cause })
    }),
    resolvePermitDeadline(client, action, params.deadline ?? 3_600),
  ])
  const message = { owner, spender: params.spender, value: params.amount, nonce, deadline }
  const signature = await getAction(
    client,
    signTypedData,
    'signTypedData',
  )({
    account: (parameters.account ?? client.account) as Account | Address,
    domain,
    types: {
      Permit: [
        { name: 'owner', type: 'address' },
        { name: 'spender', type: 'address' },
        { name: 'value', type: 'uint256' },
        { name: 'nonce', type: 'uint256' },
        { name: 'deadline', type: 'uint256' },
      ],
    },
    primaryType: 'Permit',
    message,
  })
  const { r, s: sValue, v, yParity } = parseSignature(signature)
  return { ...message, signature, v: v === undefined ? yParity + 27 : Number(v), r, s: sValue }
}

/** The token's EIP-712 domain, with only the fields it declares (ERC-5267), else `name()` + version 1. */
async function tokenDomain(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  address: Address,
): Promise<TypedDataDomain> {
  const read = getAction(client, readContract, 'readContract')
  try {
    const [fields, name, version, chainId, verifyingContract, salt] = await read({
      address,
      abi: [eip712Domain],
      functionName: 'eip712Domain',
    })
    const has = (bit: number) => (Number.parseInt(fields.slice(2), 16) & (1 << bit)) !== 0
    return {
      ...(has(0) ? { name } : {}),
      ...(has(1) ? { version } : {}),
      ...(has(2) ? { chainId: Number(chainId) } : {}),
      ...(has(3) ? { verifyingContract } : {}),
      ...(has(4) ? { salt } : {}),
    }
  } catch {
    try {
      const [name, chainId] = await Promise.all([
        read({ address, abi: [nameFunction], functionName: 'name' }),
        getAction(client, getChainId, 'getChainId')({}),
      ])
      return { name, version: '1', chainId, verifyingContract: address }
    } catch (cause) {
      throw new PermitNotSupportedError({ token: address, cause })
    }
  }
}

/** A permit deadline as Unix seconds: a Date as is, a duration counted from the latest block. */
async function resolvePermitDeadline(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  action: string,
  deadline: Date | number,
): Promise<bigint> {
  const { timestamp } = await getAction(client, getBlock, 'getBlock')({ blockTag: 'latest' })
  const at =
    deadline instanceof Date ? BigInt(Math.floor(deadline.getTime() / 1000)) : timestamp + BigInt(deadline)
  if (at <= timestamp) {
    throw new InvalidParametersError({
      action,
      fields: [{ path: 'deadline', message: 'must be in the future (e.g. 10m, 1h)' }],
    })
  }
  return at
}
