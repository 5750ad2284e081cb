import { base16 } from 'multiformats/bases/base16'
import { base32 } from 'multiformats/bases/base32'
import { base36 } from 'multiformats/bases/base36'
import { base58btc } from 'multiformats/bases/base58'
import { base64, base64url } from 'multiformats/bases/base64'
import { CID } from 'multiformats/cid'
import { InvalidCidError } from './errors.js'

/** Multibases a CID string may use (Kubo and gateways print base32, base36 or base58btc). */
const decoder = base32.decoder
  .or(base36.decoder)
  .or(base58btc.decoder)
  .or(base16.decoder)
  .or(base64.decoder)
  .or(base64url.decoder)

/** Longer strings are not CIDs we accept (an identity CID is capped at 128 bytes of digest). */
const MAX_CID_LENGTH = 512

/** Parses a CID string; anything else throws {@link InvalidCidError} naming the input. */
export function parseCid(input: string): CID {
  if (typeof input !== 'string') throw new InvalidCidError({ input: String(input) })
  if (input.length === 0 || input.length > MAX_CID_LENGTH) throw new InvalidCidError({ input })
  try {
    return CID.parse(input, decoder)
  } catch (cause) {
    throw new InvalidCidError({ input, cause })
  }
}
