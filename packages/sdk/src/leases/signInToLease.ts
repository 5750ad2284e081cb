import type { Account, Address, Chain, Client, Hex, Transport } from 'viem'
import { getChainId, signMessage } from 'viem/actions'
import { getAction } from 'viem/utils'
import { LeaseGatewayError, type LeaseGatewayErrorType } from '../errors/lease.js'
import type { InvalidParametersErrorType } from '../errors/validation.js'
import type { DeploymentParameter } from '../types/deployment.js'
import { type Duration, parseDuration } from '../utils/duration.js'
import { accountAddress } from '../wallet/account.js'
import { callGateway, type FetchFunction, refusalReason } from './gatewayFetch.js'
import { createLeaseSignInMessage } from './leaseSignInMessage.js'
import { gatewayPrefix, leaseUrl } from './leaseUrl.js'

export type SignInToLeaseParameters = DeploymentParameter & {
  /** The provider's lease gateway, e.g. `https://leases.example.com`. */
  gatewayUrl: string
  leaseId: number | bigint
  /** The renter (default: the client's account). */
  account?: Account | Address | undefined
  /** How long the session lasts at most (default `'12h'`; the gateway may cut it shorter). */
  expiresIn?: Duration | undefined
  fetch?: FetchFunction | undefined
}

export type SignInToLeaseReturnType = {
  /** The session token: send it as `Authorization: Bearer <token>` (browsers get the same as a cookie). */
  token: string
  /** When the session ends. */
  expiresAt: Date
  renter: Address
  /** The lease's URL on the gateway. */
  url: string
}

export type SignInToLeaseErrorType = InvalidParametersErrorType | LeaseGatewayErrorType | Error

/**
 * Signs in to a lease on its provider's gateway: fetches a nonce, signs the
 * Sign-In with Ethereum message that names the lease
 * ({@link createLeaseSignInMessage}) with the renter's account (a wallet
 * prompt for a browser wallet) and posts it. The token opens the lease's
 * service until it expires; sign in again then (401).
 *
 * @example
 * import { leaseUrl, signInToLease } from '@gridforge/sdk'
 *
 * const { token, url } = await signInToLease(walletClient, { deployment, gatewayUrl: 'https://leases.example.com', leaseId: 7n })
 * await fetch(url, { headers: { authorization: `Bearer ${token}` } })
 */
export async function signInToLease(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: SignInToLeaseParameters,
): Promise<SignInToLeaseReturnType> {
  const { deployment, gatewayUrl, account = client.account } = parameters
  const action = 'signInToLease'
  const fetchFunction = parameters.fetch ?? globalThis.fetch
  const address = accountAddress(client, action, account)
  const leaseId = BigInt(parameters.leaseId)
  const url = leaseUrl({ gatewayUrl, leaseId })
  const origin = new URL(url).origin
  const expiresInSec = parseDuration(parameters.expiresIn ?? '12h') ?? 43_200
  const chainId =
    deployment.chainId ?? client.chain?.id ?? (await getAction(client, getChainId, 'getChainId')({}))

  const nonceUrl = `${origin}${gatewayPrefix}nonce`
  const nonceResponse = await callGateway(fetchFunction, nonceUrl)
  if (!nonceResponse.ok)
    throw new LeaseGatewayError({
      url: nonceUrl,
      status: nonceResponse.status,
      reason: await refusalReason(nonceResponse),
    })
  const info = (await nonceResponse.json()) as { nonce?: unknown; uri?: unknown }
  if (typeof info.nonce !== 'string')
    throw new LeaseGatewayError({
      url: nonceUrl,
      status: nonceResponse.status,
      reason: 'the answer has no nonce',
    })

  // The lease as this SDK's deployment names it, not as the gateway says: a signature for another market is useless.
  const message = createLeaseSignInMessage({
    address,
    uri: typeof info.uri === 'string' ? info.uri : origin,
    lease: { chainId, leaseMarket: deployment.contracts.leases, leaseId },
    nonce: info.nonce,
    expirationTime: new Date(Date.now() + expiresInSec * 1000),
  })
  const signature: Hex = await getAction(
    client,
    signMessage,
    'signMessage',
  )({ account: account as Account, message })

  const loginUrl = `${origin}${gatewayPrefix}login`
  const login = await callGateway(fetchFunction, loginUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ message, signature }),
  })
  if (!login.ok)
    throw new LeaseGatewayError({ url: loginUrl, status: login.status, reason: await refusalReason(login) })
  const session = (await login.json()) as { token?: unknown; expiresAt?: unknown; renter?: unknown }
  if (typeof session.token !== 'string')
    throw new LeaseGatewayError({ url: loginUrl, status: login.status, reason: 'the answer has no token' })
  return {
    token: session.token,
    expiresAt: new Date(
      typeof session.expiresAt === 'string' ? session.expiresAt : Date.now() + expiresInSec * 1000,
    ),
    renter: typeof session.renter === 'string' ? (session.renter as Address) : address,
    url,
  }
}
