import type { Account, Address, Chain, Client, Transport } from 'viem'
import { InvalidParametersError } from '../errors/validation.js'

/**
 * The address an action acts for: `account` when given (an address or a viem
 * account), else the client's account. Throws {@link InvalidParametersError}
 * naming `path` when there is neither, or when `account` is not an address.
 */
export function accountAddress(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  action: string,
  account: Account | Address | undefined,
  path = 'account',
): Address {
  const chosen = account ?? client.account
  const address = typeof chosen === 'object' && chosen !== null ? chosen.address : chosen
  if (typeof address === 'string' && /^0x[0-9a-fA-F]{40}$/.test(address)) return address
  throw new InvalidParametersError({
    action,
    fields: [
      {
        path,
        message:
          chosen === undefined
            ? 'pass an address, or use a client with an account'
            : 'expected an address: 0x followed by 40 hex digits',
      },
    ],
  })
}
