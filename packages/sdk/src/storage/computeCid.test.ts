import { chacha20 } from '@noble/ciphers/chacha.js'
import { importer } from 'ipfs-unixfs-importer'
import { fixedSize } from 'ipfs-unixfs-importer/chunker'
import type { CID } from 'multiformats/cid'
import { sha256 } from 'multiformats/hashes/sha2'
import { describe, expect, test } from 'vitest'
import { createBlockContentStore } from './blockContentStore.js'
import type { DirectoryEntry } from './ContentStore.js'
import { computeCid, computeDirectoryCid } from './computeCid.js'
import { InvalidContentError, InvalidDirectoryEntryError } from './errors.js'
import { getBytes } from './getBytes.js'
import { memoryStore } from './memoryStore.js'
import { unixfsImportOptions, unixfsImportSettings } from './unixfs.js'

// Every CID below was produced by Kubo (`ipfs add`) or checked against it by its authors; each
// test names its public source. None is computed by this code.

const text = (value: string) => new TextEncoder().encode(value)
const files = (tree: Record<string, string>): DirectoryEntry[] =>
  Object.entries(tree).map(([path, content]) => ({ path, content: text(content) }))

/**
 * Kubo's deterministic test data: the ChaCha20 keystream with key sha256(seed) and a zero nonce,
 * streamed 1 MiB at a time (kubo test/cli/testutils/random_deterministic.go, ported in
 * ipfs/js-ipfs-unixfs packages/ipfs-unixfs-importer/test/helpers/deterministic.ts).
 */
async function* deterministic(size: number, seed: string): AsyncGenerator<Uint8Array> {
  const key = (await sha256.digest(text(seed))).digest
  const nonce = new Uint8Array(12)
  let counter = 0
  for (let remaining = size; remaining > 0; ) {
    const n = Math.min(remaining, 1024 * 1024)
    yield chacha20(key, nonce, new Uint8Array(n), undefined, counter)
    counter += Math.ceil(n / 64)
    remaining -= n
  }
}

/** Runs the importer with the SDK's options and some overridden (only for fixtures made with other flags). */
async function importWith(
  source: Parameters<typeof importer>[0],
  overrides: Parameters<typeof importer>[2],
  blocks: Map<string, Uint8Array> = new Map(),
): Promise<CID> {
  let last: CID | undefined
  const blockstore = {
    put: async (cid: CID, bytes: Uint8Array) => {
      blocks.set(cid.toString(), bytes)
      return cid
    },
  }
  for await (const entry of importer(source, blockstore as never, { ...unixfsImportOptions, ...overrides }))
    last = entry.cid
  if (last === undefined) throw new Error('nothing imported')
  return last
}

describe('files', () => {
  test('the empty file is the empty raw block', async () => {
    // UnixFS spec, "Well-Known UnixFS CIDs" (ipfs/specs src/unixfs.md); Kubo output quoted in
    // ipfs-shipyard/py-ipfs-http-client#293 (`ipfs add --cid-version 1 empty`).
    expect(await computeCid(new Uint8Array())).toBe(
      'bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku',
    )
  })

  test('"hello world" is one raw block', async () => {
    // kubo test/cli/add_test.go: shortStringCidV1 (cidv1, raw, sha2-256).
    expect(await computeCid(text('hello world'))).toBe(
      'bafkreifzjut3te2nhyekklss27nh3k72ysco7y32koao5eei66wof36n5e',
    )
    // UnixFS spec test vectors, "Single raw Block File": "hello world\n".
    expect(await computeCid(text('hello world\n'))).toBe(
      'bafkreifjjcie6lypi6ny7amxnfftagclbuxndqonfipmb64f2km2devei4',
    )
  })

  test('a file of exactly one chunk is still a raw block, one byte more makes a two-leaf DAG', async () => {
    // ipfs/js-ipfs-unixfs ipip-499-profiles.spec.ts, vectors from kubo test/cli/cid_profiles_test.go
    // (unixfs-v1-2025: CIDv1, raw leaves, balanced; its chunk is 1 MiB, set here to match).
    const chunker = { chunker: fixedSize({ chunkSize: 1_048_576 }) }
    expect(
      (await importWith([{ content: deterministic(1_048_576, 'chunk-v1-seed') }], chunker)).toString(),
    ).toBe('bafkreiacndfy443ter6qr2tmbbdhadvxxheowwf75s6zehscklu6ezxmta')
    expect(
      (await importWith([{ content: deterministic(1_048_577, 'chunk-v1-seed') }], chunker)).toString(),
    ).toBe('bafybeigmix7t42i6jacydtquhet7srwvgpizfg7gjbq7627d35mjomtu64')
  })

  test('a multi-chunk file: raw leaves under a balanced dag-pb root, as Kubo builds it', async () => {
    // `echo "Hello World" | ipfs add --cid-version 1 --chunker=size-4` (3 raw leaves of 4 bytes),
    // https://discuss.ipfs.tech/t/member-data-of-root-node/15252 (root data: filesize 12, blocksizes 4,4,4).
    const blocks = new Map<string, Uint8Array>()
    const cid = await importWith(
      [{ content: text('Hello World\n') }],
      { chunker: fixedSize({ chunkSize: 4 }) },
      blocks,
    )
    expect(cid.toString()).toBe('bafybeiag43jli67lcov4ytqhpfxbodmhp6hjvjh73jrjid7zf73p7a6nqa')
    // Read back through the verifying reader.
    const store = blockStore(blocks)
    expect(new TextDecoder().decode(await getBytes(store, cid.toString()))).toBe('Hello World\n')
  })

  test('256 KiB chunks and 174 links per node: a 175-chunk file gets a second level', async () => {
    // kubo test/cli/cid_profiles_test.go + js-ipfs-unixfs ipip-499-profiles.spec.ts, unixfs-v0-2015
    // "file over max links (174 x 256 KiB + 1)". That profile differs from ours only in the leaf
    // encoding (CIDv0, dag-pb leaves); chunk size, layout and width are the ones this test checks.
    const cid = await importWith([{ content: deterministic(174 * 262_144 + 1, 'v0-seed') }], {
      cidVersion: 0,
      rawLeaves: false,
    })
    expect(cid.toString()).toBe('QmV81WL765sC8DXsRhE5fJv2rwhS4icHRaf3J9Zk5FdRnW')
  })

  test('streams, sync iterables, ReadableStreams and bytes give the same CID', async () => {
    const bytes = new Uint8Array(700_000).map((_, i) => (i * 31) % 251)
    const expected = await computeCid(bytes)
    expect(await computeCid([bytes.subarray(0, 1), bytes.subarray(1)])).toBe(expected)
    expect(
      await computeCid(
        (async function* () {
          for (let i = 0; i < bytes.length; i += 65_536) yield bytes.subarray(i, i + 65_536)
        })(),
      ),
    ).toBe(expected)
    expect(await computeCid(new Blob([bytes]).stream())).toBe(expected)
    expect(expected.startsWith('bafybei')).toBe(true)
  })

  test('content that is not bytes is refused with a typed error', async () => {
    await expect(computeCid('hello' as never)).rejects.toBeInstanceOf(InvalidContentError)
    await expect(computeCid([text('a'), 'b'] as never)).rejects.toBeInstanceOf(InvalidContentError)
    await expect(computeCid(null as never)).rejects.toBeInstanceOf(InvalidContentError)
  })
})

describe('directories', () => {
  test('the empty directory', async () => {
    // UnixFS spec, "Well-Known UnixFS CIDs": empty dag-pb directory, CIDv1.
    expect(await computeDirectoryCid([])).toBe('bafybeiczsscdsbs7ffqz55asqdf3smv6klcw3gofszvwlyarci47bgf354')
  })

  test('a nested directory (kubo t0114 testdirlisting)', async () => {
    // kubo test/sharness/t0114-gateway-subdomains/README.md: `ipfs add -Qr --cid-version 1 testdirlisting`.
    const tree = files({
      hello: 'hello\n',
      'ipfs/ipns/bar': 'text-file-content\n',
      'api/file.txt': 'I am a txt file\n',
      'ipfs/file.txt': 'I am a txt file\n',
    })
    expect(await computeDirectoryCid(tree)).toBe(
      'bafybeiht6dtwk3les7vqm6ibpvz6qpohidvlshsfyr7l5mpysdw2vmbbhe',
    )
    expect(await computeCid(text('hello\n'))).toBe(
      'bafkreicysg23kiwv34eg2d7qweipxwosdo2py4ldv42nbauguluen5v6am',
    )
    // The entry order given does not matter.
    expect(await computeDirectoryCid([...tree].reverse())).toBe(
      'bafybeiht6dtwk3les7vqm6ibpvz6qpohidvlshsfyr7l5mpysdw2vmbbhe',
    )
  })

  test('UTF-8 names (kubo t0122 / t0123 rootDir)', async () => {
    // kubo test/sharness/t0122-gateway-tar/README.md: `ipfs add -Qr --cid-version 1 rootDir`.
    const tree = {
      'ą/ę/file-źł.txt': 'I am a txt file on path with utf8\n',
      'api/file.txt': 'I am a txt file in confusing /api dir\n',
      'ipfs/file.txt': 'I am a txt file in confusing /ipfs dir\n',
      'ipns/file.txt': 'I am a txt file in confusing /ipns dir\n',
    }
    expect(await computeDirectoryCid(files(tree))).toBe(
      'bafybeig6ka5mlwkl4subqhaiatalkcleo4jgnr3hqwvpmsqfca27cijp3i',
    )
    expect(await computeCid(text(tree['ą/ę/file-źł.txt']))).toBe(
      'bafkreialihlqnf5uwo4byh4n3cmwlntwqzxxs2fg5vanqdi3d7tb2l5xkm',
    )
    // kubo test/sharness/t0123-gateway-json-cbor/README.md: the same tree plus ą/ę/t.json.
    const withJson = files({ ...tree, 'ą/ę/t.json': '{ "test": "i am a plain json file" }\n' })
    expect(await computeDirectoryCid(withJson)).toBe(
      'bafybeiafyvqlazbbbtjnn6how5d6h6l6rxbqc4qgpbmteaiskjrffmyy4a',
    )
  })

  test('a deep single path, wrapped (kubo t0116 root2)', async () => {
    // kubo test/sharness/t0116-gateway-cache/README.md: `ipfs add -Qrw --cid-version 1 root2`
    // (ROOT1 wraps root2, as putDirectory wraps its entries).
    expect(await computeDirectoryCid(files({ 'root2/root3/root4/index.html': 'hello\n' }))).toBe(
      'bafybeib3ffl2teiqdncv3mkz4r23b5ctrwkzrrhctdbne6iboayxuxk5ui',
    )
    expect(await computeDirectoryCid(files({ 'root3/root4/index.html': 'hello\n' }))).toBe(
      'bafybeih2w7hjocxjg6g2ku25hvmd53zj7og4txpby3vsusfefw5rrg5sii',
    )
  })

  test('gateway-conformance fixtures from the UnixFS spec test vectors', async () => {
    // ipfs/specs src/unixfs.md, "Nested Directories": subdir-with-two-single-block-files.car.
    expect(
      await computeDirectoryCid(
        files({
          'subdir/ascii.txt': 'hello application/vnd.ipld.car\n',
          'subdir/hello.txt': 'hello world\n',
        }),
      ),
    ).toBe('bafybeietjm63oynimmv5yyqay33nui4y4wx6u3peezwetxgiwvfmelutzu')
    // Same section: dag-pb.car.
    expect(
      await computeDirectoryCid(files({ 'foo/bar.txt': 'Hello, world!\n', 'foo.txt': 'Hello, IPFS!\n' })),
    ).toBe('bafybeiegxwlgmoh2cny7qlolykdf7aq7g6dlommarldrbm7c4hbckhfcke')
  })

  test('HAMT threshold: flat up to 256 KiB of link bytes, sharded past it', async () => {
    // ipfs/js-ipfs-unixfs hash-parity-with-go-ipfs.spec.ts, "go-ipfs auto-sharding interop"
    // (cidVersion 1, raw leaves, default threshold: this SDK's settings exactly).
    const entries = (count: number) =>
      Array.from({ length: count }, (_, index) => {
        const name = `long name to fill out bytes to make the sharded directory test flip over the sharded directory limit because link names are included in the directory entry ${index}`
        return { path: name, content: text(name) }
      })
    expect(await computeDirectoryCid(entries(1343))).toBe(
      'bafybeihecq4rpl4nw3cgfb2uiwltgsmw5sutouvuldv5fxn4gfbihvnalq',
    )
    const store = memoryStore()
    const sharded = await store.putDirectory(entries(1344))
    expect(sharded).toBe('bafybeigyvxs6og5jbmpaa43qbhhd5swklqcfzqdrtjgfh53qjon6hpjaye')
    // The sharded directory reads back: every entry listed, a file found by name.
    const listing = await store.ls(sharded)
    expect(listing).toHaveLength(1344)
    const last = entries(1344)[1343] as { path: string }
    expect(new TextDecoder().decode(await getBytes(store, sharded, { path: last.path }))).toBe(last.path)
  })

  test('a HAMT made by Kubo reads back (kubo t0260 SHARDEDV1, sharding forced)', async () => {
    // kubo test/sharness/t0260-sharding.sh: 2000 files file$i containing "$i\n", added with
    // `ipfs add -r -Q --cid-version=1` and Internal.UnixFSShardingSizeThreshold=1B.
    const blocks = new Map<string, Uint8Array>()
    const source = Array.from({ length: 2000 }, (_, i) => ({
      path: `testdata/file${i + 1}`,
      content: text(`${i + 1}\n`),
    }))
    const cid = await importWith(source, { shardSplitThresholdBytes: 1 }, blocks)
    expect(cid.toString()).toBe('bafybeibiemewfzzdyhq2l74wrd6qj2oz42usjlktgnlqv4yfawgouaqn4u')
    const store = blockStore(blocks)
    expect(await store.ls(cid.toString())).toHaveLength(2000)
    expect(new TextDecoder().decode(await getBytes(store, cid.toString(), { path: 'file20' }))).toBe('20\n')
  })

  test('the settings constant says what the options do', () => {
    expect(unixfsImportSettings).toEqual({
      cidVersion: 1,
      hash: 'sha2-256',
      rawLeaves: true,
      chunkSize: 262_144,
      layout: 'balanced',
      maxChildrenPerNode: 174,
      reduceSingleLeafToSelf: true,
      shardSplitThresholdBytes: 262_144,
      shardSplitStrategy: 'links-bytes',
      shardFanoutBits: 8,
    })
    expect(Object.isFrozen(unixfsImportOptions)).toBe(true)
  })

  test.each([
    ['', 'the path is empty'],
    ['/abs', 'relative'],
    ['a//b', 'empty segment'],
    ['a/', 'empty segment'],
    ['../x', '`..`'],
    ['a/./b', '`.`'],
    ['a\0b', 'NUL'],
    ['a\\/b', 'escape'],
  ])('refuses the entry path %j', async (path, reason) => {
    const error = await computeDirectoryCid([{ path, content: text('x') }]).catch((e) => e)
    expect(error).toBeInstanceOf(InvalidDirectoryEntryError)
    expect(error.message).toContain(reason)
  })

  test('refuses duplicates and file/directory clashes', async () => {
    const entry = (path: string) => ({ path, content: text('x') })
    await expect(computeDirectoryCid([entry('a'), entry('a')])).rejects.toThrow(/appears twice/)
    await expect(computeDirectoryCid([entry('a'), entry('a/b')])).rejects.toThrow(/`a` is a file/)
    await expect(computeDirectoryCid([entry('a/b'), entry('a')])).rejects.toThrow(/already a directory/)
    await expect(
      computeDirectoryCid([
        { path: 'a', type: 'directory' },
        entry('a/b'),
        { path: 'c', type: 'symlink', target: '' },
      ]),
    ).rejects.toThrow(/non-empty `target`/)
    // An explicit directory that also has files is fine, in any order.
    expect(await computeDirectoryCid([{ path: 'a', type: 'directory' }, entry('a/b')])).toBe(
      await computeDirectoryCid([entry('a/b')]),
    )
    expect(await computeDirectoryCid([entry('a/b'), { path: 'a', type: 'directory' }])).toBe(
      await computeDirectoryCid([entry('a/b')]),
    )
  })
})

/** A read-only store over blocks imported by a test. */
function blockStore(blocks: Map<string, Uint8Array>) {
  return createBlockContentStore({
    description: 'test blocks',
    async getBlock(cid) {
      const bytes = blocks.get(cid.toString())
      if (bytes === undefined) throw new Error(`missing ${cid}`)
      return bytes
    },
    async hasBlock(cid) {
      return blocks.has(cid.toString())
    },
  })
}
