import { examples, formatTransaction, UsageError } from '@gridforge/cli-kit'
import {
  type Capabilities,
  formatAmount,
  getProvider,
  getProviderRegistryParams,
  getStake,
  isSubscribed,
  parseAmount,
  registerProvider,
  stake,
  subscribeSources,
  updateCapabilities,
} from '@gridforge/sdk'
import type { Hash } from 'viem'
import { capabilitiesOf } from '../../detect/capabilities.js'
import { detectHost } from '../../detect/detectHost.js'
import { benchmarkHost } from '../../hostBench/benchmarkHost.js'
import { profileOf } from '../../hostBench/profile.js'
import type { CommandSetup } from '../program.js'
import { describeBenchmark } from './bench.js'
import { existingAncestor } from './doctor.js'

/** The registry takes at most this many sources per subscribe call. */
const maxSourcesPerCall = 100

function sameCapabilities(a: Capabilities, b: Capabilities): boolean {
  return (
    a.gpuCount === b.gpuCount &&
    a.vramMiB === b.vramMiB &&
    a.computeCapability === b.computeCapability &&
    a.cpuCores === b.cpuCores &&
    a.memoryMiB === b.memoryMiB
  )
}

/**
 * How much to stake so that the account holds `target` in all and, before
 * registering, has `minimum` available (collateral locked by claims is not).
 */
export function stakeShortfall({
  target,
  minimum,
  staked,
  available,
  registered,
}: {
  target: bigint
  minimum: bigint
  staked: bigint
  available: bigint
  registered: boolean
}): bigint {
  let shortfall = target - staked
  if (!registered && minimum - available > shortfall) shortfall = minimum - available
  return shortfall > 0n ? shortfall : 0n
}

export const registerCommand: CommandSetup = (program, contextOf) => {
  program
    .command('register')
    .description(
      'stake what is missing, register this host (benchmark and profile upload) or update its capabilities, and subscribe to the configured sources; running it again changes only what differs',
    )
    .option(
      '--update-profile',
      'benchmark and upload a new profile even when the capabilities did not change',
    )
    .addHelpText(
      'after',
      examples(
        'GRIDFORGE_PRIVATE_KEY=0x… gridforge-provider register',
        'gridforge-provider register --json --config ./provider.toml',
      ),
    )
    .action(async (options: { updateProfile?: boolean }, command) => {
      const context = contextOf(command)
      const { terminal } = context
      const config = await context.config()
      const [client, deployment, token] = await Promise.all([
        context.walletClient(),
        context.deployment(),
        context.token(),
      ])
      const provider = client.account.address
      const amount = (value: bigint) => formatAmount(value, token)
      terminal.progress(`provider ${provider} on chain ${client.chain.id}`)
      const [before, registry, staked] = await Promise.all([
        getProvider(client, { deployment }),
        getProviderRegistryParams(client, { deployment }),
        getStake(client, { deployment }),
      ])

      // 1. Stake: only the shortfall, so a second run stakes nothing.
      let configured = 0n
      if (config.register.stake !== undefined) {
        const parsed = parseAmount(config.register.stake, token.decimals)
        if ('error' in parsed) throw new UsageError(`register.stake: ${parsed.error}`)
        configured = parsed.value
      }
      const target = configured > registry.minProviderStake ? configured : registry.minProviderStake
      const shortfall = stakeShortfall({
        target,
        minimum: registry.minProviderStake,
        staked: staked.staked,
        available: staked.available,
        registered: before.registered,
      })
      let stakeHash: Hash | undefined
      if (shortfall > 0n) {
        terminal.progress(`staking ${amount(shortfall)} (to hold ${amount(target)})…`)
        const result = await stake(client, { deployment, amount: shortfall, approve: true })
        stakeHash = result.hash
        terminal.progress(`staked ${amount(result.amount)}: ${formatTransaction(result)}`)
      }

      // 2. Register, or update what changed.
      terminal.progress('detecting this host…')
      const docker = await context.docker()
      const host = await detectHost({ dataDir: await existingAncestor(config.agent.dataDir), docker })
      const capabilities = capabilitiesOf(host)
      let action: 'registered' | 'updated' | 'unchanged' = 'unchanged'
      let profileCid: string | undefined
      let benchmark: Awaited<ReturnType<typeof benchmarkHost>> | undefined
      let registerHash: Hash | undefined
      if (
        !before.registered ||
        !sameCapabilities(before.capabilities, capabilities) ||
        options.updateProfile === true
      ) {
        terminal.progress('benchmarking this host…')
        benchmark = await benchmarkHost({ report: host, docker })
        for (const line of describeBenchmark(benchmark)) terminal.progress(line)
        const store = await context.store()
        terminal.progress(`uploading the profile to ${store.description}…`)
        profileCid = await store.putJson(profileOf(host, benchmark))
        if (before.registered) {
          terminal.progress('updating the capabilities…')
          const result = await updateCapabilities(client, { deployment, capabilities, profile: profileCid })
          registerHash = result.hash
          action = 'updated'
        } else {
          terminal.progress('registering…')
          const result = await registerProvider(client, { deployment, capabilities, profile: profileCid })
          registerHash = result.hash
          action = 'registered'
        }
      }

      // 3. Subscribe to the sources not yet subscribed.
      const sources = config.register.sources
      const subscribed = await Promise.all(
        sources.map((sourceId) => isSubscribed(client, { deployment, sourceId })),
      )
      const missing = sources.filter((_, index) => subscribed[index] !== true)
      const subscribeHashes: Hash[] = []
      for (let start = 0; start < missing.length; start += maxSourcesPerCall) {
        const chunk = missing.slice(start, start + maxSourcesPerCall)
        terminal.progress(`subscribing to source${chunk.length === 1 ? '' : 's'} ${chunk.join(', ')}…`)
        subscribeHashes.push((await subscribeSources(client, { deployment, sourceIds: chunk })).hash)
      }

      const after = await getStake(client, { deployment })
      const result = {
        provider,
        chainId: client.chain.id,
        action,
        capabilities,
        profile: profileCid,
        benchmark:
          benchmark === undefined
            ? undefined
            : { kind: benchmark.kind, score: benchmark.score, unit: benchmark.unit },
        paused: before.paused,
        stake: {
          added: shortfall,
          staked: after.staked,
          available: after.available,
          minProviderStake: registry.minProviderStake,
        },
        subscriptions: { added: missing, already: sources.filter((id) => !missing.includes(id)) },
        transactions: [stakeHash, registerHash, ...subscribeHashes].filter((hash) => hash !== undefined),
      }
      terminal.result(result, () => [
        action === 'registered'
          ? `registered ${provider} (profile ${profileCid})`
          : action === 'updated'
            ? `updated the capabilities of ${provider} (profile ${profileCid})`
            : `${provider} is registered; capabilities unchanged`,
        `capabilities: ${capabilities.gpuCount} GPUs, ${capabilities.cpuCores} CPU cores, ${capabilities.memoryMiB} MiB memory`,
        `stake: ${amount(after.staked)} (${shortfall > 0n ? `added ${amount(shortfall)}` : 'nothing added'}; minimum ${amount(registry.minProviderStake)})`,
        `sources: ${sources.length === 0 ? 'none configured ([register] sources)' : `${missing.length === 0 ? 'already subscribed to' : 'subscribed to'} ${sources.join(', ')}`}`,
        ...(before.paused ? ['note: this provider is paused on chain and takes no tasks until resumed'] : []),
        result.transactions.length === 0
          ? 'nothing to do: no transaction sent'
          : `${result.transactions.length} transaction${result.transactions.length === 1 ? '' : 's'} sent`,
      ])
    })
}
