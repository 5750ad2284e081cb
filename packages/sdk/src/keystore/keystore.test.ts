import { privateKeyToAddress } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { address, password, pbkdf2Vector, secret } from '../../test/cli/keystoreVectors.js'
import { decryptKeystore, encryptKeystore, KeystoreInvalidError, KeystorePasswordError } from './keystore.js'

// The definition's scrypt vector (n = 262144, r = 1, p = 8). (A later copy of the page lists
// r = 8, p = 1 with other values, whose stated derived key does not follow from its parameters.)
const scryptVector = {
  crypto: {
    cipher: 'aes-128-ctr',
    cipherparams: { iv: '83dbcc02d8ccb40e466191a123791e0e' },
    ciphertext: 'd172bf743a674da9cdad04534d56926ef8358534d458fffccd4e6ad2fbde479c',
    kdf: 'scrypt',
    kdfparams: {
      dklen: 32,
      n: 262144,
      r: 1,
      p: 8,
      salt: 'ab0c7876052600dd703518d6fc3fe8984592145b591fc8fb5c6d43190334ba19',
    },
    mac: '2103ac29920d71da29f15d75b4a16dbe95cfd7ff8faea1056c33131d846e3097',
  },
  id: '3198bc9c-6672-5ab3-d995-4942343ae5b6',
  version: 3,
}

const hexBytes = (hex: string) => Uint8Array.from(Buffer.from(hex, 'hex'))

describe('keystore', () => {
  it('decrypts the PBKDF2-SHA-256 test vector', async () => {
    const key = await decryptKeystore(pbkdf2Vector, password)
    expect(key).toBe(secret)
    expect(privateKeyToAddress(key).toLowerCase()).toBe(address)
  })

  it('decrypts the scrypt test vector', async () => {
    expect(await decryptKeystore(scryptVector, password)).toBe(secret)
  })

  it('encrypts to the PBKDF2 test vector byte for byte with its salt and iv', async () => {
    const document = await encryptKeystore(secret, password, {
      kdf: 'pbkdf2',
      salt: hexBytes(pbkdf2Vector.crypto.kdfparams.salt),
      iv: hexBytes(pbkdf2Vector.crypto.cipherparams.iv),
      id: pbkdf2Vector.id,
    })
    expect(document).toEqual({ ...pbkdf2Vector, address: address.slice(2) })
  })

  it('round-trips a scrypt keystore with a random salt and iv', async () => {
    const document = await encryptKeystore(secret, 'correct horse', { scrypt: { n: 1024, r: 8, p: 1 } })
    expect(document.crypto.kdf).toBe('scrypt')
    expect(document.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(JSON.stringify(document)).not.toContain(secret.slice(2))
    expect(await decryptKeystore(JSON.parse(JSON.stringify(document)), 'correct horse')).toBe(secret)
  })

  it('says a wrong password is wrong, without the key', async () => {
    const error = await decryptKeystore(pbkdf2Vector, 'wrong').catch((error: unknown) => error)
    expect(error).toBeInstanceOf(KeystorePasswordError)
    expect(String((error as Error).message)).not.toContain(secret.slice(2))
  })

  it('accepts the legacy `Crypto` spelling and 0x-prefixed hex', async () => {
    const { crypto, ...rest } = pbkdf2Vector
    const legacy = { ...rest, Crypto: { ...crypto, ciphertext: `0x${crypto.ciphertext}` } }
    expect(await decryptKeystore(legacy, password)).toBe(secret)
  })

  it.each([
    ['a version 1 file', { ...pbkdf2Vector, version: 1 }, 'version'],
    ['aes-128-cbc', { ...pbkdf2Vector, crypto: { ...pbkdf2Vector.crypto, cipher: 'aes-128-cbc' } }, 'cipher'],
    ['an unknown kdf', { ...pbkdf2Vector, crypto: { ...pbkdf2Vector.crypto, kdf: 'argon2' } }, 'kdf'],
    [
      'an iv of the wrong length',
      { ...pbkdf2Vector, crypto: { ...pbkdf2Vector.crypto, cipherparams: { iv: 'abcd' } } },
      'iv',
    ],
    [
      'a scrypt cost that needs 128 GiB',
      {
        ...scryptVector,
        crypto: {
          ...scryptVector.crypto,
          kdfparams: { ...scryptVector.crypto.kdfparams, n: 2 ** 20, r: 32 },
        },
      },
      'kdfparams',
    ],
    [
      'a billion PBKDF2 iterations',
      {
        ...pbkdf2Vector,
        crypto: { ...pbkdf2Vector.crypto, kdfparams: { ...pbkdf2Vector.crypto.kdfparams, c: 1e9 } },
      },
      'kdfparams.c',
    ],
    ['not an object', 'hello', '(document)'],
  ])('refuses %s with a typed error naming the field', async (_name, document, field) => {
    const error = await decryptKeystore(document, password).catch((error: unknown) => error)
    expect(error).toBeInstanceOf(KeystoreInvalidError)
    expect((error as Error).message).toContain(field)
  })
})
