import {
  CliError,
  examples,
  fields,
  formatDate,
  formatTransaction,
  table,
  UsageError,
} from '@gridforge/cli-kit'
import type { Command } from 'commander'
import type { AbiEvent } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import {
  LeaseAccepted,
  LeaseEnded,
  LeaseExtended,
  LeaseRequested,
  LeaseSettled,
  LeaseToppedUp,
  NoticeGiven,
  OfflineReportAnswered,
  OfflineReported,
  UsageRedeemed,
} from '../../abis/leaseMarket.js'
import { InvalidParametersError } from '../../errors/validation.js'
import { getLogsPaginated } from '../../internal/logs.js'
import { closeLease } from '../../leases/closeLease.js'
import { createLeaseSessionKey } from '../../leases/createLeaseSessionKey.js'
import { extendLease } from '../../leases/extendLease.js'
import { getLease } from '../../leases/getLease.js'
import { type GetLeaseCostReturnType, getLeaseCost } from '../../leases/getLeaseCost.js'
import { type GetLeaseEndReturnType, getLeaseEnd } from '../../leases/getLeaseEnd.js'
import { leaseUrl } from '../../leases/leaseUrl.js'
import { type RequestLeaseParameters, requestLease } from '../../leases/requestLease.js'
import { requestLeaseWithPermit } from '../../leases/requestLeaseWithPermit.js'
import { signInToLease } from '../../leases/signInToLease.js'
import { startUsageAcknowledger } from '../../leases/startUsageAcknowledger.js'
import { topUpLease } from '../../leases/topUpLease.js'
import { topUpLeaseWithPermit } from '../../leases/topUpLeaseWithPermit.js'
import type { Deployment } from '../../types/deployment.js'
import type { Lease } from '../../types/lease.js'
import { formatAmount, type TokenInfo } from '../../utils/amount.js'
import { formatDuration, parseDuration } from '../../utils/duration.js'
import type { Context } from '../context.js'
import {
  journalAck,
  type LeaseJournalEntry,
  leaseJournalDir,
  leaseJournalFile,
  readLeaseJournal,
  removeLeaseJournal,
  writeLeaseJournal,
} from '../leaseJournal.js'
import { amount, parseId, parseInteger } from '../parse.js'
import type { CommandGroup } from '../program.js'

/** How often `lease open` polls for the provider's acceptance. */
const acceptPollMs = 2_000

/** No provider accepted the lease within `--timeout`: it is still requested. */
export class LeaseAcceptTimeoutError extends CliError {
  override name = 'LeaseAcceptTimeoutError' as const

  constructor({ leaseId, waitedSec }: { leaseId: bigint; waitedSec: number }) {
    super(`no provider accepted lease ${leaseId} within ${formatDuration(waitedSec)}`, {
      metaMessages: [
        `It stays requested until its acceptBy: follow it with gridforge lease status ${leaseId},`,
        `or cancel it for a full refund with gridforge lease close ${leaseId}.`,
      ],
    })
  }
}

interface OpenOptions {
  source: number
  maxPricePerHour?: string
  maxPricePerSecond?: string
  duration: string
  deposit: string
  penalty?: string
  minUptime?: number
  acceptWithin?: string
  gateway?: string
  permit?: boolean
  timeout: string
  ack?: boolean
  interval: number
}

const price = (value: bigint, token: TokenInfo) => `${formatAmount(value * 3_600n, token)}/h`
const time = (seconds: number) => (seconds === 0 ? '-' : formatDate(new Date(seconds * 1000)))

/** The deployment, checked to have a lease market (deployment files older than leases have none). */
async function leaseDeployment(context: Context): Promise<Deployment> {
  const deployment = await context.deployment()
  if ((deployment.contracts.leases as string | undefined) === undefined)
    throw new UsageError('the deployment has no lease market', [
      'Add "leases": "0x…" (the LeaseMarket address) to the contracts of the --deployment file.',
    ])
  return deployment
}

/** The journal file of lease `leaseId` on this deployment. */
async function journalOf(context: Context, deployment: Deployment, leaseId: bigint) {
  const chainId = (await context.chain()).id
  const ref = { chainId, leaseMarket: deployment.contracts.leases }
  const file = leaseJournalFile(leaseJournalDir(context.env), ref, leaseId.toString())
  return { ref, file, entry: await readLeaseJournal(file) }
}

/** A session token for the lease: the journaled one while it has 5 minutes left, else a fresh sign-in. */
async function sessionToken(
  context: Context,
  leaseId: bigint,
  gatewayUrl: string,
): Promise<{ token: string; url: string; expiresAt: Date }> {
  const [client, deployment] = await Promise.all([context.walletClient(), leaseDeployment(context)])
  const { file, entry } = await journalOf(context, deployment, leaseId)
  const expiresAt = entry?.tokenExpiresAt === undefined ? 0 : Date.parse(entry.tokenExpiresAt)
  if (entry?.token !== undefined && entry.gatewayUrl === gatewayUrl && expiresAt - Date.now() > 300_000) {
    context.terminal.secret(entry.token)
    return { token: entry.token, url: leaseUrl({ gatewayUrl, leaseId }), expiresAt: new Date(expiresAt) }
  }
  context.terminal.progress(`signing in to lease ${leaseId} at ${gatewayUrl}…`)
  const session = await signInToLease(client, { deployment, gatewayUrl, leaseId })
  context.terminal.secret(session.token)
  if (entry !== undefined)
    await writeLeaseJournal(file, {
      ...entry,
      gatewayUrl,
      token: session.token,
      tokenExpiresAt: session.expiresAt.toISOString(),
    })
  return session
}

/** The lease's gateway: `--gateway`, else the one journaled at `lease open`. */
async function gatewayOf(context: Context, leaseId: bigint, given: string | undefined): Promise<string> {
  if (given !== undefined) return given
  const { entry } = await journalOf(context, await leaseDeployment(context), leaseId)
  if (entry?.gatewayUrl !== undefined) return entry.gatewayUrl
  throw new UsageError(`lease ${leaseId}: pass --gateway <url>, the provider's lease gateway`, [
    'The provider publishes it (e.g. https://leases.example.com); the lease is served at <leaseId>.<its host>.',
  ])
}

/** Waits until the lease is accepted (or no longer requested), polling the chain. */
async function waitForAcceptance(context: Context, leaseId: bigint, timeoutMs: number): Promise<Lease> {
  const [client, deployment] = await Promise.all([context.client(), leaseDeployment(context)])
  const started = Date.now()
  for (;;) {
    const lease = await getLease(client, { deployment, leaseId })
    if (lease.status !== 'Requested') return lease
    if (Date.now() - started >= timeoutMs)
      throw new LeaseAcceptTimeoutError({ leaseId, waitedSec: Math.round(timeoutMs / 1000) })
    context.terminal.progress(
      `lease ${leaseId}: waiting for a provider to accept (until ${time(lease.acceptBy)})…`,
    )
    await new Promise((resolve) => setTimeout(resolve, acceptPollMs))
  }
}

/** Runs the usage acknowledger for a journaled lease until Ctrl-C or the lease's end. */
async function acknowledge(
  context: Context,
  {
    leaseId,
    file,
    entry,
    token,
    intervalSec,
  }: {
    leaseId: bigint
    file: string
    entry: LeaseJournalEntry
    token: string
    intervalSec: number
  },
) {
  let journal = entry
  const acknowledger = startUsageAcknowledger({
    gatewayUrl: entry.gatewayUrl ?? '',
    leaseId,
    token,
    sessionKey: privateKeyToAccount(entry.sessionKey),
    leaseMarket: entry.leaseMarket,
    chainId: entry.chainId,
    intervalSec,
    resumeFrom: entry.lastAck,
    onAck: (ack) => {
      journal = { ...journal, lastAck: journalAck(ack) }
      void writeLeaseJournal(file, journal)
      context.terminal.progress(`lease ${leaseId}: acknowledged ${formatDuration(ack.servedSec)} of service`)
    },
    onError: (error) => context.terminal.err(`lease ${leaseId}: ${error.shortMessage}`),
  })
  const stop = () => void acknowledger.stop()
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
  try {
    return await acknowledger.done
  } finally {
    process.off('SIGINT', stop)
    process.off('SIGTERM', stop)
  }
}

/** The status lines of a lease and its cost meter. */
function describeLease(cost: GetLeaseCostReturnType, end: GetLeaseEndReturnType, token: TokenInfo): string[] {
  const { lease } = cost
  const uptime = cost.elapsedSec === 0 ? '-' : `${((lease.servedSec / cost.elapsedSec) * 100).toFixed(1)}%`
  return fields([
    ['lease', lease.leaseId.toString()],
    ['status', lease.status],
    ['renter', lease.renter],
    ['provider', lease.status === 'Requested' ? '(none yet)' : lease.provider],
    ['source', lease.sourceId],
    [lease.status === 'Requested' ? 'max price' : 'price', price(lease.pricePerSec, token)],
    ...(lease.status === 'Requested'
      ? ([
          ['duration', formatDuration(lease.endsAt)],
          ['accept by', time(lease.acceptBy)],
        ] as const)
      : ([
          ['started', time(lease.startedAt)],
          ['ends', `${time(end.endsAt)}${end.reason === 'None' ? '' : ` (${end.reason})`}`],
          [
            'served',
            `${formatDuration(lease.servedSec)} acknowledged of ${formatDuration(cost.elapsedSec)} (uptime so far ${uptime})`,
          ],
          ['accrued', formatAmount(cost.accrued, token)],
          ['paid', formatAmount(cost.paid, token)],
          ['unpaid', `${formatAmount(cost.unpaid, token)} (the provider may still redeem it)`],
        ] as const)),
    ['deposit left', formatAmount(cost.depositLeft, token)],
    ...(lease.status === 'Active'
      ? ([
          [
            'funded until',
            `${time(cost.fundedUntil)}${cost.lowDeposit ? `: LOW, top up (gridforge lease topup ${lease.leaseId} <amount>)` : ''}`,
          ],
        ] as const)
      : []),
    ...(lease.reportedAt === 0 ? [] : ([['offline report', time(lease.reportedAt)]] as const)),
    ...(lease.reason === 'None' ? [] : ([['end reason', lease.reason]] as const)),
  ])
}

/** Every event of lease `leaseId`, oldest first (one `eth_getLogs` per event type, on the indexed lease id). */
async function leaseHistory(context: Context, leaseId: bigint) {
  const [client, deployment] = await Promise.all([context.client(), leaseDeployment(context)])
  const events: readonly AbiEvent[] = [
    LeaseRequested,
    LeaseAccepted,
    LeaseToppedUp,
    LeaseExtended,
    UsageRedeemed,
    NoticeGiven,
    OfflineReported,
    OfflineReportAnswered,
    LeaseEnded,
    LeaseSettled,
  ]
  const logs = (
    await Promise.all(
      events.map((event) =>
        getLogsPaginated(client, {
          address: deployment.contracts.leases,
          event,
          args: { leaseId } as never,
          fromBlock: BigInt(deployment.blockNumber),
        }),
      ),
    )
  ).flat() as unknown as {
    eventName: string
    args: Record<string, unknown>
    blockNumber: bigint
    logIndex: number
    transactionHash: string
  }[]
  return logs
    .sort((a, b) =>
      a.blockNumber === b.blockNumber ? a.logIndex - b.logIndex : a.blockNumber < b.blockNumber ? -1 : 1,
    )
    .map(({ eventName, args, blockNumber, transactionHash }) => ({
      event: eventName,
      blockNumber,
      transactionHash,
      args,
    }))
}

function timeout(value: string, flag: string): number {
  const seconds = parseDuration(value)
  if (seconds === undefined || seconds === 0)
    throw new InvalidParametersError({
      action: 'lease',
      fields: [{ path: flag, message: "pass a duration like '90s', '30m' or '2h'" }],
    })
  return seconds
}

export const leaseCommands: CommandGroup = (program, contextOf) => {
  const lease = program
    .command('lease')
    .description('rent an interactive container (a notebook, an inference server) by the second')

  lease
    .command('open')
    .description(
      'request a lease, wait for a provider to accept it, sign in on its gateway and print the URL; with --ack, keep acknowledging service until Ctrl-C or the lease ends',
    )
    .requiredOption('--source <id>', 'the interactive source to run', parseInteger)
    .option('--max-price-per-hour <amount>', 'the most paid per hour of service, in token units', amount)
    .option('--max-price-per-second <amount>', 'the most paid per second of service, in token units', amount)
    .requiredOption(
      '--duration <duration>',
      'length of the lease from its acceptance (e.g. 2h; at most 365d)',
    )
    .requiredOption(
      '--deposit <amount>',
      'escrowed now; the lease ends when it runs out (top up to go on)',
      amount,
    )
    .option(
      '--penalty <duration>',
      "paid from the provider's collateral if it goes offline: seconds of the price (≤ 7d)",
    )
    .option('--min-uptime <percent>', 'uptime the provider must keep, in percent (0-100)', parseInteger)
    .option('--accept-within <duration>', 'how long providers have to accept (default 1h, at most 30d)')
    .option(
      '--gateway <url>',
      "the provider's lease gateway (e.g. https://leases.example.com) to sign in and print the URL",
    )
    .option('--permit', 'pay the deposit with an EIP-2612 permit signature instead of an allowance')
    .option('--timeout <duration>', 'stop waiting for acceptance after this long (exit code 5)', '10m')
    .option('--ack', 'keep running as the usage acknowledger (needs --gateway)')
    .option('--interval <seconds>', 'seconds between acknowledgements with --ack', parseInteger, 60)
    .addHelpText(
      'after',
      examples(
        'gridforge lease open --source 3 --max-price-per-hour 3.6 --duration 2h --deposit 8 --penalty 1h --min-uptime 95 --gateway https://leases.example.com --ack',
        'gridforge --json lease open --source 3 --max-price-per-second 0.001 --duration 30m --deposit 2 --permit',
      ),
    )
    .action(async (options: OpenOptions, command: Command) => {
      const context = contextOf(command)
      if (options.ack === true && options.gateway === undefined)
        throw new UsageError('--ack needs --gateway <url>: acknowledgements go to the lease gateway')
      if (options.minUptime !== undefined && options.minUptime > 100)
        throw new UsageError('--min-uptime: a percentage from 0 to 100')
      const waitSec = timeout(options.timeout, '--timeout')
      const [client, deployment, token, chain] = await Promise.all([
        context.walletClient(),
        leaseDeployment(context),
        context.token(),
        context.chain(),
      ])
      const ref = { chainId: chain.id, leaseMarket: deployment.contracts.leases }
      const dir = leaseJournalDir(context.env)
      // The session key is journaled before the request: a request mined while we crash must stay acknowledgeable.
      const sessionKey = createLeaseSessionKey()
      context.terminal.secret(sessionKey.privateKey)
      const pendingFile = leaseJournalFile(dir, ref, `pending-${sessionKey.address.toLowerCase()}`)
      const entry: LeaseJournalEntry = {
        ...ref,
        sessionKey: sessionKey.privateKey,
        gatewayUrl: options.gateway,
      }
      await writeLeaseJournal(pendingFile, entry)
      const parameters: RequestLeaseParameters = {
        deployment,
        sourceId: options.source,
        maxPricePerHour: options.maxPricePerHour as RequestLeaseParameters['maxPricePerHour'],
        maxPricePerSec: options.maxPricePerSecond as RequestLeaseParameters['maxPricePerSec'],
        duration: options.duration as RequestLeaseParameters['duration'],
        deposit: options.deposit as RequestLeaseParameters['deposit'],
        penalty: options.penalty as RequestLeaseParameters['penalty'],
        minUptimeBps: options.minUptime === undefined ? undefined : options.minUptime * 100,
        acceptBy: options.acceptWithin as RequestLeaseParameters['acceptBy'],
        ackSigner: sessionKey.address,
      }
      context.terminal.progress('requesting a lease…')
      const requested = await (options.permit === true ? requestLeaseWithPermit : requestLease)(
        client,
        parameters,
      )
      const { leaseId } = requested
      const file = leaseJournalFile(dir, ref, leaseId.toString())
      const journaled = { ...entry, leaseId: leaseId.toString() }
      await writeLeaseJournal(file, journaled)
      await removeLeaseJournal(pendingFile)
      context.terminal.progress(
        `requested lease ${leaseId} (deposit ${formatAmount(requested.request.deposit, token)}); ${formatTransaction(requested)}`,
      )
      const accepted = await waitForAcceptance(context, leaseId, waitSec * 1000)
      if (accepted.status !== 'Active')
        throw new UsageError(`lease ${leaseId} is ${accepted.status} (${accepted.reason}): nobody can use it`)
      const session =
        options.gateway === undefined ? undefined : await sessionToken(context, leaseId, options.gateway)
      const result = {
        leaseId,
        provider: accepted.provider,
        pricePerSec: accepted.pricePerSec,
        startedAt: accepted.startedAt,
        endsAt: accepted.endsAt,
        url: session?.url,
        sessionKeyAddress: sessionKey.address,
        journal: file,
        hash: requested.hash,
      }
      context.terminal.result(result, () => [
        `lease ${leaseId} accepted by ${accepted.provider} at ${price(accepted.pricePerSec, token)}, until ${time(accepted.endsAt)}`,
        session === undefined
          ? `sign in and get its URL with: gridforge lease url ${leaseId} --gateway <url> --token`
          : `open: ${session.url} (token: gridforge lease url ${leaseId} --token)`,
        `session key and acknowledgements journaled in ${file}`,
      ])
      if (options.ack === true && session !== undefined) {
        context.terminal.err(
          `acknowledging service every ${options.interval}s; Ctrl-C to stop (the lease goes on: close it with gridforge lease close ${leaseId})`,
        )
        const stopped = await acknowledge(context, {
          leaseId,
          file,
          entry: { ...journaled, token: session.token },
          token: session.token,
          intervalSec: options.interval,
        })
        context.terminal.err(
          `lease ${leaseId}: acknowledger stopped (${stopped.reason}${'detail' in stopped ? `: ${stopped.detail}` : ''})`,
        )
      }
    })

  lease
    .command('ack')
    .description(
      'run the usage acknowledger of a lease opened with this CLI (its journaled session key) until Ctrl-C or the lease ends',
    )
    .argument('<leaseId>', 'the lease', parseId)
    .option('--gateway <url>', "the provider's lease gateway (default: the one given at open)")
    .option('--interval <seconds>', 'seconds between acknowledgements', parseInteger, 60)
    .addHelpText('after', examples('gridforge lease ack 7'))
    .action(async (leaseId: bigint, options: { gateway?: string; interval: number }, command: Command) => {
      const context = contextOf(command)
      const deployment = await leaseDeployment(context)
      const { file, entry } = await journalOf(context, deployment, leaseId)
      if (entry === undefined)
        throw new UsageError(`lease ${leaseId} was not opened with this CLI: no session key in ${file}`)
      context.terminal.secret(entry.sessionKey)
      const gatewayUrl = await gatewayOf(context, leaseId, options.gateway)
      const session = await sessionToken(context, leaseId, gatewayUrl)
      const stopped = await acknowledge(context, {
        leaseId,
        file,
        entry: { ...entry, gatewayUrl },
        token: session.token,
        intervalSec: options.interval,
      })
      context.terminal.result(stopped, () => `lease ${leaseId}: acknowledger stopped (${stopped.reason})`)
    })

  lease
    .command('status')
    .description(
      "a lease's state and live cost meter: accrued, paid, deposit left, funded until, uptime so far, end time and reason",
    )
    .argument('<leaseId>', 'the lease', parseId)
    .addHelpText('after', examples('gridforge lease status 7', 'gridforge --json lease status 7'))
    .action(async (leaseId: bigint, _options: object, command: Command) => {
      const context = contextOf(command)
      const [client, deployment, token] = await Promise.all([
        context.client(),
        leaseDeployment(context),
        context.token(),
      ])
      const [cost, end] = await Promise.all([
        getLeaseCost(client, { deployment, leaseId }),
        getLeaseEnd(client, { deployment, leaseId }),
      ])
      const { entry } = await journalOf(context, deployment, leaseId)
      const result = { ...cost, end, lastAck: entry?.lastAck }
      context.terminal.result(result, () => [
        ...describeLease(cost, end, token),
        ...(entry?.lastAck === undefined
          ? []
          : [
              `last acknowledgement sent: ${formatDuration(entry.lastAck.servedSec)} served by ${time(entry.lastAck.at)}`,
            ]),
      ])
    })

  lease
    .command('topup')
    .description("add to a lease's deposit so that it runs longer")
    .argument('<leaseId>', 'the lease', parseId)
    .argument('<amount>', 'in token units', amount)
    .option('--permit', 'pay with an EIP-2612 permit signature instead of an allowance')
    .addHelpText('after', examples('gridforge lease topup 7 5', 'gridforge lease topup 7 5 --permit'))
    .action(async (leaseId: bigint, value: string, options: { permit?: boolean }, command: Command) => {
      const context = contextOf(command)
      const [client, deployment, token] = await Promise.all([
        context.walletClient(),
        leaseDeployment(context),
        context.token(),
      ])
      context.terminal.progress(`topping up lease ${leaseId}…`)
      const parameters = { deployment, leaseId, amount: value as `${number}` }
      const result = await (options.permit === true ? topUpLeaseWithPermit : topUpLease)(client, parameters)
      context.terminal.result(
        result,
        () =>
          `lease ${leaseId}: deposit now ${formatAmount(result.deposit, token)}; ${formatTransaction(result)}`,
      )
    })

  lease
    .command('extend')
    .description('make a lease longer (top up too: it still ends when its deposit runs out)')
    .argument('<leaseId>', 'the lease', parseId)
    .argument('<duration>', 'how much longer, e.g. 1h')
    .addHelpText('after', examples('gridforge lease extend 7 1h'))
    .action(async (leaseId: bigint, by: string, _options: object, command: Command) => {
      const context = contextOf(command)
      const [client, deployment] = await Promise.all([context.walletClient(), leaseDeployment(context)])
      context.terminal.progress(`extending lease ${leaseId}…`)
      const result = await extendLease(client, { deployment, leaseId, by: by as `${number}h` })
      context.terminal.result(
        result,
        () =>
          `lease ${leaseId} now ends at ${time(result.endsAt)} at the latest; ${formatTransaction(result)}`,
      )
    })

  lease
    .command('close')
    .description(
      'end a lease now (a request nobody accepted is cancelled); the unspent deposit comes back at once',
    )
    .argument('<leaseId>', 'the lease', parseId)
    .addHelpText('after', examples('gridforge lease close 7'))
    .action(async (leaseId: bigint, _options: object, command: Command) => {
      const context = contextOf(command)
      const [client, deployment, token] = await Promise.all([
        context.walletClient(),
        leaseDeployment(context),
        context.token(),
      ])
      context.terminal.progress(`closing lease ${leaseId}…`)
      const result = await closeLease(client, { deployment, leaseId })
      context.terminal.result(result, () => [
        `lease ${leaseId} ended (${result.reason}) at ${time(result.endedAt)}: ${formatAmount(result.refunded, token)} refunded to your wallet; ${formatTransaction(result)}`,
        result.settlement === undefined
          ? "the rest waits for the provider's last acknowledgement; it settles after the claim window"
          : `settled: uptime ${(result.settlement.uptimeBps / 100).toFixed(2)}%`,
      ])
    })

  lease
    .command('url')
    .description(
      "the lease's URL on its provider's gateway; with --token, sign in and print the session token too",
    )
    .argument('<leaseId>', 'the lease', parseId)
    .option('--gateway <url>', "the provider's lease gateway (default: the one given at open)")
    .option(
      '--token',
      'sign in (or reuse the journaled session) and print the token for Authorization: Bearer',
    )
    .addHelpText(
      'after',
      examples('gridforge lease url 7', 'gridforge lease url 7 --gateway https://leases.example.com --token'),
    )
    .action(async (leaseId: bigint, options: { gateway?: string; token?: boolean }, command: Command) => {
      const context = contextOf(command)
      const gatewayUrl = await gatewayOf(context, leaseId, options.gateway)
      const url = leaseUrl({ gatewayUrl, leaseId })
      if (options.token !== true) return context.terminal.result({ leaseId, url }, () => url)
      const session = await sessionToken(context, leaseId, gatewayUrl)
      // Printed on purpose: the user asked for it. Written raw, past the terminal's redaction.
      if (context.terminal.json)
        context.terminal.stdout.write(
          `${JSON.stringify({ leaseId: leaseId.toString(), url, token: session.token, expiresAt: session.expiresAt })}\n`,
        )
      else context.terminal.stdout.write(`${url}\n${session.token}\n`)
    })

  lease
    .command('logs')
    .description("the lease's on-chain event history (the gateway has no endpoint for the container's logs)")
    .argument('<leaseId>', 'the lease', parseId)
    .addHelpText('after', examples('gridforge lease logs 7', 'gridforge --json lease logs 7'))
    .action(async (leaseId: bigint, _options: object, command: Command) => {
      const context = contextOf(command)
      const token = await context.token()
      const history = await leaseHistory(context, leaseId)
      const show = (value: unknown, key: string) =>
        typeof value === 'bigint' && /deposit|amount|payment|fee|refunded|penalty|collateral|price/i.test(key)
          ? formatAmount(/price/i.test(key) ? value * 3_600n : value, token) +
            (/price/i.test(key) ? '/h' : '')
          : String(value)
      context.terminal.result({ leaseId, containerLogs: null, events: history }, () => [
        `The container's own logs are not available: the provider's lease gateway has no logs endpoint`,
        `(GET /_gridforge/logs does not exist). What follows is lease ${leaseId}'s on-chain event history.`,
        '',
        ...table(
          ['block', 'event', 'details'],
          history.map(({ event, blockNumber, args }) => [
            blockNumber,
            event,
            Object.entries(args)
              .filter(([key]) => key !== 'leaseId')
              .map(([key, value]) => `${key}=${show(value, key)}`)
              .join(' '),
          ]),
        ),
      ])
    })
}
