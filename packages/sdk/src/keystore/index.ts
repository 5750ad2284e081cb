// Entry point of `@gridforge/sdk/keystore`: explicit named exports only.
// Node and browsers alike: scrypt/PBKDF2 and AES come from @noble, not node:crypto.

export {
  decryptKeystore,
  type EncryptKeystoreOptions,
  encryptKeystore,
  type Keystore,
  KeystoreInvalidError,
  type KeystoreInvalidErrorType,
  KeystorePasswordError,
  type KeystorePasswordErrorType,
  keystoreSchema,
  parseKeystore,
} from './keystore.js'
