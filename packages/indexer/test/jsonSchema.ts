/**
 * Checks a value against a schema of the OpenAPI document, so that the tests
 * prove the document says what the API answers. Only the keywords the
 * document uses: $ref (to its components), type (one or several), enum,
 * pattern, properties, required, additionalProperties: false, items, anyOf.
 */
type Schema = { [keyword: string]: unknown }

/** The problems of `value` against `schema` (empty when it conforms), each with its JSON path. */
export function schemaProblems(
  value: unknown,
  schema: Schema,
  components: Record<string, Schema>,
  path = '$',
): string[] {
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.replace('#/components/schemas/', '')
    const target = components[name]
    if (target === undefined) return [`${path}: unknown schema ${schema.$ref}`]
    return schemaProblems(value, target, components, path)
  }
  if (Array.isArray(schema.anyOf)) {
    const fits = (schema.anyOf as Schema[]).some(
      (option) => schemaProblems(value, option, components, path).length === 0,
    )
    return fits ? [] : [`${path}: ${JSON.stringify(value)} fits none of anyOf`]
  }
  const types = schema.type === undefined ? [] : ([] as string[]).concat(schema.type as string | string[])
  if (types.length > 0 && !types.includes(typeOf(value)))
    return [`${path}: expected ${types.join(' or ')}, got ${typeOf(value)} ${JSON.stringify(value)}`]
  if (value === null) return []
  const problems: string[] = []
  if (Array.isArray(schema.enum) && !schema.enum.includes(value))
    problems.push(`${path}: ${JSON.stringify(value)} is not one of ${JSON.stringify(schema.enum)}`)
  if (
    typeof schema.pattern === 'string' &&
    typeof value === 'string' &&
    !new RegExp(schema.pattern).test(value)
  )
    problems.push(`${path}: ${JSON.stringify(value)} does not match ${schema.pattern}`)
  if (Array.isArray(value) && schema.items !== undefined)
    value.forEach((item, index) => {
      problems.push(...schemaProblems(item, schema.items as Schema, components, `${path}[${index}]`))
    })
  if (typeOf(value) === 'object') {
    const object = value as Record<string, unknown>
    const properties = (schema.properties ?? {}) as Record<string, Schema>
    for (const name of (schema.required ?? []) as string[])
      if (!(name in object)) problems.push(`${path}: missing ${name}`)
    for (const [name, item] of Object.entries(object)) {
      const property = properties[name]
      if (property !== undefined)
        problems.push(...schemaProblems(item, property, components, `${path}.${name}`))
      else if (schema.additionalProperties === false) problems.push(`${path}: unexpected ${name}`)
    }
  }
  return problems
}

function typeOf(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  if (Number.isInteger(value)) return 'integer'
  return typeof value
}
