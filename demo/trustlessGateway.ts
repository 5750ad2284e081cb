/**
 * `GET` and `HEAD /ipfs/{cid}` as a strict
 * [trustless gateway](https://specs.ipfs.tech/http-gateways/trustless-gateway/): the raw block
 * (`?format=raw` or `Accept: application/vnd.ipld.raw`) or a CARv1 of the DAG (`?format=car` or
 * `Accept: application/vnd.ipld.car`, `dag-scope=all|entity|block`, `dups=n|y`, blocks depth first),
 * so that any IPFS client (Helia, `@helia/verified-fetch`, the SDK's `gatewayReader`, Kubo's
 * `Gateway.HTTPRetrieval`) can fetch from the store and check every block against its CID.
 * Deserialized responses (a file's bytes as such, directory listings) are not served: a request
 * asking for neither format is answered 400, as the spec says a strict trustless gateway does.
 */
import { ContentNotFoundError, type ContentStore } from '@gridforge/sdk/storage'
import { CarWriter } from '@ipld/car'
import { base16 } from 'multiformats/bases/base16'
import { base32 } from 'multiformats/bases/base32'
import { base36 } from 'multiformats/bases/base36'
import { base58btc } from 'multiformats/bases/base58'
import { CID } from 'multiformats/cid'
import { type DagScope, dagBlocks } from './dagBlocks.js'

/** A request the gateway refuses, answered with `status` and a plain-text message. */
export class GatewayError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message)
  }
}

export interface GatewayRequest {
  method: string
  url: URL
  headers: Headers
}

const RAW = 'application/vnd.ipld.raw'
const CAR = 'application/vnd.ipld.car'
/** The multibases a CID in a path may use (those Kubo and gateways print). */
const cidDecoder = base32.decoder.or(base36.decoder).or(base58btc.decoder).or(base16.decoder)
const scopes: readonly DagScope[] = ['all', 'entity', 'block']

type Format = { kind: 'raw' } | { kind: 'car'; duplicates: boolean }

/**
 * Answers `GET` or `HEAD /ipfs/{cid}` from `store` (only its public `getBlock` and `has`).
 *
 * @example
 * const response = await trustlessGatewayResponse(fsStore({ root }), {
 *   method: 'GET',
 *   url: new URL(`http://127.0.0.1/ipfs/${cid}?format=car`),
 *   headers: new Headers(),
 * })
 */
export async function trustlessGatewayResponse(
  store: Pick<ContentStore, 'getBlock' | 'has'>,
  request: GatewayRequest,
): Promise<Response> {
  const { method, url, headers } = request
  if (method !== 'GET' && method !== 'HEAD')
    throw new GatewayError(`method ${method} not allowed: use GET or HEAD`, 405)
  const [segment = '', ...path] = url.pathname.slice('/ipfs/'.length).split('/')
  // The CID as the client wrote it (any multibase), once it parsed: safe in headers and file names.
  const given = decodeSegment(segment)
  const cid = parseCid(given)
  const format = negotiate(url.searchParams, headers.get('accept'))
  if (path.some((segment) => segment !== ''))
    throw new GatewayError(
      'paths inside a CID are not served here: request the CID of the entry itself (list the directory to find it)',
      400,
    )

  const common = {
    'cache-control': 'public, max-age=29030400, immutable',
    'x-content-type-options': 'nosniff',
    'x-ipfs-path': `/ipfs/${given}`,
    vary: 'Accept',
  }
  if (format.kind === 'raw') {
    const etag = `"${cid}.raw"`
    if (headers.get('if-none-match') === etag) return new Response(null, { status: 304, headers: { etag } })
    const bytes = await readRoot(store, cid, headers)
    // A copy: `Response` wants bytes on an `ArrayBuffer` of their own.
    return new Response(method === 'HEAD' ? null : bytes.slice(), {
      headers: {
        ...common,
        'content-type': RAW,
        'content-length': String(bytes.byteLength),
        'content-disposition': `attachment; filename="${given}.bin"`,
        etag,
      },
    })
  }

  const scope = (url.searchParams.get('dag-scope') ?? 'all') as DagScope
  if (!scopes.includes(scope))
    throw new GatewayError(`dag-scope=${scope} is not one of ${scopes.join(', ')}`, 400)
  if (url.searchParams.has('entity-bytes'))
    throw new GatewayError(
      'entity-bytes is not supported here: ask for the whole entity (dag-scope=entity)',
      400,
    )
  const dups = format.duplicates ? 'y' : 'n'
  // Weak: the same blocks in the same order, but this gateway does not promise identical bytes.
  const etag = `W/"${cid}.car.${scope}.dfs.${dups}"`
  if (headers.get('if-none-match') === etag) return new Response(null, { status: 304, headers: { etag } })
  // Only a missing root is a 404; a block missing below it cuts the stream short (the spec's rule).
  if (!(await store.has(cid.toString()))) throw notFound(cid, headers)
  const responseHeaders = {
    ...common,
    'content-type': `${CAR}; version=1; order=dfs; dups=${dups}`,
    'content-disposition': `attachment; filename="${given}.car"`,
    'x-ipfs-roots': cid.toString(),
    etag,
  }
  if (method === 'HEAD') return new Response(null, { headers: responseHeaders })
  return new Response(streamOf(carStream(store, cid, { scope, duplicates: format.duplicates })), {
    headers: responseHeaders,
  })
}

/** A CARv1 with `root` as its only root and the blocks of its DAG, as the writer encodes them. */
async function* carStream(
  store: Pick<ContentStore, 'getBlock'>,
  root: CID,
  options: { scope: DagScope; duplicates: boolean },
): AsyncGenerator<Uint8Array> {
  const { writer, out } = CarWriter.create([root])
  const writing = (async () => {
    try {
      for await (const block of dagBlocks(store, root, options)) await writer.put(block)
    } finally {
      await writer.close()
    }
  })()
  writing.catch(() => {})
  yield* out
  // A block that could not be read ends the stream with an error, so the client sees a cut CAR.
  await writing
}

/** A web stream of the chunks, pulled one at a time; cancelling it stops the generator. */
function streamOf(chunks: AsyncGenerator<Uint8Array>): ReadableStream<Uint8Array> {
  return new ReadableStream({
    async pull(controller) {
      const next = await chunks.next()
      if (next.done) controller.close()
      else controller.enqueue(next.value)
    },
    async cancel() {
      await chunks.return(undefined)
    },
  })
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    throw new GatewayError(
      `invalid CID ${JSON.stringify(segment.slice(0, 100))}: malformed percent-encoding`,
      400,
    )
  }
}

function parseCid(input: string): CID {
  try {
    return CID.parse(input, cidDecoder)
  } catch (error) {
    throw new GatewayError(
      `invalid CID ${JSON.stringify(input.slice(0, 100))}: ${error instanceof Error ? error.message : String(error)}`,
      400,
    )
  }
}

async function readRoot(
  store: Pick<ContentStore, 'getBlock'>,
  cid: CID,
  headers: Headers,
): Promise<Uint8Array> {
  try {
    return await store.getBlock(cid.toString())
  } catch (error) {
    if (error instanceof ContentNotFoundError) throw notFound(cid, headers)
    throw error
  }
}

/** 404, or 412 for `Cache-Control: only-if-cached` (the spec's answer when the root is not here). */
function notFound(cid: CID, headers: Headers): GatewayError {
  const onlyIfCached = /(^|,)\s*only-if-cached\s*(,|$)/i.test(headers.get('cache-control') ?? '')
  return new GatewayError(`${cid} is not in this store`, onlyIfCached ? 412 : 404)
}

/**
 * The response format: `?format=` first (the spec's precedence), then the first acceptable type of
 * `Accept` by quality; CAR parameters (`version`, `order`, `dups`, or `car-version`, `car-order`,
 * `car-dups` in the query) must be ones this gateway writes.
 */
function negotiate(query: URLSearchParams, accept: string | null): Format {
  const format = query.get('format')
  if (format !== null) {
    if (format === 'raw') return { kind: 'raw' }
    if (format === 'car') {
      const car = carParameters(query, {})
      if (car === undefined) throw new GatewayError('only CARv1 in dfs order is written here', 400)
      return car
    }
    throw new GatewayError(`format=${format} is not served here: use format=raw or format=car`, 400)
  }
  const ranges = (accept ?? '')
    .split(',')
    .map((range, index) => {
      const [type = '', ...parameters] = range.split(';').map((part) => part.trim())
      const values: Record<string, string> = {}
      for (const parameter of parameters) {
        const [name = '', value = ''] = parameter.split('=').map((part) => part.trim().replace(/^"|"$/g, ''))
        values[name.toLowerCase()] = value
      }
      const q = values.q === undefined ? 1 : Number(values.q)
      return { type: type.toLowerCase(), values, q: Number.isFinite(q) ? q : 0, index }
    })
    .filter((range) => range.type !== '' && range.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
  for (const range of ranges) {
    if (range.type === RAW) return { kind: 'raw' }
    if (range.type === CAR) {
      const car = carParameters(query, range.values)
      if (car !== undefined) return car
    }
  }
  if (ranges.some((range) => range.type === RAW || range.type === CAR))
    throw new GatewayError(
      `none of the CAR variants asked for is served here (${CAR}; version=1; order=dfs; dups=n or y)`,
      406,
    )
  throw new GatewayError(
    `this is a strict trustless gateway: ask for ${RAW} (one block) or ${CAR} (the DAG), or add ?format=raw or ?format=car`,
    400,
  )
}

/** The CAR variant, or `undefined` when the parameters ask for one this gateway does not write. */
function carParameters(query: URLSearchParams, values: Record<string, string>): Format | undefined {
  const version = query.get('car-version') ?? values.version ?? '1'
  const order = query.get('car-order') ?? values.order ?? 'dfs'
  const dups = query.get('car-dups') ?? values.dups ?? 'n'
  if (version !== '1' || (order !== 'dfs' && order !== 'unk') || (dups !== 'y' && dups !== 'n'))
    return undefined
  return { kind: 'car', duplicates: dups === 'y' }
}
