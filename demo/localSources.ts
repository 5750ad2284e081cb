/** The sources every local network publishes (two batch sources and a lease source), and how. */
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
  /**
   * A lease source: busybox `httpd` serving a page that names the lease, on port 8080 behind the
   * provider's lease gateway (the agents lease it out when they run Docker containers).
   */
  webPage: number
}

/** The lease source's metadata fields besides the image: how the agent runs its container. */
export const webPageLease = {
  name: 'Web page (lease)',
  description: 'A tiny web server rented by the second: the page names the lease it serves.',
  kind: 'lease',
  command: [
    'sh',
    '-c',
    'mkdir -p /tmp/www && echo "Gridforge lease $GRIDFORGE_LEASE_ID, served by busybox httpd" > /tmp/www/index.html && exec httpd -f -p 8080 -h /tmp/www',
  ],
  port: 8080,
  resources: { cpus: 0.5, memoryMiB: 64 },
  network: 'none',
  license: 'MIT',
} as const

/** What each local source is: its metadata's name, description and command, run in the local image. */
export const localSources: Record<
  Exclude<keyof LocalSourceIds, 'webPage'>,
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
  const metadata = await store.putJson({ ...webPageLease, image })
  const { sourceId } = await publishSource(publisher, {
    deployment,
    imageDigest,
    metadata,
    // Nothing to re-run: a lease is checked by its renter's acknowledgements, not by audits.
    requirements: { maxRuntimeSec: '5m', deterministic: false },
  })
  log(`source ${sourceId} (${webPageLease.name}): ${metadata}`)
  ids.webPage = sourceId
  return ids as LocalSourceIds
}
