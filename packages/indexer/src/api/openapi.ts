/** The OpenAPI 3.1 document of the REST API, built from the route table and the schemas. */
import type { Route } from './routes.js'
import { componentSchemas } from './schemas.js'

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
})

export function openApiDocument(routes: readonly Route[], { version }: { version: string }) {
  const paths: Record<string, unknown> = {}
  for (const route of routes) {
    paths[route.path] = {
      get: {
        operationId: route.operationId,
        summary: route.summary,
        description: route.description,
        parameters: Object.entries(route.parameters).map(([name, parameter]) => ({
          name,
          in: parameter.in,
          required: parameter.required,
          description: parameter.description,
          schema: parameter.schema,
        })),
        responses: {
          '200': {
            description: route.summary,
            content: { 'application/json': { schema: { $ref: `#/components/schemas/${route.response}` } } },
          },
          '400': errorResponse('A parameter cannot be used: the message names it and says what is allowed.'),
          ...(route.notFound && { '404': errorResponse('Nothing indexed has this id.') }),
          ...(route.conflict !== undefined && { '409': errorResponse(route.conflict) }),
        },
      },
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Gridforge indexer',
      version,
      description:
        'The Gridforge market’s history, indexed from its contracts’ events: tasks, providers, sources and market statistics. Amounts are decimal strings of base units (wei); times are `{ unix, iso }` of chain time. Lists are newest first, in pages of `limit` with an opaque `cursor`. Ponder also serves GraphQL at `/graphql`, SQL over HTTP at `/sql/*`, and `/health`, `/ready` and `/status`.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    paths,
    components: { schemas: componentSchemas },
  }
}
