import { examples, fields } from '@gridforge/cli-kit'
import { getNetworkStats } from '../../market/getNetworkStats.js'
import { formatAmount } from '../../utils/amount.js'
import type { CommandGroup } from '../program.js'

/** `gridforge stats`: the market's figures, from --indexer when given (its counters), else the chain's logs. */
export const statsCommands: CommandGroup = (program, contextOf) => {
  program
    .command('stats')
    .description('the market: tasks by outcome, total paid, providers (from --indexer, else the chain)')
    .addHelpText(
      'after',
      examples('gridforge stats', 'gridforge --indexer http://127.0.0.1:42069 --json stats'),
    )
    .action(async (_options: object, command) => {
      const context = contextOf(command)
      const [client, deployment, token] = await Promise.all([
        context.client(),
        context.deployment(),
        context.token(),
      ])
      const stats = await getNetworkStats(client, { deployment, indexer: context.indexer() })
      context.terminal.result(stats, () =>
        fields([
          ['tasks', stats.tasks],
          ['open', stats.openTasks],
          [
            'settled',
            `${stats.settledTasks} (${stats.completedTasks} completed, ${stats.failedTasks} failed, ${stats.cancelledTasks} cancelled, ${stats.expiredTasks} expired)`,
          ],
          ['total paid', formatAmount(stats.totalPaid, token)],
          ['providers', `${stats.registeredProviders} registered, ${stats.activeProviders} active`],
          ['as of block', stats.blockNumber],
        ]),
      )
    })
}
