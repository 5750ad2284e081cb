import { expect, test } from 'vitest'
import * as keystore from './index.js'

test('the exports of @gridforge/sdk/keystore', () => {
  expect(Object.keys(keystore).sort()).toMatchInlineSnapshot(`
    [
      "KeystoreInvalidError",
      "KeystorePasswordError",
      "decryptKeystore",
      "encryptKeystore",
      "keystoreSchema",
      "parseKeystore",
    ]
  `)
})
