import type { Address, Hex, PrivateKeyAccount } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'

export type CreateLeaseSessionKeyReturnType = {
  /** The key: keep it with the renter's software (a keystore, the CLI journal), never on chain or with the provider. */
  privateKey: Hex
  /** Pass it as `ackSigner` when requesting the lease. */
  address: Address
  /** The account that signs acknowledgements ({@link signUsage}). */
  account: PrivateKeyAccount
}

/**
 * A fresh session key for a lease's `ackSigner`: the renter's software signs
 * usage acknowledgements with it every minute or so, without a wallet prompt,
 * and it holds no funds. What it can do is bounded by the lease: acknowledge
 * service, i.e. let the provider be paid from the deposit. The renter's
 * software keeps the key for the lease's life (the CLI stores it in its
 * journal next to the keystore); lost, acknowledgements stop and the provider
 * may end the lease for silence after `ackGrace`.
 *
 * @example
 * import { createLeaseSessionKey, requestLease } from '@gridforge/sdk'
 *
 * const sessionKey = createLeaseSessionKey()
 * saveSomewhereSafe(sessionKey.privateKey)
 * await requestLease(client, { deployment, sourceId: 3, maxPricePerHour: '3.6', duration: '2h', deposit: '8', ackSigner: sessionKey.address })
 */
export function createLeaseSessionKey(): CreateLeaseSessionKeyReturnType {
  const privateKey = generatePrivateKey()
  const account = privateKeyToAccount(privateKey)
  return { privateKey, address: account.address, account }
}
