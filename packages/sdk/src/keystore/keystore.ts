/**
 * Web3 Secret Storage v3 keystores (the JSON files geth, Foundry's `cast wallet`
 * and ethers write): scrypt or PBKDF2-HMAC-SHA256 key derivation, AES-128-CTR,
 * and a keccak-256 MAC over the second half of the derived key and the
 * ciphertext. Decryption never reveals the key in an error.
 */
import { ctr } from '@noble/ciphers/aes.js'
import { pbkdf2Async } from '@noble/hashes/pbkdf2.js'
import { scryptAsync } from '@noble/hashes/scrypt.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { bytesToHex, hexToBytes, randomBytes } from '@noble/hashes/utils.js'
import type { Address, Hex } from 'viem'
import { privateKeyToAddress } from 'viem/accounts'
import * as z from 'zod'
import { BaseError } from '../errors/base.js'

/** A parsed Web3 Secret Storage v3 document. */
export type Keystore = z.infer<typeof keystoreSchema>

export type KeystoreInvalidErrorType = KeystoreInvalidError & { name: 'KeystoreInvalidError' }

/** The file is not a v3 keystore this CLI can open (or asks for absurd KDF costs). */
export class KeystoreInvalidError extends BaseError {
  override name = 'KeystoreInvalidError' as const

  constructor(reason: string) {
    super(`not a usable keystore: ${reason}`, {
      metaMessages: [
        'Pass a Web3 Secret Storage v3 JSON file (scrypt or pbkdf2, aes-128-ctr),',
        'or create one with `gridforge wallet keystore create`.',
      ],
    })
  }
}

export type KeystorePasswordErrorType = KeystorePasswordError & { name: 'KeystorePasswordError' }

/** The MAC did not match: a wrong password (or a corrupted file). */
export class KeystorePasswordError extends BaseError {
  override name = 'KeystorePasswordError' as const

  constructor() {
    super('wrong keystore password (the MAC does not match)', {
      metaMessages: ['Check GRIDFORGE_KEYSTORE_PASSWORD, or that the file is not corrupted.'],
    })
  }
}

const hex = (bytes?: number) =>
  z
    .string()
    .transform((value) => (value.startsWith('0x') ? value.slice(2) : value).toLowerCase())
    .pipe(
      z
        .string()
        .regex(/^([0-9a-f]{2})*$/, 'expected hex')
        .refine((value) => bytes === undefined || value.length === bytes * 2, {
          message: `expected ${bytes} bytes of hex`,
        }),
    )

// Costs above these are refused: a hostile file must not exhaust memory or time.
const maxScryptN = 2 ** 20
const maxPbkdf2Iterations = 10_000_000

const maxScryptMemory = 2 ** 30

const scryptParams = z
  .object({
    n: z
      .number()
      .int()
      .min(2)
      .max(maxScryptN)
      .refine((n) => (n & (n - 1)) === 0, 'n must be a power of two'),
    r: z.number().int().min(1).max(32),
    p: z.number().int().min(1).max(16),
    dklen: z.number().int().min(32).max(64),
    salt: hex(),
  })
  .refine(({ n, r, p }) => 128 * r * (n + p) <= maxScryptMemory, 'scrypt n × r needs more than 1 GiB')

const pbkdf2Params = z.object({
  c: z.number().int().min(1).max(maxPbkdf2Iterations),
  dklen: z.number().int().min(32).max(64),
  prf: z.literal('hmac-sha256'),
  salt: hex(),
})

const cryptoSchema = z.intersection(
  z.object({
    cipher: z.literal('aes-128-ctr'),
    cipherparams: z.object({ iv: hex(16) }),
    ciphertext: hex(32),
    mac: hex(32),
  }),
  z.discriminatedUnion('kdf', [
    z.object({ kdf: z.literal('scrypt'), kdfparams: scryptParams }),
    z.object({ kdf: z.literal('pbkdf2'), kdfparams: pbkdf2Params }),
  ]),
)

/** The zod schema of a Web3 Secret Storage v3 keystore (what {@link parseKeystore} checks). */
export const keystoreSchema = z.preprocess(
  // geth wrote `Crypto` in early versions; both spellings are in the wild.
  (value) =>
    value !== null && typeof value === 'object' && !('crypto' in value) && 'Crypto' in value
      ? { ...value, crypto: (value as { Crypto: unknown }).Crypto }
      : value,
  z.object({
    version: z.literal(3),
    id: z.string().optional(),
    address: z.string().optional(),
    crypto: cryptoSchema,
  }),
)

/** Parses a keystore document, or throws {@link KeystoreInvalidError} naming the bad field. */
export function parseKeystore(json: unknown): Keystore {
  const result = keystoreSchema.safeParse(json)
  if (result.success) return result.data
  const issue = result.error.issues[0]
  throw new KeystoreInvalidError(
    issue === undefined ? 'invalid document' : `${issue.path.join('.') || '(document)'}: ${issue.message}`,
  )
}

async function deriveKey(password: string, crypto: Keystore['crypto']): Promise<Uint8Array> {
  const secret = new TextEncoder().encode(password.normalize('NFKD'))
  const salt = hexToBytes(crypto.kdfparams.salt)
  if (crypto.kdf === 'scrypt') {
    const { n, r, p, dklen } = crypto.kdfparams
    return scryptAsync(secret, salt, { N: n, r, p, dkLen: dklen, maxmem: maxScryptMemory + 1024 })
  }
  const { c, dklen } = crypto.kdfparams
  return pbkdf2Async(sha256, secret, salt, { c, dkLen: dklen })
}

function mac(derivedKey: Uint8Array, ciphertext: Uint8Array): Uint8Array {
  const body = new Uint8Array(16 + ciphertext.length)
  body.set(derivedKey.subarray(16, 32))
  body.set(ciphertext, 16)
  return keccak_256(body)
}

function equal(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  let difference = 0
  for (let index = 0; index < a.length; index++) difference |= (a[index] ?? 0) ^ (b[index] ?? 0)
  return difference === 0
}

/**
 * Decrypts a v3 keystore to its private key.
 *
 * @example
 * const key = await decryptKeystore(JSON.parse(await readFile('key.json', 'utf8')), password)
 * privateKeyToAccount(key)
 */
export async function decryptKeystore(json: unknown, password: string): Promise<Hex> {
  const { crypto } = parseKeystore(json)
  const derivedKey = await deriveKey(password, crypto)
  const ciphertext = hexToBytes(crypto.ciphertext)
  if (!equal(mac(derivedKey, ciphertext), hexToBytes(crypto.mac))) throw new KeystorePasswordError()
  const key = ctr(derivedKey.slice(0, 16), hexToBytes(crypto.cipherparams.iv)).decrypt(ciphertext)
  return `0x${bytesToHex(key)}`
}

export interface EncryptKeystoreOptions {
  /** Default `'scrypt'` (n = 2^18, r = 8, p = 1, as geth); `'pbkdf2'` uses 262,144 iterations. */
  kdf?: 'scrypt' | 'pbkdf2' | undefined
  /** Override the costs (tests use small ones). */
  scrypt?: { n: number; r: number; p: number } | undefined
  pbkdf2?: { c: number } | undefined
  /** Fixed salt (32 bytes), iv (16 bytes) and id, for reproducible test vectors; random otherwise. */
  salt?: Uint8Array | undefined
  iv?: Uint8Array | undefined
  id?: string | undefined
}

/**
 * Encrypts a private key into a v3 keystore document.
 *
 * @example
 * const keystore = await encryptKeystore(generatePrivateKey(), 'correct horse battery staple')
 * await writeFile('key.json', JSON.stringify(keystore, null, 2), { mode: 0o600 })
 */
export async function encryptKeystore(
  privateKey: Hex,
  password: string,
  options: EncryptKeystoreOptions = {},
): Promise<Keystore & { address: string; id: string }> {
  const salt = options.salt ?? randomBytes(32)
  const iv = options.iv ?? randomBytes(16)
  const kdf = options.kdf ?? 'scrypt'
  const crypto: Keystore['crypto'] =
    kdf === 'scrypt'
      ? {
          kdf,
          kdfparams: { n: 2 ** 18, r: 8, p: 1, ...options.scrypt, dklen: 32, salt: bytesToHex(salt) },
          cipher: 'aes-128-ctr',
          cipherparams: { iv: bytesToHex(iv) },
          ciphertext: '',
          mac: '',
        }
      : {
          kdf,
          kdfparams: { c: 262_144, ...options.pbkdf2, dklen: 32, prf: 'hmac-sha256', salt: bytesToHex(salt) },
          cipher: 'aes-128-ctr',
          cipherparams: { iv: bytesToHex(iv) },
          ciphertext: '',
          mac: '',
        }
  const derivedKey = await deriveKey(password, crypto)
  const ciphertext = ctr(derivedKey.slice(0, 16), iv).encrypt(hexToBytes(privateKey.slice(2)))
  crypto.ciphertext = bytesToHex(ciphertext)
  crypto.mac = bytesToHex(mac(derivedKey, ciphertext))
  return {
    version: 3,
    id: options.id ?? uuidV4(),
    address: keystoreAddress(privateKey).slice(2).toLowerCase(),
    crypto,
  }
}

function keystoreAddress(privateKey: Hex): Address {
  return privateKeyToAddress(privateKey)
}

function uuidV4(): string {
  const bytes = randomBytes(16)
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80
  const digits = bytesToHex(bytes)
  return `${digits.slice(0, 8)}-${digits.slice(8, 12)}-${digits.slice(12, 16)}-${digits.slice(16, 20)}-${digits.slice(20)}`
}
