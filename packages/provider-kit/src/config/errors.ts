import { BaseError } from '@gridforge/sdk'

/** One field of the config file that is wrong, and what it should be. */
export interface ConfigField {
  /** Dotted path in the file, e.g. `runtime.limits.memory`. */
  path: string
  message: string
}

export type ConfigInvalidErrorType = ConfigInvalidError & { name: 'ConfigInvalidError' }

/**
 * The config file parsed but some fields are wrong: every one is named with
 * what it expects. Values are never quoted (a key pasted in the wrong place
 * must not reach a log).
 */
export class ConfigInvalidError extends BaseError {
  override name = 'ConfigInvalidError' as const
  readonly file: string
  readonly fields: readonly ConfigField[]

  constructor({ file, fields }: { file: string; fields: readonly ConfigField[] }) {
    super(
      `${file}: ${fields.length === 1 ? `${fields[0]?.path}: ${fields[0]?.message}` : `${fields.length} invalid fields`}`,
      {
        details: '',
        metaMessages: [
          ...(fields.length === 1 ? [] : fields.map((field) => `- ${field.path}: ${field.message}`)),
          'Fix the file (`gridforge-provider init --config <new file>` writes one with every option explained).',
        ],
      },
    )
    this.file = file
    this.fields = fields
  }
}

export type ConfigSyntaxErrorType = ConfigSyntaxError & { name: 'ConfigSyntaxError' }

/** The config file is not valid TOML. */
export class ConfigSyntaxError extends BaseError {
  override name = 'ConfigSyntaxError' as const
  readonly file: string
  readonly line: number | undefined
  readonly column: number | undefined

  constructor({
    file,
    line,
    column,
    reason,
  }: { file: string; line: number | undefined; column: number | undefined; reason: string }) {
    super(
      `${file}${line === undefined ? '' : `:${line}${column === undefined ? '' : `:${column}`}`}: not valid TOML: ${reason}`,
      {
        details: '',
        metaMessages: [
          'Fix the line (strings need double quotes: rpc = "http://…"), then run the command again.',
        ],
      },
    )
    this.file = file
    this.line = line
    this.column = column
  }
}

export type ConfigNotFoundErrorType = ConfigNotFoundError & { name: 'ConfigNotFoundError' }

/** There is no config file where one was expected. */
export class ConfigNotFoundError extends BaseError {
  override name = 'ConfigNotFoundError' as const
  readonly file: string

  constructor({ file, cause }: { file: string; cause?: unknown }) {
    super(`no config file at ${file}`, {
      cause,
      details: '',
      metaMessages: [
        `Write one with \`gridforge-provider init --config ${file}\`,`,
        'or point --config (or GRIDFORGE_PROVIDER_CONFIG) at yours.',
      ],
    })
    this.file = file
  }
}

export type ConfigExistsErrorType = ConfigExistsError & { name: 'ConfigExistsError' }

/** `init` would replace a config file that exists. */
export class ConfigExistsError extends BaseError {
  override name = 'ConfigExistsError' as const
  readonly file: string

  constructor({ file }: { file: string }) {
    super(`${file} exists; not overwriting it`, {
      details: '',
      metaMessages: ['Pass --force to replace it, or --config <other file> to write another.'],
    })
    this.file = file
  }
}
