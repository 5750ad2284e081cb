import { describe, expect, it } from 'vitest'
import { cidOf, digestOf } from './cid.js'

describe('result CIDs', () => {
  // The SDK's example: resultDigest of this CID (the empty file's sha2-256).
  const cid = 'bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku'
  const digest = '0xe3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'

  it('read the digest the SDK reads', () => {
    expect(digestOf(cid)).toBe(digest)
  })

  it('spell a digest as its raw sha2-256 CIDv1', () => {
    expect(cidOf(digest)).toBe(cid)
  })

  it('refuse what is not a raw sha2-256 CIDv1', () => {
    expect(() => digestOf('bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi')).toThrow()
    expect(() => digestOf('Qm123')).toThrow()
  })
})
