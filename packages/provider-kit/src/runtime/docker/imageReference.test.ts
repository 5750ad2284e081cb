import { describe, expect, test } from 'vitest'
import { parseImageReference } from './imageReference.js'

const digest = 'ab'.repeat(32)

describe('parseImageReference', () => {
  test.each([
    ['busybox', { repository: 'busybox', tag: undefined, digest: undefined }],
    ['acme/app:1.2', { repository: 'acme/app', tag: '1.2', digest: undefined }],
    [`ghcr.io/acme/app:1.2@sha256:${digest}`, { repository: 'ghcr.io/acme/app', tag: '1.2', digest }],
    [
      `localhost:5000/app@sha256:${digest.toUpperCase()}`,
      { repository: 'localhost:5000/app', tag: undefined, digest },
    ],
    ['localhost:5000/app', { repository: 'localhost:5000/app', tag: undefined, digest: undefined }],
  ])('%s', (reference, parts) => {
    expect(parseImageReference(reference)).toEqual(parts)
  })

  test.each(['', 'app@sha256:abc', `app@sha512:${digest}`, 'app:', `@sha256:${digest}`, 'a b'])(
    'refuses %j',
    (reference) => {
      expect(parseImageReference(reference)).toBeUndefined()
    },
  )
})
