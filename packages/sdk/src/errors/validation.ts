import { BaseError } from './base.js'

/** One field that failed validation: where it is, what was wrong and how to fix it. */
export interface InvalidField {
  /** Dotted path of the field in the parameters, e.g. `requirements.minGpus`. */
  path: string
  /** What is wrong and what to pass instead. */
  message: string
}

export type InvalidParametersErrorType = InvalidParametersError & { name: 'InvalidParametersError' }

/**
 * Thrown before any transaction is sent when parameters do not validate.
 * `fields` lists every bad field with the fix.
 */
export class InvalidParametersError extends BaseError {
  override name = 'InvalidParametersError' as const
  readonly fields: readonly InvalidField[]

  constructor({ action, fields }: { action: string; fields: readonly InvalidField[] }) {
    const first = fields[0]
    super(
      fields.length === 1 && first !== undefined
        ? `${action}: invalid \`${first.path}\`: ${first.message}`
        : `${action}: ${fields.length} invalid parameters`,
      { metaMessages: fields.map((field) => `- ${field.path}: ${field.message}`) },
    )
    this.fields = fields
  }
}
