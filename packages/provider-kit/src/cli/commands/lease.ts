import { examples, formatDate, formatTransaction, UsageError } from '@gridforge/cli-kit'
import { getLease, giveNotice } from '@gridforge/sdk'
import type { CommandSetup } from '../program.js'

/** A lease id as typed: a whole number. */
function parseLeaseId(value: string): bigint {
  if (!/^\d+$/.test(value))
    throw new UsageError(`lease id: expected a whole number, got ${JSON.stringify(value)}`)
  return BigInt(value)
}

export const leaseCommand: CommandSetup = (program, contextOf) => {
  const lease = program.command('lease').description('the leases this provider serves')

  lease
    .command('notice')
    .description(
      'end a lease with notice: it runs (and is paid) for the notice period, then ends with the reason ProviderNotice; the running agent stops its container then and settles it',
    )
    .argument('<leaseId>', 'a lease this provider serves', parseLeaseId)
    .addHelpText(
      'after',
      examples('gridforge-provider lease notice 7', 'gridforge-provider lease notice 7 --json'),
    )
    .action(async (leaseId: bigint, _options: unknown, command) => {
      const context = contextOf(command)
      const { terminal } = context
      const [client, deployment] = await Promise.all([context.walletClient(), context.deployment()])
      const before = await getLease(client, { deployment, leaseId })
      if (before.provider.toLowerCase() !== client.account.address.toLowerCase())
        throw new UsageError(
          `lease ${leaseId} is served by ${before.provider}, not by ${client.account.address}: only its provider gives notice`,
        )
      terminal.progress(`giving notice on lease ${leaseId}…`)
      const result = await giveNotice(client, { deployment, leaseId })
      const endsAt = new Date(result.endsAt * 1000)
      terminal.result({ leaseId: leaseId.toString(), endsAt: result.endsAt, hash: result.hash }, () => [
        `lease ${leaseId} ends ${formatDate(endsAt)} (notice given: ${formatTransaction(result)})`,
        'It is served and paid until then; the agent stops its container and settles it at the end.',
      ])
    })
}
