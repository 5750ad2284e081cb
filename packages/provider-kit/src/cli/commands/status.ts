import { access } from 'node:fs/promises'
import path from 'node:path'
import { type CliClient, examples, fields, formatDate, table, UsageError } from '@gridforge/cli-kit'
import { providerRegistryAbi } from '@gridforge/contracts'
import {
  type Deployment,
  formatAmount,
  formatFailure,
  getPriceFloor,
  getProvider,
  getProviderRegistryParams,
  getRewards,
  getStake,
  getWalletBalance,
  isSubscribed,
  parseAmount,
} from '@gridforge/sdk'
import type { Address } from 'viem'
import { getContractEvents } from 'viem/actions'
import { finalSteps, type JournalEntry, type JournalStep, openJournal } from '../../agent/journal.js'
import type { CommandSetup } from '../program.js'

/** Where the subscriptions shown come from. */
export type SubscriptionsSource =
  /** Replayed from ProviderSubscribed/ProviderUnsubscribed events: every source. */
  | 'events'
  /** The node refused the event query (range limits): the configured sources, checked one by one. */
  | 'configured'

/**
 * The sources `provider` is subscribed to, from the registry's events since
 * the deployment block; when the node will not serve that range, the
 * configured ones checked with `isSubscribed`.
 */
export async function readSubscriptions(
  client: CliClient,
  deployment: Deployment,
  provider: Address,
  configured: readonly number[],
): Promise<{ sourceIds: number[]; from: SubscriptionsSource }> {
  try {
    const query = (eventName: 'ProviderSubscribed' | 'ProviderUnsubscribed') =>
      getContractEvents(client, {
        address: deployment.contracts.providers,
        abi: providerRegistryAbi,
        eventName,
        args: { provider },
        fromBlock: BigInt(deployment.blockNumber),
        strict: true,
      })
    const [subscribed, unsubscribed] = await Promise.all([
      query('ProviderSubscribed'),
      query('ProviderUnsubscribed'),
    ])
    const ordered = [...subscribed, ...unsubscribed].sort((a, b) =>
      a.blockNumber === b.blockNumber ? a.logIndex - b.logIndex : a.blockNumber < b.blockNumber ? -1 : 1,
    )
    const ids = new Set<number>()
    for (const log of ordered) {
      const id = Number(log.args.sourceId)
      if (log.eventName === 'ProviderSubscribed') ids.add(id)
      else ids.delete(id)
    }
    return { sourceIds: [...ids].sort((a, b) => a - b), from: 'events' }
  } catch {
    const checks = await Promise.all(
      configured.map(async (sourceId) => ({
        sourceId,
        subscribed: await isSubscribed(client, { deployment, provider, sourceId }),
      })),
    )
    return {
      sourceIds: checks.filter((check) => check.subscribed).map((check) => check.sourceId),
      from: 'configured',
    }
  }
}

/** The journal's entries, without creating the directory when the agent never ran. */
export async function readJournal(dataDir: string): Promise<JournalEntry[]> {
  const dir = path.join(dataDir, 'journal')
  if (
    !(await access(dir).then(
      () => true,
      () => false,
    ))
  )
    return []
  return (await openJournal(dir)).list()
}

/** What `status` shows of the journal: tasks in flight by step, and the latest finished ones. */
export function summarizeJournal(entries: readonly JournalEntry[], recentCount: number) {
  const inProgress = entries.filter((entry) => !finalSteps.includes(entry.step))
  const byStep: Partial<Record<JournalStep, number>> = {}
  for (const entry of inProgress) byStep[entry.step] = (byStep[entry.step] ?? 0) + 1
  const recent = entries
    .filter((entry) => finalSteps.includes(entry.step))
    .sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : 0))
    .slice(0, recentCount)
  return {
    inProgress: inProgress.map(({ taskId, step, sourceId, slot, dueAt, txHash, updatedAt }) => ({
      taskId,
      step,
      sourceId,
      slot,
      dueAt: dueAt === undefined ? undefined : new Date(dueAt * 1000).toISOString(),
      txHash,
      updatedAt,
    })),
    byStep,
    recent: recent.map(
      ({ taskId, step, sourceId, slot, runtimeSec, receiptCID, reason, failure, updatedAt }) => ({
        taskId,
        step,
        sourceId,
        slot,
        runtimeSec,
        receiptCID,
        reason,
        // A failed run handed in as the result (paid the source's failure terms).
        failure,
        updatedAt,
      }),
    ),
  }
}

export const statusCommand: CommandSetup = (program, contextOf) => {
  program
    .command('status')
    .description(
      "the provider on chain (registration, capabilities, subscriptions, stake, balance, rewards) and the agent's journal",
    )
    .option('--recent <n>', 'finished tasks to show', '10')
    .addHelpText(
      'after',
      examples('gridforge-provider status', 'gridforge-provider status --json --recent 50'),
    )
    .action(async (options: { recent: string }, command) => {
      const recentCount = Number(options.recent)
      if (!Number.isSafeInteger(recentCount) || recentCount < 0) {
        throw new UsageError(`--recent: '${options.recent}' is not a count`, [
          'Pass a whole number, e.g. --recent 20.',
        ])
      }
      const context = contextOf(command)
      const config = await context.config()
      const [client, deployment, token, provider] = await Promise.all([
        context.client(),
        context.deployment(),
        context.token(),
        context.address(),
      ])
      const configured = [...new Set([...(config.policy.sources ?? []), ...config.register.sources])]
      const [profile, stake, wallet, rewards, registry, subscriptions, entries, priceFloor] =
        await Promise.all([
          getProvider(client, { deployment, provider }),
          getStake(client, { deployment, account: provider }),
          getWalletBalance(client, { deployment, account: provider }),
          getRewards(client, { deployment, account: provider }),
          getProviderRegistryParams(client, { deployment }),
          readSubscriptions(client, deployment, provider, configured),
          readJournal(config.agent.dataDir),
          getPriceFloor(client, { deployment, provider }),
        ])
      // What the agent publishes when it starts (the config was validated when it was read).
      const policyFloor = parseAmount(config.policy.minPricePerGpuSecond, token.decimals)
      const journal = summarizeJournal(entries, recentCount)
      const amount = (value: bigint) => formatAmount(value, token)
      const value = {
        provider,
        chainId: client.chain.id,
        registered: profile.registered,
        paused: profile.paused,
        registeredAt: profile.registeredAt?.toISOString(),
        capabilities: profile.capabilities,
        reputation: profile.reputation,
        subscriptions: subscriptions.sourceIds,
        subscriptionsFrom: subscriptions.from,
        priceFloor,
        stake: { ...stake, minProviderStake: registry.minProviderStake },
        market: { balance: wallet.balance, wallet: wallet.token },
        rewards,
        journal: { dir: path.join(config.agent.dataDir, 'journal'), ...journal },
      }
      context.terminal.result(value, () => {
        const { capabilities, reputation } = profile
        const lines = fields([
          ['provider', provider],
          [
            'registered',
            profile.registered
              ? `yes, since ${formatDate(profile.registeredAt)}`
              : 'no: run `gridforge-provider register`',
          ],
          ['paused', profile.paused ? 'yes: it takes no new tasks' : 'no'],
          [
            'capabilities',
            `${capabilities.gpuCount} GPU${capabilities.gpuCount === 1 ? '' : 's'}${capabilities.gpuCount > 0 ? ` (${capabilities.vramMiB} MiB, sm_${capabilities.computeCapability})` : ''}, ${capabilities.cpuCores} CPU cores, ${capabilities.memoryMiB} MiB memory`,
          ],
          [
            'subscriptions',
            `${subscriptions.sourceIds.length === 0 ? 'none' : subscriptions.sourceIds.join(', ')}${subscriptions.from === 'configured' ? ' (of the configured sources; the node would not serve the event history)' : ''}`,
          ],
          [
            'price floor',
            `${amount(priceFloor)} per GPU-second${'value' in policyFloor && policyFloor.value !== priceFloor ? ` (the policy says ${amount(policyFloor.value)}: the agent publishes it when it starts)` : ''}`,
          ],
          [
            'stake',
            `${amount(stake.staked)} (available ${amount(stake.available)}, locked ${amount(stake.locked)}, unbonding ${amount(stake.unbonding)}; minimum ${amount(registry.minProviderStake)})`,
          ],
          ['market balance', `${amount(wallet.balance)} (wallet ${amount(wallet.token)})`],
          ['pending rewards', amount(rewards)],
          [
            'reputation',
            `${reputation.completed} completed, ${reputation.failed} failed, ${reputation.outvoted} outvoted of ${reputation.claimed} claimed (${reputation.successBps / 100}% success)`,
          ],
        ])
        lines.push(
          '',
          `tasks in progress: ${journal.inProgress.length}${
            journal.inProgress.length === 0
              ? ''
              : ` (${Object.entries(journal.byStep)
                  .map(([step, count]) => `${count} ${step}`)
                  .join(', ')})`
          }`,
        )
        if (journal.inProgress.length > 0) {
          lines.push(
            ...table(
              ['TASK', 'STEP', 'SOURCE', 'SLOT', 'UPDATED'],
              journal.inProgress.map((entry) => [
                entry.taskId,
                entry.step,
                entry.sourceId,
                entry.slot,
                formatDate(entry.updatedAt),
              ]),
            ).map((line) => `  ${line}`),
          )
        }
        lines.push(`recently finished: ${journal.recent.length === 0 ? 'none' : ''}`.trimEnd())
        if (journal.recent.length > 0) {
          lines.push(
            ...table(
              ['TASK', 'RESULT', 'SOURCE', 'UPDATED', 'REASON'],
              journal.recent.map((entry) => [
                entry.taskId,
                entry.step,
                entry.sourceId,
                formatDate(entry.updatedAt),
                // A failed run handed in as a result ends `done`: say how it failed.
                entry.reason ??
                  (entry.failure === undefined ? undefined : `reported: ${formatFailure(entry.failure)}`),
              ]),
            ).map((line) => `  ${line}`),
          )
        }
        return lines
      })
    })
}
