import type { CID } from 'multiformats/cid'
import type { Content, DirectoryEntry, WriteOptions } from './ContentStore.js'
import type { InvalidContentErrorType, InvalidDirectoryEntryErrorType } from './errors.js'
import { importDirectoryEntries, importFileContent } from './unixfs.js'

export type ComputeCidParameters = Content
export type ComputeCidReturnType = string
export type ComputeCidErrorType = InvalidContentErrorType

const discard = (_cid: CID, _bytes: Uint8Array) => {}

/**
 * The CID a file gets in every store (and from `ipfs add --cid-version=1 --raw-leaves`),
 * computed without storing anything: blocks are hashed and dropped, streams are read once.
 *
 * @example
 * import { computeCid } from '@gridforge/sdk/storage'
 *
 * await computeCid(new TextEncoder().encode('hello world'))
 * // 'bafkreifzjut3te2nhyekklss27nh3k72ysco7y32koao5eei66wof36n5e'
 */
export async function computeCid(
  content: ComputeCidParameters,
  options: WriteOptions = {},
): Promise<ComputeCidReturnType> {
  return (await importFileContent(content, discard, options)).toString()
}

export type ComputeDirectoryCidParameters = Iterable<DirectoryEntry> | AsyncIterable<DirectoryEntry>
export type ComputeDirectoryCidReturnType = string
export type ComputeDirectoryCidErrorType = InvalidContentErrorType | InvalidDirectoryEntryErrorType

/**
 * The CID `putDirectory(entries)` returns (and `ipfs add -r --cid-version=1 --raw-leaves` gives for
 * the same tree), computed without storing anything.
 *
 * @example
 * import { computeDirectoryCid } from '@gridforge/sdk/storage'
 *
 * await computeDirectoryCid([{ path: 'hello.txt', content: new TextEncoder().encode('hello\n') }])
 */
export async function computeDirectoryCid(
  entries: ComputeDirectoryCidParameters,
  options: WriteOptions = {},
): Promise<ComputeDirectoryCidReturnType> {
  return (await importDirectoryEntries(entries, discard, options)).toString()
}
