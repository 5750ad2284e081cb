/** The sources every local network publishes, and how it publishes them. */
import { type Deployment, publishSource } from '@gridforge/sdk'
import type { ContentStore } from '@gridforge/sdk/storage'
import type { Hex } from 'viem'
import type { LocalWallet } from './localChain.js'

/** Ids of the sources published on the local network. */
export interface LocalSourceIds {
  /** Counts the words of the input (`words` in the output); logs `counted`. */
  wordCount: number
  /** The SHA-256 of the input in hex (`sha256` in the output); logs `hashed`. */
  sha256: number
}

/** What each local source is: its metadata's name, description and command, run in the local image. */
export const localSources: Record<
  keyof LocalSourceIds,
  { name: string; description: string; command: string[] }
> = {
  wordCount: {
    name: 'Word count',
    description: 'Counts the words of a text: the smallest deterministic source.',
    command: [
      'sh',
      '-c',
      'wc -w < "$GRIDFORGE_INPUT_DIR"/input | tr -d " " > "$GRIDFORGE_OUTPUT_DIR"/words; echo counted',
    ],
  },
  sha256: {
    name: 'SHA-256',
    description: 'The SHA-256 digest of the input, in hex.',
    command: [
      'sh',
      '-c',
      'sha256sum < "$GRIDFORGE_INPUT_DIR"/input | cut -d " " -f 1 > "$GRIDFORGE_OUTPUT_DIR"/sha256; echo hashed',
    ],
  },
}

export interface PublishLocalSourcesParameters {
  deployment: Deployment
  /** Where the metadata documents go (the network's store). */
  store: ContentStore
  /** `gridforge-demo/wordcount@sha256:…` */
  image: string
  imageDigest: Hex
  /** One line per source published: its id and metadata CID. */
  log: (line: string) => void
}

/**
 * Publishes every local source (metadata on the store, image digest on chain) from `publisher`.
 *
 * @example
 * const sourceIds = await publishLocalSources(deployer, { deployment, store, image, imageDigest, log })
 * sourceIds.wordCount // 1
 */
export async function publishLocalSources(
  publisher: LocalWallet,
  parameters: PublishLocalSourcesParameters,
): Promise<LocalSourceIds> {
  const { deployment, store, image, imageDigest, log } = parameters
  const resources = { cpus: 1, memoryMiB: 128, maxRuntimeSec: 300 }
  const ids: Partial<LocalSourceIds> = {}
  for (const [key, { name, description, command }] of Object.entries(localSources)) {
    const metadata = await store.putJson({ name, description, image, command, resources, license: 'MIT' })
    const { sourceId } = await publishSource(publisher, {
      deployment,
      imageDigest,
      metadata,
      requirements: { maxRuntimeSec: '5m', deterministic: true },
    })
    log(`source ${sourceId} (${name}): ${metadata}`)
    ids[key as keyof LocalSourceIds] = sourceId
  }
  return ids as LocalSourceIds
}
