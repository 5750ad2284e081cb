import { lstat, readFile } from 'node:fs/promises'
import path from 'node:path'
import { examples, fields, formatTransaction, table, UsageError } from '@gridforge/cli-kit'
import { getSource } from '../../sources/getSource.js'
import { listSources } from '../../sources/listSources.js'
import {
  imageDigestOf,
  isLeaseSourceDocument,
  type LeaseSourceMetadata,
  parseLeaseSourceMetadata,
  parseSourceMetadata,
  requirementsOf,
  type SourceMetadata,
} from '../../sources/metadata.js'
import { publishSource } from '../../sources/publishSource.js'
import { getJson } from '../../storage/getJson.js'
import { isCid } from '../../utils/cid.js'
import { formatDuration } from '../../utils/duration.js'
import type { Context } from '../context.js'
import { parseInteger } from '../parse.js'
import type { CommandGroup } from '../program.js'
import { copyTemplate, findTemplate, isPlaceholderImage, listTemplates } from '../templates.js'

/** Most bytes read from a metadata file (the schema allows 64 KiB; the rest is refused by the parser). */
const maxMetadataFileBytes = 1024 * 1024

/** A task source's metadata, or a lease source's (`"kind": "lease"`), checked against its schema. */
function parseAnySourceMetadata(document: unknown): SourceMetadata | LeaseSourceMetadata {
  return isLeaseSourceDocument(document) ? parseLeaseSourceMetadata(document) : parseSourceMetadata(document)
}

/** The metadata document: a JSON file, or a CID already in the store. */
async function readMetadata(context: Context, value: string): Promise<unknown> {
  const stats = await lstat(value).catch(() => undefined)
  if (stats === undefined) {
    if (isCid(value)) return getJson(context.store(), value, { maxBytes: maxMetadataFileBytes })
    throw new UsageError(`--metadata: '${value}' is neither a JSON file nor a CID`)
  }
  if (!stats.isFile() || stats.size > maxMetadataFileBytes) {
    throw new UsageError(`--metadata: ${value} is not a metadata JSON file (at most 64 KiB)`)
  }
  const text = await readFile(value, 'utf8')
  try {
    return JSON.parse(text)
  } catch {
    throw new UsageError(`--metadata: ${value} is not valid JSON`)
  }
}

/** `value` as one word for a POSIX shell (quoted when it needs to be). */
function shellWord(value: string): string {
  return /^[\w./@%+=:,-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`
}

export const sourceCommands: CommandGroup = (program, contextOf) => {
  const source = program
    .command('source')
    .description('sources: container images with their metadata that providers run tasks with')
    .addHelpText(
      'after',
      examples(
        'gridforge source init --template pytorch-inference',
        'gridforge source publish --metadata source.json',
        'gridforge source show 1',
      ),
    )

  source
    .command('init')
    .description(
      'start a source from a template: its source.json, Dockerfile, scripts and README.md (--list shows the templates)',
    )
    .argument('[dir]', 'where to write the files (default: ./<template>)')
    .option('--template <name>', 'the template to copy')
    .option('--list', 'list the templates instead')
    .option('--force', 'write into a directory that is not empty (files with the same names are replaced)')
    .addHelpText(
      'after',
      examples(
        'gridforge source init --list',
        'gridforge source init --template pytorch-inference',
        'gridforge source init --template ffmpeg-transcode ./transcoder',
      ),
    )
    .action(
      async (
        dir: string | undefined,
        options: { template?: string; list?: boolean; force?: boolean },
        command,
      ) => {
        const context = contextOf(command)
        if (options.list === true) {
          if (options.template !== undefined || dir !== undefined)
            throw new UsageError('pass --list, or --template <name> [dir], not both')
          const templates = await listTemplates()
          context.terminal.result(
            templates.map(({ name, metadata, summary }) => ({
              name,
              title: metadata.name,
              summary,
              resources: metadata.resources,
            })),
            () => [
              ...table(
                ['TEMPLATE', 'GPUS', 'DESCRIPTION'],
                templates.map(({ name, metadata, summary }) => [name, metadata.resources.gpus, summary]),
              ),
              '',
              'start one with: gridforge source init --template <name> [dir]',
            ],
          )
          return
        }
        if (options.template === undefined) {
          const names = (await listTemplates()).map((template) => template.name)
          throw new UsageError('pass --template <name> (or --list to see the templates)', [
            `Templates: ${names.join(', ')}.`,
          ])
        }
        const template = await findTemplate(options.template)
        const target = dir ?? template.name
        const copied = await copyTemplate({ template, target, force: options.force === true })
        const { image } = template.metadata
        const placeholder = isPlaceholderImage(image)
        const repository = image.slice(0, image.indexOf('@'))
        const here = copied.directory === process.cwd()
        const nextSteps = [
          ...(here ? [] : [`cd ${shellWord(target)}`]),
          `docker build -t ${repository} .`,
          `docker push ${repository}`,
          `docker buildx imagetools inspect ${repository}   # prints the Digest: sha256:…`,
          `set "image" in source.json to ${repository}@sha256:<that digest>`,
          'gridforge source publish --metadata source.json   # add --deterministic only if replicas give identical outputs',
        ]
        context.terminal.result(
          {
            template: template.name,
            directory: copied.directory,
            files: copied.files,
            image,
            imageIsPlaceholder: placeholder,
            nextSteps,
          },
          () => [
            `created ${target} from the ${template.name} template (${template.metadata.name}):`,
            ...copied.files.map((file) => `  ${file}`),
            '',
            ...(placeholder
              ? [
                  `source.json names a placeholder image (${image.replace(/0{64}$/, '000…')}): replace it with your image's digest after the build.`,
                  '',
                ]
              : []),
            'next:',
            ...nextSteps.map((step) => `  ${step}`),
            '',
            `${path.join(target, 'README.md')} says what the source expects as input and what it writes.`,
          ],
        )
      },
    )

  source
    .command('publish')
    .description(
      'publish a source from its metadata JSON (name, image@sha256:…, resources, …): the metadata is checked, stored (its CID goes on chain) and the requirements follow its resources',
    )
    .requiredOption('--metadata <file.json|cid>', 'the metadata document, or the CID of one in the store')
    .option('--deterministic', 'identical inputs give identical outputs: allows tasks with several replicas')
    .option(
      '--creator-fee-bps <bps>',
      'your share of the protocol fee, in basis points (at most 5000)',
      parseInteger,
    )
    .option('--predecessor <id>', 'the source (yours) this one is a new version of', parseInteger)
    .option(
      '--failure-fee-bps <bps>',
      'what a failed run (non-zero exit, timeout, out of memory, output over the cap) is paid on a fixed-price task, in basis points of its price (at most 10000; default 0)',
      parseInteger,
    )
    .option(
      '--validator <sourceId>',
      "a deterministic source, with no longer a runtime limit, that checks this one's results: single results become auditable, their auditors run it",
      parseInteger,
    )
    .addHelpText(
      'after',
      examples(
        'gridforge source publish --metadata whisper.json --deterministic',
        'gridforge source publish --metadata whisper-v2.json --predecessor 3 --creator-fee-bps 500',
        'gridforge source publish --metadata render.json --failure-fee-bps 2000 --validator 4',
      ),
    )
    .action(
      async (
        options: {
          metadata: string
          deterministic?: boolean
          creatorFeeBps?: number
          predecessor?: number
          failureFeeBps?: number
          validator?: number
        },
        command,
      ) => {
        const context = contextOf(command)
        const document = await readMetadata(context, options.metadata)
        const metadata = parseAnySourceMetadata(document)
        const imageDigest = imageDigestOf(metadata.image)
        if (imageDigest === undefined)
          throw new UsageError('--metadata: image is not pinned by a sha256 digest')
        const [client, deployment] = await Promise.all([context.walletClient(), context.deployment()])
        context.terminal.progress(`storing the metadata in ${context.store().description}…`)
        const metadataCid = await context.store().putJson(document)
        context.terminal.progress(`publishing ${metadata.name}…`)
        const result = await publishSource(client, {
          deployment,
          imageDigest,
          metadata: metadataCid,
          requirements: { ...requirementsOf(metadata), deterministic: options.deterministic === true },
          ...(options.creatorFeeBps === undefined ? {} : { creatorFeeBps: options.creatorFeeBps }),
          ...(options.predecessor === undefined ? {} : { predecessor: options.predecessor }),
          ...(options.failureFeeBps === undefined ? {} : { failureFeeBps: options.failureFeeBps }),
          ...(options.validator === undefined ? {} : { validator: options.validator }),
        })
        context.terminal.result({ ...result, metadata: metadataCid, imageDigest }, () => [
          `published source ${result.sourceId} (${metadata.name}): ${formatTransaction(result)}`,
          `metadata ${metadataCid}`,
          metadata.kind === 'lease'
            ? `rent it with: gridforge lease open --source ${result.sourceId} --max-price-per-hour <amount> --duration <time> --deposit <amount>`
            : `submit tasks with: gridforge task submit --source ${result.sourceId} --input <file|folder|cid> --max-payment <amount>`,
        ])
      },
    )

  source
    .command('show')
    .description('a source: owner, image digest, requirements, and its metadata when the store has it')
    .argument('<sourceId>', 'the source', parseInteger)
    .addHelpText('after', examples('gridforge source show 1', 'gridforge --json source show 1'))
    .action(async (sourceId: number, _options: object, command) => {
      const context = contextOf(command)
      const [client, deployment] = await Promise.all([context.client(), context.deployment()])
      const found = await getSource(client, { deployment, sourceId })
      // The metadata is shown when the store has it; a source published elsewhere may not be here.
      const metadata = await getJson(context.store(), found.metadata, {
        maxBytes: maxMetadataFileBytes,
      }).then(
        (document) => parseAnySourceMetadata(document),
        () => undefined,
      )
      context.terminal.result({ ...found, metadataDocument: metadata }, () => [
        ...fields([
          ['source', found.sourceId],
          ['name', metadata?.name ?? '(metadata not in the store)'],
          ['active', found.active],
          ['owner', found.owner],
          ['published', found.publishedAt],
          ['image', metadata?.image ?? found.imageDigest],
          ['metadata', found.metadata],
          ['gpus', `≥ ${found.requirements.minGpus}`],
          ['vram', `≥ ${found.requirements.minVramMiB} MiB`],
          ['compute capability', `≥ ${found.requirements.minComputeCapability}`],
          ['max runtime', formatDuration(found.requirements.maxRuntimeSec)],
          ['deterministic', found.requirements.deterministic],
          ['creator fee', `${found.creatorFeeBps} bps`],
          ['failure fee', `${found.failureFeeBps} bps of a fixed price (metered: the runtime used)`],
          ['validator', found.validator],
          ['predecessor', found.predecessor],
        ]),
        ...(metadata?.description === undefined ? [] : ['', metadata.description]),
      ])
    })

  source
    .command('list')
    .description('published sources, oldest first')
    .option('--owner <address>', 'only sources this address owns')
    .option('--mine', 'only sources the configured key owns')
    .option('--active', 'only active sources')
    .option('--inactive', 'only deactivated sources')
    .addHelpText('after', examples('gridforge source list --active', 'gridforge --json source list --mine'))
    .action(
      async (options: { owner?: string; mine?: boolean; active?: boolean; inactive?: boolean }, command) => {
        const context = contextOf(command)
        if (options.active === true && options.inactive === true) {
          throw new UsageError('pass --active or --inactive, not both')
        }
        const owner =
          options.mine === true || options.owner !== undefined
            ? await context.addressOr(options.owner, '--owner')
            : undefined
        const [client, deployment] = await Promise.all([context.client(), context.deployment()])
        const active = options.active === true ? true : options.inactive === true ? false : undefined
        const sources = await listSources(client, {
          deployment,
          indexer: context.indexer(),
          ...(owner === undefined ? {} : { owner }),
          ...(active === undefined ? {} : { active }),
        })
        context.terminal.result(sources, () =>
          sources.length === 0
            ? 'no sources'
            : table(
                ['ID', 'ACTIVE', 'OWNER', 'GPUS', 'MAX RUNTIME', 'DETERMINISTIC', 'METADATA'],
                sources.map((item) => [
                  item.sourceId,
                  item.active ? 'yes' : 'no',
                  item.owner,
                  item.requirements.minGpus,
                  formatDuration(item.requirements.maxRuntimeSec),
                  item.requirements.deterministic ? 'yes' : 'no',
                  item.metadata,
                ]),
              ),
        )
      },
    )
}
