import { examples, fields, formatDate } from '@gridforge/cli-kit'
import { type GetReceiptReturnType, getReceipt, type ReceiptResult } from '../../receipts/getReceipt.js'
import { formatAmount, type TokenInfo } from '../../utils/amount.js'
import type { Context } from '../context.js'
import { describeMismatch, ReceiptVerificationFailedError } from '../errors.js'
import { parseId, parseInteger } from '../parse.js'
import type { CommandGroup } from '../program.js'

/** The receipts of a settled task, read from the configured store and checked against the chain. */
export async function readReceipts(
  context: Context,
  taskId: bigint,
  slot: number | undefined,
): Promise<GetReceiptReturnType> {
  const [client, deployment] = await Promise.all([context.client(), context.deployment()])
  context.terminal.progress(`reading the receipt of task ${taskId}…`)
  return getReceipt(client, {
    deployment,
    taskId,
    store: context.store(),
    ...(slot === undefined ? {} : { slot }),
  })
}

/** A receipt and its settlement as `label: value` lines. */
export function describeReceipt(result: ReceiptResult, token: TokenInfo): string[] {
  const { settlement, receipt } = result
  const lines = [
    `slot ${settlement.slot}: ${result.status === 'verified' ? 'VERIFIED' : 'MISMATCH'}`,
    ...fields([
      ['task', settlement.taskId],
      ['status', settlement.status],
      ...(settlement.audit === undefined ? [] : ([['audit', settlement.audit]] as const)),
      ['provider', settlement.provider],
      ['source', settlement.sourceId],
      ['image', settlement.imageDigest],
      ['input', settlement.inputCID],
      ['output', settlement.resultCID],
      ['receipt', settlement.receiptCID],
      ['logs', receipt?.logsCID],
      ['runtime', `${settlement.runtimeSec}s`],
      ['started', receipt === undefined ? undefined : formatDate(new Date(receipt.startedAt * 1000))],
      ['finished', receipt === undefined ? undefined : formatDate(new Date(receipt.finishedAt * 1000))],
      ['exit code', receipt?.exitCode],
      ['hardware', receipt === undefined ? undefined : hardwareSummary(receipt.hardware)],
      ['paid', settlement.paid ? formatAmount(settlement.payment, token) : 'no'],
      ['fee', formatAmount(settlement.fee, token)],
      ['refund (task)', formatAmount(settlement.refund, token)],
      ['settled in', `${settlement.hash} (block ${settlement.blockNumber})`],
    ]).map((line) => `  ${line}`),
  ]
  if (result.status === 'mismatch') {
    lines.push('  mismatches:', ...result.mismatches.map((mismatch) => `    - ${describeMismatch(mismatch)}`))
  }
  return lines
}

function hardwareSummary(hardware: {
  gpus: readonly { name: string; vramMiB: number }[]
  cpuCores: number
  memoryMiB: number
}): string {
  const gpus =
    hardware.gpus.length === 0
      ? 'no GPU'
      : hardware.gpus.map((gpu) => `${gpu.name} (${Math.round(gpu.vramMiB / 1024)} GiB)`).join(', ')
  return `${gpus}; ${hardware.cpuCores} cores, ${Math.round(hardware.memoryMiB / 1024)} GiB`
}

export const receiptCommands: CommandGroup = (program, contextOf) => {
  const receipt = program
    .command('receipt')
    .description("a settled task's receipts: the provider's signed record of the run, joined with the chain")
    .addHelpText('after', examples('gridforge receipt show 42', 'gridforge receipt verify 42'))

  receipt
    .command('show')
    .description('show the receipt of each replica of a settled task, verified or with what disagrees')
    .argument('<taskId>', 'the task', parseId)
    .option('--slot <n>', 'only this replica slot', parseInteger)
    .addHelpText('after', examples('gridforge receipt show 42', 'gridforge --json receipt show 42 --slot 1'))
    .action(async (taskId: bigint, options: { slot?: number }, command) => {
      const context = contextOf(command)
      const [results, token] = await Promise.all([
        readReceipts(context, taskId, options.slot),
        context.token(),
      ])
      context.terminal.result(results, () => results.flatMap((result) => describeReceipt(result, token)))
    })

  receipt
    .command('verify')
    .description(
      'check every receipt of a settled task against the chain (CID, signature, fields); exit code 7 lists what disagrees',
    )
    .argument('<taskId>', 'the task', parseId)
    .option('--slot <n>', 'only this replica slot', parseInteger)
    .addHelpText('after', examples('gridforge receipt verify 42 && echo trusted'))
    .action(async (taskId: bigint, options: { slot?: number }, command) => {
      const context = contextOf(command)
      const results = await readReceipts(context, taskId, options.slot)
      const mismatches = results.flatMap((result) =>
        result.status === 'mismatch'
          ? result.mismatches.map((mismatch) => ({
              ...mismatch,
              field: `slot ${result.settlement.slot}: ${mismatch.field}`,
            }))
          : [],
      )
      if (mismatches.length > 0) throw new ReceiptVerificationFailedError({ taskId, mismatches })
      context.terminal.result(
        {
          taskId,
          verified: true,
          receipts: results.map(({ settlement }) => ({
            slot: settlement.slot,
            ...(settlement.audit === undefined ? {} : { audit: settlement.audit }),
            provider: settlement.provider,
            receiptCID: settlement.receiptCID,
            outputCID: settlement.resultCID,
          })),
        },
        () =>
          results.map(
            ({ settlement }) =>
              `task ${taskId} slot ${settlement.slot}: receipt ${settlement.receiptCID} verified (provider ${settlement.provider}, output ${settlement.resultCID})`,
          ),
      )
    })
}
