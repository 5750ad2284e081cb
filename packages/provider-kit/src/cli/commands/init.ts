import { mkdir, writeFile } from 'node:fs/promises'
import { homedir } from 'node:os'
import path from 'node:path'
import { examples, UsageError } from '@gridforge/cli-kit'
import { configTemplate } from '../../config/configTemplate.js'
import { ConfigExistsError, ConfigInvalidError } from '../../config/errors.js'
import { parseConfig } from '../../config/loadConfig.js'
import type { CommandSetup } from '../program.js'

interface InitOptions {
  force?: boolean
  rpc?: string
  chainId?: string
  deployment?: string
  keystore?: string
  store?: string
  dataDir?: string
  sources?: string
  stake?: string
}

/** The init option behind each config field, to name it when its value is refused. */
const optionOfField: Readonly<Record<string, string>> = {
  'chain.rpc': '--rpc',
  'chain.chainId': '--chain-id',
  'chain.deployment': '--deployment',
  'account.keystore': '--keystore',
  'store.root': '--store',
  'store.url': '--store',
  'agent.dataDir': '--data-dir',
  'policy.sources': '--sources',
  'register.stake': '--stake',
}

function parseChainId(value: string | undefined): number | undefined {
  if (value === undefined) return undefined
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value)) || Number(value) === 0) {
    throw new UsageError(`--chain-id: '${value}' is not a chain id`, [
      'Pass the numeric chain id, e.g. --chain-id 31337.',
    ])
  }
  return Number(value)
}

function parseSources(value: string | undefined): number[] | undefined {
  if (value === undefined) return undefined
  const ids = value.split(',').map((id) => id.trim())
  if (ids.some((id) => !/^\d+$/.test(id) || Number(id) < 1 || Number(id) > 2 ** 32 - 1)) {
    throw new UsageError(`--sources: '${value}' is not a list of source ids`, [
      'Pass ids separated by commas, e.g. --sources 1,4.',
    ])
  }
  return ids.map(Number)
}

/** Paths typed on the command line are relative to where the user is, not to the config file. */
function absolute(value: string | undefined): string | undefined {
  return value === undefined ? undefined : path.resolve(value)
}

export const initCommand: CommandSetup = (program, contextOf) => {
  program
    .command('init')
    .description(
      'write a commented config file with every option and its default (never overwrites one without --force)',
    )
    .option('--force', 'replace the file if it exists')
    .option('--rpc <url>', 'JSON-RPC endpoint (default http://127.0.0.1:8545)')
    .option('--chain-id <id>', "expected chain id, checked against the node's eth_chainId")
    .option(
      '--deployment <file.json>',
      "contract addresses (default: @gridforge/contracts' deployment for the chain)",
    )
    .option('--keystore <file>', 'encrypted key file to sign with (default: GRIDFORGE_PRIVATE_KEY)')
    .option('--store <dir|url>', 'content store: a directory, or a Kubo RPC URL (default ~/.gridforge/store)')
    .option('--data-dir <dir>', "the agent's journal and work directories (default ~/.gridforge/provider)")
    .option('--sources <ids>', 'source ids to take tasks from and subscribe to, e.g. 1,4')
    .option('--stake <amount>', "stake to hold, token units (default: the registry's minimum)")
    .addHelpText(
      'after',
      examples(
        'gridforge-provider init',
        'gridforge-provider init --config ./provider.toml --rpc https://rpc.example --chain-id 8453 --sources 1,4',
        'gridforge-provider init --store http://127.0.0.1:5001 --force',
      ),
    )
    .action(async (options: InitOptions, command) => {
      const context = contextOf(command)
      const file = context.configPath
      const text = configTemplate({
        rpc: options.rpc,
        chainId: parseChainId(options.chainId),
        deployment: absolute(options.deployment),
        keystore: absolute(options.keystore),
        store:
          options.store === undefined || /^https?:\/\//i.test(options.store)
            ? options.store
            : path.resolve(options.store),
        dataDir: absolute(options.dataDir),
        sources: parseSources(options.sources),
        stake: options.stake,
      })
      // What init writes must load: check the values before anything is on disk.
      try {
        parseConfig(text, { file, home: context.env.HOME || homedir() })
      } catch (error) {
        if (!(error instanceof ConfigInvalidError)) throw error
        const [field] = error.fields
        throw new UsageError(
          `${optionOfField[field?.path ?? ''] ?? field?.path ?? 'init'}: ${field?.message ?? 'invalid'}`,
          error.fields.length > 1
            ? error.fields
                .slice(1)
                .map((other) => `${optionOfField[other.path] ?? other.path}: ${other.message}`)
            : [],
        )
      }
      await mkdir(path.dirname(file), { recursive: true })
      try {
        await writeFile(file, text, { flag: options.force === true ? 'w' : 'wx' })
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new ConfigExistsError({ file })
        throw error
      }
      context.terminal.result({ file }, () => [
        `wrote ${file}`,
        'next: read it and set what you need, then run',
        `  gridforge-provider doctor${context.configNamed ? ` --config ${file}` : ''}`,
        `  gridforge-provider register${context.configNamed ? ` --config ${file}` : ''}`,
      ])
    })
}
