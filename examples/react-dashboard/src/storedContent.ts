import { parseSourceMetadata, type Source, type SourceMetadata } from '@gridforge/sdk'
import { getBytes, getJson } from '@gridforge/sdk/storage'
import { useQuery } from '@tanstack/react-query'
import { contentStore } from './config'

/** Content is addressed by its hash: once read, it never changes. */
const immutable = { staleTime: Number.POSITIVE_INFINITY, gcTime: 5 * 60_000 } as const

/**
 * A file from the content store as text (UTF-8), read whole and verified block by block;
 * larger than `maxBytes` fails with `ContentTooLargeError`. Disabled while `cid` is undefined.
 */
export function useStoredText(cid: string | undefined, { maxBytes }: { maxBytes: number }) {
  return useQuery({
    ...immutable,
    queryKey: ['content', 'text', { cid, maxBytes }],
    queryFn: async () => {
      if (cid === undefined) throw new Error('cid is required')
      return new TextDecoder().decode(await getBytes(contentStore, cid, { maxBytes }))
    },
    enabled: cid !== undefined,
  })
}

/** The entries of a directory in the content store (a file's CID fails with `NotADirectoryError`). */
export function useStoredDirectory(cid: string | undefined) {
  return useQuery({
    ...immutable,
    queryKey: ['content', 'ls', { cid }],
    queryFn: () => {
      if (cid === undefined) throw new Error('cid is required')
      return contentStore.ls(cid)
    },
    enabled: cid !== undefined,
    retry: false,
  })
}

/** A source's metadata document (name, description, image, …), validated. */
export function useSourceMetadata(source: Source | undefined) {
  const cid = source?.metadata
  return useQuery<SourceMetadata>({
    ...immutable,
    queryKey: ['content', 'sourceMetadata', { cid }],
    queryFn: async () => {
      if (cid === undefined) throw new Error('cid is required')
      return parseSourceMetadata(await getJson(contentStore, cid, { maxBytes: 64 * 1024 }))
    },
    enabled: cid !== undefined,
    retry: false,
  })
}
