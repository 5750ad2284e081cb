import { HttpResponse, http } from 'msw'
import type { SetupServer } from 'msw/node'

/**
 * A fake indexer list on `server` (msw): `GET <url><path>` answers `ids` newest first, two per page (the SDK
 * follows `nextCursor`, whatever the page size), each item `{ id, status, extra }` (fields the SDK must
 * ignore), and records the query of every request, which it returns.
 */
export function fakeIndexerList(
  server: SetupServer,
  { url, path, ids, status }: { url: string; path: string; ids: readonly bigint[]; status: string },
): Record<string, string>[] {
  const queries: Record<string, string>[] = []
  server.use(
    http.get(`${url}${path}`, ({ request }) => {
      const query = Object.fromEntries(new URL(request.url).searchParams)
      queries.push(query)
      const below = query.cursor === undefined ? undefined : BigInt(query.cursor)
      const listed = [...ids].reverse().filter((id) => below === undefined || id < below)
      const page = listed.slice(0, 2)
      return HttpResponse.json({
        items: page.map((id) => ({ id: id.toString(), status, extra: 'ignored' })),
        nextCursor: listed.length > 2 ? page.at(-1)?.toString() : null,
      })
    }),
  )
  return queries
}
