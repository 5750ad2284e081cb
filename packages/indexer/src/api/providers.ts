/** GET /providers and GET /providers/{address}. */
import { db } from 'ponder:api'
import * as schema from 'ponder:schema'
import { and, asc, desc, eq, exists, inArray, lt } from 'ponder'
import { NotFoundError } from './errors.js'
import { providerJson } from './json.js'
import {
  addressPath,
  booleanQuery,
  cursor,
  encodeCursor,
  limit,
  type ParameterValues,
  sourceIdQuery,
} from './parameters.js'

/** A condition of a WHERE clause. */
type Filter = NonNullable<Parameters<typeof and>[number]>

export const listProvidersParameters = {
  source: sourceIdQuery('Only providers in this source’s pool now.'),
  paused: booleanQuery('Only paused (true) or only active (false) providers.'),
  limit,
  cursor: cursor('providers', /^[0-9]+$/),
}

/** Providers, the latest registered first. */
export async function listProviders(parameters: ParameterValues<typeof listProvidersParameters>) {
  const { provider, subscription } = schema
  const filters: Filter[] = []
  if (parameters.paused !== undefined) filters.push(eq(provider.paused, parameters.paused))
  if (parameters.source !== undefined)
    filters.push(
      exists(
        db
          .select({ provider: subscription.provider })
          .from(subscription)
          .where(
            and(
              eq(subscription.provider, provider.address),
              eq(subscription.sourceId, parameters.source),
              eq(subscription.subscribed, true),
            ),
          ),
      ),
    )
  if (parameters.cursor !== undefined) filters.push(lt(provider.registrationId, parameters.cursor))
  const rows = await db
    .select()
    .from(provider)
    .where(and(...filters))
    .orderBy(desc(provider.registrationId))
    .limit(parameters.limit + 1)
  const page = rows.slice(0, parameters.limit)
  const stakes =
    page.length === 0
      ? []
      : await db
          .select()
          .from(schema.stake)
          .where(
            inArray(
              schema.stake.account,
              page.map((row) => row.address),
            ),
          )
  const stakeOf = new Map(stakes.map((stake) => [stake.account, stake]))
  const last = page.at(-1)
  return {
    items: page.map((row) => providerJson(row, stakeOf.get(row.address) ?? null)),
    nextCursor:
      rows.length > parameters.limit && last !== undefined
        ? encodeCursor('providers', last.registrationId)
        : null,
  }
}

export const getProviderParameters = { address: addressPath('The provider’s address.') }

/** One provider, with the sources it is subscribed to. */
export async function getProvider({ address }: ParameterValues<typeof getProviderParameters>) {
  const [row] = await db.select().from(schema.provider).where(eq(schema.provider.address, address))
  if (row === undefined)
    throw new NotFoundError('address', `no provider ${address} (not registered, or not indexed yet)`)
  const [[stake], subscriptions] = await Promise.all([
    db.select().from(schema.stake).where(eq(schema.stake.account, address)),
    db
      .select({ sourceId: schema.subscription.sourceId })
      .from(schema.subscription)
      .where(and(eq(schema.subscription.provider, address), eq(schema.subscription.subscribed, true)))
      .orderBy(asc(schema.subscription.sourceId)),
  ])
  return { ...providerJson(row, stake ?? null), sources: subscriptions.map(({ sourceId }) => sourceId) }
}
