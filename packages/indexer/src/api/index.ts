/**
 * The indexer's HTTP API, served by Ponder: the REST routes (routes.ts) and
 * their OpenAPI document at /openapi.json, plus Ponder's GraphQL at /graphql
 * and SQL over HTTP at /sql/*.
 */
import { db } from 'ponder:api'
import schema from 'ponder:schema'
import { Hono } from 'hono'
import { client, graphql } from 'ponder'
import packageJson from '../../package.json' with { type: 'json' }
import { ConflictError, type ErrorBody, NotFoundError, NotIndexedError, ParameterError } from './errors.js'
import { openApiDocument } from './openapi.js'
import { readParameters } from './parameters.js'
import { routes } from './routes.js'

const app = new Hono()

const document = openApiDocument(routes, { version: packageJson.version })
app.get('/openapi.json', (c) => c.json(document))

for (const route of routes) {
  // OpenAPI's /tasks/{id} is Hono's /tasks/:id.
  app.get(route.path.replace(/\{(\w+)\}/g, ':$1'), async (c) => {
    const parameters = readParameters(
      { path: c.req.param() as Record<string, string>, query: new URL(c.req.url).searchParams },
      route.parameters,
    )
    return c.json(await route.answer(parameters as never))
  })
}

app.use('/graphql', graphql({ db, schema }))
app.use('/sql/*', client({ db, schema }))

// Last: Ponder mounts this app under its own, whose not-found answer is plain text.
app.all('*', (c) =>
  c.json<ErrorBody>(
    { error: { message: `no route ${c.req.method} ${c.req.path}: see /openapi.json for the routes` } },
    404,
  ),
)

app.onError((error, c) => {
  if (
    error instanceof ParameterError ||
    error instanceof NotFoundError ||
    error instanceof ConflictError ||
    error instanceof NotIndexedError
  )
    return c.json(error.body(), error.status)
  console.error(error)
  return c.json<ErrorBody>({ error: { message: 'internal error: the indexer logged it' } }, 500)
})

export default app
