import { readFile } from 'node:fs/promises'
import { homedir } from 'node:os'
import path from 'node:path'
import { parse, TomlError } from 'smol-toml'
import type * as z from 'zod'
import { type ConfigField, ConfigInvalidError, ConfigNotFoundError, ConfigSyntaxError } from './errors.js'
import { configFileSchema, type ProviderConfig, toProviderConfig } from './schema.js'

export interface ParseConfigOptions {
  /** The file the text came from: relative paths in it are resolved against its directory. */
  file: string
  /** What `~` means (default: the user's home directory). */
  home?: string | undefined
}

export type ParseConfigErrorType = ConfigSyntaxError | ConfigInvalidError

/**
 * Parses and validates config text (TOML). Every wrong field is reported at
 * once, named by its dotted path, with what it expects.
 *
 * @example
 * const config = parseConfig('[chain]\nrpc = "http://127.0.0.1:8545"\n', { file: '/etc/gridforge/provider.toml' })
 * config.agent.pollingIntervalMs // 1000
 */
export function parseConfig(text: string, { file, home = homedir() }: ParseConfigOptions): ProviderConfig {
  const absolute = path.resolve(file)
  let document: unknown
  try {
    document = parse(text)
  } catch (error) {
    if (!(error instanceof TomlError)) throw error
    // Only the first line: the rest quotes the offending line, which may hold a pasted key.
    const reason = (error.message.split('\n')[0] ?? '').replace(/^Invalid TOML document: /, '')
    throw new ConfigSyntaxError({ file: absolute, line: error.line, column: error.column, reason })
  }
  const secrets = secretFields(document)
  if (secrets.length > 0) throw new ConfigInvalidError({ file: absolute, fields: secrets })
  const result = configFileSchema({ baseDir: path.dirname(absolute), home }).safeParse(document)
  if (!result.success) throw new ConfigInvalidError({ file: absolute, fields: fieldsOf(result.error.issues) })
  return toProviderConfig(absolute, result.data)
}

export type LoadConfigErrorType = ConfigNotFoundError | ParseConfigErrorType

/**
 * Reads, parses and validates the provider's config file (see
 * `configTemplate` for every option). Paths in it are resolved against the
 * file's directory.
 *
 * @example
 * const config = await loadConfig('/etc/gridforge/provider.toml')
 * config.runtime.kind // 'docker'
 */
export async function loadConfig(
  file: string,
  options: Omit<ParseConfigOptions, 'file'> = {},
): Promise<ProviderConfig> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      throw new ConfigNotFoundError({ file: path.resolve(file), cause: error })
    throw error
  }
  return parseConfig(text, { ...options, file })
}

const secretKeyPattern = /^(private_?key|privatekey|key|secret|mnemonic|seed|password)$/i
const secretValuePattern = /^(0x)?[0-9a-fA-F]{64}$/

/** Keys and key-shaped values anywhere in the file: a key never belongs in it. */
function secretFields(document: unknown, at: string[] = []): ConfigField[] {
  if (typeof document === 'string') {
    return secretValuePattern.test(document.trim())
      ? [
          {
            path: at.join('.'),
            message:
              'this looks like a private key: never put a key in the config file; set GRIDFORGE_PRIVATE_KEY, or account.keystore to an encrypted key file',
          },
        ]
      : []
  }
  if (document === null || typeof document !== 'object') return []
  const fields: ConfigField[] = []
  for (const [key, value] of Object.entries(document)) {
    if (secretKeyPattern.test(key)) {
      fields.push({
        path: [...at, key].join('.'),
        message:
          'keys and passwords never go in the config file: set GRIDFORGE_PRIVATE_KEY, or account.keystore (password in GRIDFORGE_KEYSTORE_PASSWORD)',
      })
    } else {
      fields.push(...secretFields(value, [...at, key]))
    }
  }
  return fields
}

function fieldsOf(issues: readonly z.core.$ZodIssue[]): ConfigField[] {
  const fields: ConfigField[] = []
  for (const issue of issues) {
    const at = issue.path.map(String)
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys)
        fields.push({ path: [...at, key].join('.'), message: unknownKeyMessage(at) })
    } else {
      fields.push({ path: at.join('.') || '(file)', message: issue.message })
    }
  }
  return fields
}

function unknownKeyMessage(at: readonly string[]): string {
  if (at.length === 0) {
    return 'unknown section: the sections are [chain], [account], [store], [runtime], [runtime.limits], [policy], [policy.audits], [agent], [withdraw] and [register]'
  }
  return `unknown option in [${at.join('.')}] (a typo? \`gridforge-provider init --config <new file>\` lists every option)`
}
