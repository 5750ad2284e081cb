import type * as z from 'zod/mini'
import { type InvalidField, InvalidParametersError } from '../errors/validation.js'

/** Parses `input` with `schema`, or throws {@link InvalidParametersError} listing every bad field. */
export function validate<schema extends z.ZodMiniType>(
  action: string,
  schema: schema,
  input: unknown,
): z.output<schema> {
  const result = schema.safeParse(input)
  if (result.success) return result.data
  throw new InvalidParametersError({
    action,
    fields: result.error.issues.map((issue) => ({
      path: issue.path.length === 0 ? '(parameters)' : issue.path.join('.'),
      message: issue.message,
    })),
  })
}

/** A field that may be left out (`undefined`). */
export interface OptionalField<inner> {
  optional: inner
}

/** Marks a field of a {@link Fields} shape as optional. */
export function optional<const inner extends z.ZodMiniType | Fields>(inner: inner): OptionalField<inner> {
  return { optional: inner }
}

/** Field schemas by name; a nested (optional) shape is an object parameter. */
export type Fields = { [key: string]: z.ZodMiniType | OptionalField<z.ZodMiniType> | OptionalField<Fields> }

/** What a {@link Fields} shape parses to. */
export type FieldsOutput<fields> = {
  [key in keyof fields]: fields[key] extends OptionalField<infer inner>
    ? (inner extends z.ZodMiniType ? z.output<inner> : FieldsOutput<inner>) | undefined
    : fields[key] extends z.ZodMiniType
      ? z.output<fields[key]>
      : never
}

/**
 * Validates an object field by field, each with its own zod schema, and
 * collects every bad field (with its dotted path after `prefix`).
 *
 * This is `z.object` without `z.object`: the object schema and its compiler
 * cost about 1.7 kB min+gzip, which would not fit the 8 kB budget of
 * `submitTask` in browser bundles. Unknown keys are ignored, as `z.object` does.
 */
export function parseFields<fields extends Fields>(
  shape: fields,
  input: unknown,
  prefix = '',
  invalid: InvalidField[] = [],
): FieldsOutput<fields> {
  const output: Record<string, unknown> = {}
  if (typeof input !== 'object' || input === null) {
    invalid.push({ path: prefix.slice(0, -1) || '(parameters)', message: 'expected an object' })
    return output as FieldsOutput<fields>
  }
  for (const [key, field] of Object.entries(shape)) {
    const value = (input as Record<string, unknown>)[key]
    const isOptional = 'optional' in field
    if (value === undefined) {
      if (!isOptional) invalid.push({ path: prefix + key, message: 'is required' })
      continue
    }
    const schema = isOptional ? field.optional : field
    if (!('_zod' in schema)) {
      output[key] = parseFields(schema as Fields, value, `${prefix}${key}.`, invalid)
      continue
    }
    const result = (schema as z.ZodMiniType).safeParse(value)
    if (result.success) output[key] = result.data
    else for (const issue of result.error.issues) invalid.push({ path: prefix + key, message: issue.message })
  }
  return output as FieldsOutput<fields>
}

/** {@link parseFields}, throwing {@link InvalidParametersError} when a field is bad. */
export function validateFields<fields extends Fields>(
  action: string,
  shape: fields,
  input: unknown,
): FieldsOutput<fields> {
  const invalid: InvalidField[] = []
  const output = parseFields(shape, input, '', invalid)
  if (invalid.length > 0) throw new InvalidParametersError({ action, fields: invalid })
  return output
}
