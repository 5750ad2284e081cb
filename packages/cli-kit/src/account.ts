import type { Hex } from 'viem'
import { UsageError } from './errors.js'
import { type PromptInput, promptHidden } from './prompt.js'
import { readJsonFile } from './readJsonFile.js'
import type { Terminal } from './terminal.js'

const privateKeyPattern = /^(0x)?[0-9a-fA-F]{64}$/

/** What reading a key needs: the environment, and the terminal (to redact the key, to ask for a password). */
export interface KeySource {
  env: Readonly<Record<string, string | undefined>>
  terminal: Terminal
  stdin: PromptInput
}

/**
 * GRIDFORGE_PRIVATE_KEY as 0x-prefixed hex, registered with the terminal as
 * a secret before anything can print it; `keyHint` says how to configure a
 * key when there is none.
 *
 * @example
 * const account = privateKeyToAccount(privateKeyFromEnv({ env, terminal, stdin }, 'Set GRIDFORGE_PRIVATE_KEY.'))
 */
export function privateKeyFromEnv({ env, terminal }: KeySource, keyHint: string): Hex {
  const key = env.GRIDFORGE_PRIVATE_KEY
  if (key === undefined || key === '') {
    throw new UsageError('this command signs transactions, but no key is configured', [keyHint])
  }
  terminal.secret(key)
  if (!privateKeyPattern.test(key.trim())) {
    // Never quote the value: a malformed key is still (part of) a key.
    throw new UsageError('GRIDFORGE_PRIVATE_KEY is not a private key (expected 64 hex digits)')
  }
  const trimmed = key.trim()
  const hex = (trimmed.startsWith('0x') ? trimmed : `0x${trimmed}`) as Hex
  terminal.secret(hex)
  return hex
}

/**
 * A keystore file and its password: GRIDFORGE_KEYSTORE_PASSWORD, else asked
 * for on the terminal. The caller decrypts it (with the SDK's `decryptKeystore`)
 * and registers the key with {@link Terminal.secret}.
 *
 * @example
 * const { json, password } = await readKeystore('./key.json', '--keystore', { env, terminal, stdin })
 * const key = await decryptKeystore(json, password)
 */
export async function readKeystore(
  file: string,
  label: string,
  { env, terminal, stdin }: KeySource,
): Promise<{ json: unknown; password: string }> {
  const json = await readJsonFile(file, label)
  const password =
    env.GRIDFORGE_KEYSTORE_PASSWORD ?? (await promptHidden(`Password for ${file}: `, stdin, terminal.stderr))
  return { json, password }
}
