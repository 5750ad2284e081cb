import type * as z from 'zod/mini'
import { InvalidParametersError } from '../errors/validation.js'

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
