import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { examples, fields, formatDate, formatTransaction, table, UsageError } from '@gridforge/cli-kit'
import type { Command } from 'commander'
import { type Hex, isAddressEqual, zeroHash } from 'viem'
import { getBlock } from 'viem/actions'
import * as z from 'zod'
import { InvalidParametersError } from '../../errors/validation.js'
import { isSealedOutput } from '../../results/isSealedOutput.js'
import { openOutput } from '../../results/openOutput.js'
import { deriveResultKey } from '../../results/resultKey.js'
import { getBytes } from '../../storage/getBytes.js'
import { cancelTask } from '../../tasks/cancelTask.js'
import { type Failure, formatFailure } from '../../tasks/failures.js'
import { getTask } from '../../tasks/getTask.js'
import { type GetTaskResultReturnType, getTaskResult, type SlotResult } from '../../tasks/getTaskResult.js'
import { listTasks } from '../../tasks/listTasks.js'
import { releaseResult } from '../../tasks/releaseResult.js'
import { type SubmitTaskParameters, submitTask } from '../../tasks/submitTask.js'
import { submitTasks, type TaskSubmission } from '../../tasks/submitTasks.js'
import { submitTaskWithPermit } from '../../tasks/submitTaskWithPermit.js'
import { type TaskProgress, type WaitForTaskReturnType, waitForTask } from '../../tasks/waitForTask.js'
import { watchTasks } from '../../tasks/watchTasks.js'
import type { AuditVerdict, Slot, Task, TaskStatus } from '../../types/task.js'
import { formatAmount, type TokenInfo } from '../../utils/amount.js'
import { formatDuration, parseDuration } from '../../utils/duration.js'
import { exportContent, isDirectory, resolveInput } from '../content.js'
import type { Context } from '../context.js'
import { parseId, parseInteger, parseProbabilityBps } from '../parse.js'
import type { CommandGroup } from '../program.js'
import { readReceipts } from './receipt.js'
import { addQuoteCommand } from './taskQuote.js'
import { type TermFlags, termsFromFlags } from './termFlags.js'

/** The task flags of `task submit`, as commander parses them. */
interface SubmitOptions extends TermFlags {
  source?: number
  input?: string
  maxPayment?: string
  deadline?: string
  file?: string
  permit?: boolean
  seal: boolean
  wait?: boolean
  timeout?: string
}

const taskFlags = [
  'source',
  'input',
  'maxPayment',
  'pricePerSecond',
  'replicas',
  'deadline',
  'minGpus',
  'minVramMib',
  'minComputeCapability',
  'maxRuntime',
  'minSuccessBps',
  'minCompleted',
  'audit',
] as const satisfies readonly (keyof SubmitOptions)[]

// A task file: one task or a list, with the field names of submitTask. Values are checked by the
// action (which names the field); here only the shape, so that a typo is not silently ignored.
const amountField = z.union([z.string(), z.number().transform(String)])
const taskFileEntry = z.strictObject({
  sourceId: z.union([z.number(), z.string()]),
  input: z.string(),
  maxPayment: amountField,
  pricePerSecond: amountField.optional(),
  replicas: z.number().optional(),
  deadline: z.union([z.string(), z.number()]).optional(),
  requirements: z
    .strictObject({
      minGpus: z.number().optional(),
      minVramMiB: z.number().optional(),
      minComputeCapability: z.number().optional(),
      maxRuntimeSec: z.union([z.string(), z.number()]).optional(),
    })
    .optional(),
  minSuccessBps: z.number().optional(),
  minCompleted: z.number().optional(),
  auditBps: z.number().optional(),
})
const taskFile = z.union([taskFileEntry, z.array(taskFileEntry).min(1, 'list at least one task')])

type TaskFileEntry = z.infer<typeof taskFileEntry>

async function readTaskFile(file: string): Promise<TaskFileEntry[]> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    throw new UsageError(`--file: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`)
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    throw new UsageError(`--file: ${file} is not valid JSON`)
  }
  const result = taskFile.safeParse(json)
  if (!result.success) {
    throw new InvalidParametersError({
      action: `task file ${file}`,
      fields: result.error.issues.map((issue) => ({
        path: issue.path.length === 0 ? '(file)' : issue.path.map(String).join('.'),
        message:
          issue.code === 'unrecognized_keys' ? `unknown field(s) ${issue.keys.join(', ')}` : issue.message,
      })),
    })
  }
  return Array.isArray(result.data) ? result.data : [result.data]
}

function fromFlags(options: SubmitOptions): TaskFileEntry {
  const missing = (['source', 'input', 'maxPayment'] as const).filter((name) => options[name] === undefined)
  if (missing.length > 0) {
    const flag = (name: string) => `--${name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`
    throw new UsageError(`task submit needs ${missing.map(flag).join(', ')} (or --file task.json)`)
  }
  return {
    sourceId: options.source as number,
    input: options.input as string,
    maxPayment: options.maxPayment as string,
    ...(options.deadline === undefined ? {} : { deadline: options.deadline }),
    ...termsFromFlags(options),
  }
}

/** The `timeout` of `--timeout` in milliseconds (a duration like 30m), or undefined. */
function timeoutMs(value: string | undefined): number | undefined {
  if (value === undefined) return undefined
  const seconds = parseDuration(value)
  if (seconds === undefined || seconds === 0) {
    throw new InvalidParametersError({
      action: 'task',
      fields: [{ path: '--timeout', message: "pass a duration like '90s', '30m' or '2h'" }],
    })
  }
  return seconds * 1000
}

/** What a held or audited result, or a disputed task, is waiting for, as words. */
function auditWait(task: Pick<Task, 'replicas'>, status: TaskStatus): string | undefined {
  if (status === 'Held')
    return 'result in, held for the audit draw (anyone may release it: gridforge task release)'
  if (status !== 'Auditing') return undefined
  return task.replicas > 1
    ? "the replicas' results differ: disputed, auditors re-run it before it settles"
    : 'result drawn for an audit: auditors re-run it before it is paid'
}

/** A slot's index, and whether it is an auditor's (after the replicas'). */
function slotLabel(task: Pick<Task, 'replicas'>, slot: Slot): string {
  return `${slot.index}${slot.index >= task.replicas ? ' (auditor)' : ''}`
}

/** A slot's status, and for a seat still raced for (its start later than `now`) when it is final. */
function slotState(slot: Slot, now: Date): string {
  const raced = slot.status === 'Claimed' && slot.claimedAt !== undefined && slot.claimedAt > now
  return `${slot.status}${raced ? ` (raced, final at ${formatDate(slot.claimedAt)})` : ''}`
}

/** A status change as a line: the status, and who holds the slots once claimed. */
function describeProgress({ task, status, readAt }: TaskProgress): string {
  const claims = task.slots
    .filter((slot) => slot.provider !== undefined)
    .map((slot) => `slot ${slotLabel(task, slot)}: ${slotState(slot, readAt)} by ${slot.provider}`)
  const waits = auditWait(task, status)
  return `task ${task.taskId}: ${status}${waits === undefined ? '' : ` — ${waits}`}${claims.length === 0 ? '' : ` (${claims.join('; ')})`}`
}

/** A percentage of basis points: 2500 → '25%'. */
const percent = (bps: number) => `${bps / 100}%`

/** A running audit round (an audit's or a dispute's) as words: its number, seats and deadlines. */
function describeRound(audit: NonNullable<Task['audit']>): string {
  const joining =
    audit.joinDeadline === undefined ? '' : `, auditors join until ${formatDate(audit.joinDeadline)}`
  const committing =
    audit.commitDeadline === undefined ? '' : `, commitments due ${formatDate(audit.commitDeadline)}`
  return `pending: round ${audit.round} (${audit.auditors} auditor${audit.auditors === 1 ? '' : 's'}${joining}${committing})`
}

/**
 * An auditable task's audit as one line: its probability and where it stands
 * (the verdict, and for a running audit the round and its deadlines).
 */
export function describeAudit(task: Pick<Task, 'auditBps' | 'audit' | 'status'>): string {
  if (task.auditBps === 0) return 'not audited (replicas, or a source that is not deterministic)'
  const audit = task.audit
  const verdict = audit?.verdict ?? 'none'
  const chance = `${percent(task.auditBps)} chance`
  if (verdict === 'none')
    return task.status === 'Held'
      ? `${chance}; held for the draw (gridforge task release)`
      : `${chance}; not drawn yet`
  if (verdict !== 'pending' || audit === undefined) return `${chance}; ${verdict}`
  return `${chance}; ${describeRound(audit)}`
}

/** What each verdict of a dispute did, in a few words. */
const disputeVerdicts: Partial<Record<AuditVerdict, string>> = {
  upheld: "a replica's result stands: who revealed it was paid, the others slashed",
  overturned: 'the auditors found a result no replica revealed: the replicas slashed, the client refunded',
  unresolved: 'the auditors agreed on no result: the client refunded, nobody slashed',
  lapsed: 'nobody audited it in time: a strict majority, if any, paid, nobody slashed',
}

/**
 * The dispute of a task with replicas whose results differ, as one line: its
 * round and deadlines while it runs, then its verdict and what it did.
 */
export function describeDispute(audit: NonNullable<Task['audit']>): string {
  if (audit.verdict === 'pending') return `the replicas' results differ; ${describeRound(audit)}`
  const meaning = disputeVerdicts[audit.verdict]
  return `${audit.verdict} in round ${audit.round}${meaning === undefined ? '' : ` (${meaning})`}`
}

/**
 * Waits for a task to settle, showing status changes and claims on stderr;
 * rejects with TaskFailedError / TaskExpiredError / TaskCancelledError (exit
 * 4) or WaitForTaskTimeoutError (exit 5).
 */
async function follow(
  context: Context,
  taskId: bigint,
  { timeout, fromBlock }: { timeout?: number | undefined; fromBlock?: bigint | undefined },
): Promise<WaitForTaskReturnType> {
  const [client, deployment, token] = await Promise.all([
    context.client(),
    context.deployment(),
    context.token(),
  ])
  context.terminal.progress(`task ${taskId}: waiting…`)
  const unwatch = watchTasks(client, {
    deployment,
    taskId,
    // Replays claims made before the watch started (the submission's block is known after `submit`).
    ...(fromBlock === undefined ? {} : { fromBlock }),
    onClaimed: ({ slot, provider, dueAt, collateral }) =>
      context.terminal.progress(
        `task ${taskId}: slot ${slot} claimed by ${provider} (collateral ${formatAmount(collateral, token)}, due ${formatDate(dueAt)})`,
      ),
  })
  try {
    return await waitForTask(client, {
      deployment,
      taskId,
      ...(timeout === undefined ? {} : { timeout }),
      onProgress: (progress) => context.terminal.progress(describeProgress(progress)),
    })
  } finally {
    unwatch()
  }
}

/** What a task produced so far: per slot, the result and receipt CIDs, and the settlement. */
async function resultOf(context: Context, taskId: bigint): Promise<GetTaskResultReturnType> {
  const [client, deployment] = await Promise.all([context.client(), context.deployment()])
  return getTaskResult(client, { deployment, taskId })
}

/**
 * Opens the sealed output `result` of `taskId` into the store with the
 * configured account's result key, checked against the seal on chain, and
 * returns the plain output's CID. Only the task's client can: another account
 * gets a usage error saying whose key it takes.
 */
async function openSealed(context: Context, taskId: bigint, result: SlotResult): Promise<string> {
  const [client, deployment] = await Promise.all([context.client(), context.deployment()])
  const task = await getTask(client, { deployment, taskId })
  const whose = [
    `Task ${taskId}'s output is sealed to its client, ${task.client}: only that account's result key opens it.`,
    "Run this with the client's key (GRIDFORGE_PRIVATE_KEY, or --keystore <file>).",
  ]
  if (!context.hasAccount())
    throw new UsageError(`task ${taskId}'s output is sealed: configure the client's key to open it`, whose)
  const wallet = await context.walletClient()
  if (!isAddressEqual(wallet.account.address, task.client))
    throw new UsageError(
      `${wallet.account.address} is not the client of task ${taskId}: it cannot open the task's sealed output`,
      whose,
    )
  context.terminal.progress(`task ${taskId}: opening its sealed output ${result.resultCID}…`)
  const { secretKey } = await deriveResultKey(wallet, { deployment })
  const { cid } = await openOutput(context.store(), {
    cid: result.resultCID,
    secretKey,
    taskId,
    seal: result.resultDigest,
  })
  context.terminal.progress(`task ${taskId}: opened its output ${cid} into ${context.store().description}`)
  return cid
}

/** A settled task's results as lines. */
function describeResults({ task, result }: WaitForTaskReturnType, token: TokenInfo): string[] {
  const { taskId, settlement } = result
  const paid = new Map(settlement?.payments.map((payment) => [payment.slot, payment]))
  return [
    `task ${taskId}: ${result.status}${result.resultCID === undefined ? '' : result.failed ? `, failed run (${describeFailure(result.failure)}), logs ${result.resultCID}` : `, output ${result.resultCID}`}`,
    ...result.results.map((item) => {
      const payment = paid.get(item.slot)
      return `  slot ${item.slot}: ${item.provider} output ${item.resultCID} receipt ${item.receiptCID} runtime ${item.runtimeSec}s${payment === undefined ? '' : `, paid ${formatAmount(payment.payment, token)} (fee ${formatAmount(payment.fee, token)})`}`
    }),
    ...(settlement === undefined ? [] : [`  refund: ${formatAmount(settlement.refund, token)}`]),
    ...(settlement?.audit === undefined
      ? []
      : [`  ${task.replicas > 1 ? 'dispute' : 'audit'}: ${settlement.audit.verdict}`]),
    ...(result.resultCID === undefined
      ? []
      : [`fetch it with: gridforge task result ${taskId} --out ./result-${taskId}`]),
  ]
}

/** Whether a task's output is sealed, in a few words. */
function describeSealing(resultKey: Hex): string {
  return resultKey === zeroHash
    ? 'in the clear (no result key)'
    : `sealed to the client's result key ${resultKey} (only the client opens it)`
}

/** A failed run in a few words. */
function describeFailure(failure: Failure | undefined): string {
  return failure === undefined ? 'a failure this CLI cannot read' : formatFailure(failure)
}

/** A task's state as lines; `now` is the latest block's time (a seat whose start is later is still raced for). */
function describeTask(task: Task, token: TokenInfo, now: Date): string[] {
  const requirements = task.requirements
  return [
    ...fields([
      ['task', task.taskId],
      ['status', task.status],
      ['client', task.client],
      ['source', task.sourceId],
      ['input', task.inputCID],
      ...(task.resultKey === undefined ? [] : ([['output', describeSealing(task.resultKey)]] as const)),
      ['replicas', task.replicas],
      ['max payment', `${formatAmount(task.maxPayment, token)} per replica`],
      ['price', task.pricePerSecond === 0n ? 'fixed' : `${formatAmount(task.pricePerSecond, token)}/s`],
      ['deadline', task.deadline],
      ['collateral', formatAmount(task.collateral, token)],
      [
        'requirements',
        `gpus ≥ ${requirements.minGpus}, vram ≥ ${requirements.minVramMiB} MiB, cc ≥ ${requirements.minComputeCapability}, runtime ≤ ${formatDuration(requirements.maxRuntimeSec)}${requirements.deterministic ? ', deterministic' : ''}`,
      ],
      ['fee', `${task.feeBps} bps (discount ${task.discountBps} bps)`],
      ...(task.revealDeadline === undefined ? [] : ([['reveal deadline', task.revealDeadline]] as const)),
      ...(task.auditBps === 0 ? [] : ([['audit', describeAudit(task)]] as const)),
      ...(task.replicas > 1 && task.audit !== undefined
        ? ([['dispute', describeDispute(task.audit)]] as const)
        : []),
      ...(task.failed
        ? ([['failed run', `${describeFailure(task.failure)} (its result is the run's logs)`]] as const)
        : []),
    ]),
    'slots:',
    ...table(
      ['SLOT', 'STATUS', 'PROVIDER', 'CLAIMED', 'DUE'],
      task.slots.map((slot) => [
        slotLabel(task, slot),
        slotState(slot, now),
        slot.provider,
        slot.claimedAt,
        slot.dueAt,
      ]),
    ).map((line) => `  ${line}`),
  ]
}

const submitHelp = examples(
  'gridforge task submit --source 1 --input ./audio --max-payment 5 --deadline 2h --wait',
  'gridforge task submit --source 1 --input bafy… --max-payment 2 --price-per-second 0.01 --min-gpus 1',
  'gridforge task submit --file tasks.json   # one task or an array: {"sourceId":1,"input":"./a","maxPayment":"5"}',
  'gridforge task submit --source 3 --input bafy… --max-payment 5 --audit 0.25   # deterministic source: audit 25% of results',
  'gridforge task submit --source 1 --input bafy… --max-payment 5 --no-seal   # the output in the clear, for anyone to read',
)

export const taskCommands: CommandGroup = (program, contextOf) => {
  const task = program
    .command('task')
    .description('tasks: submit work to a source, follow it, fetch its result and logs')
    .addHelpText('after', examples('gridforge task submit --source 1 --input ./data --max-payment 5 --wait'))

  task
    .command('submit')
    .description(
      'submit a task (or several with --file): a folder or file given as --input is imported into the store and its CID used; the escrow comes from your market balance, then your allowance',
    )
    .option('--source <id>', 'the source to run', parseInteger)
    .option('--input <cid|file|folder>', 'the input: a CID, or a path imported into the store')
    .option('--max-payment <amount>', 'most paid to each replica, in token units (e.g. 5)')
    .option('--price-per-second <amount>', 'metered price; omitted: a fixed price of --max-payment')
    .option(
      '--replicas <n>',
      'providers that run it, 1 to 7 (more than 1 needs a deterministic source)',
      parseInteger,
    )
    .option('--deadline <duration>', 'how long it may wait for results, e.g. 2h (default 1d, at most 30d)')
    .option('--min-gpus <n>', 'least GPUs (stricter than the source)', parseInteger)
    .option('--min-vram-mib <MiB>', 'least memory per GPU, in MiB', parseInteger)
    .option('--min-compute-capability <cc>', 'least CUDA compute capability × 10, e.g. 80', parseInteger)
    .option('--max-runtime <duration>', 'longest run, e.g. 30m (shorter than the source)')
    .option('--min-success-bps <bps>', 'least success rate of a claimant, in basis points', parseInteger)
    .option('--min-completed <n>', 'least tasks a claimant has completed', parseInteger)
    .option(
      '--audit <p>',
      "probability that the result is audited, above 0 and at most 1 (e.g. 0.25); only one replica of a deterministic source is audited; left out, the market's default (10% at launch)",
      parseProbabilityBps,
    )
    .option('--file <task.json>', 'read the task (or an array of tasks) from a JSON file instead of flags')
    .option('--permit', 'pay a shortfall with an EIP-2612 permit signature instead of an allowance')
    .option(
      '--no-seal',
      'publish the output in the clear: by default the task names your result key (derived by signing a message with your account), providers encrypt the output to it, and only you can read it (and no auditor can copy it without computing)',
    )
    .option('--wait', 'follow the task until it settles, then print the result')
    .option('--timeout <duration>', 'with --wait: give up waiting after this long (exit code 5)')
    .addHelpText('after', submitHelp)
    .action(async (options: SubmitOptions, command: Command) => {
      const context = contextOf(command)
      const timeout = timeoutMs(options.timeout)
      let entries: TaskFileEntry[]
      let baseDir = process.cwd()
      if (options.file !== undefined) {
        const mixed = taskFlags.filter((name) => options[name] !== undefined)
        if (mixed.length > 0) throw new UsageError('pass the task either with --file or with flags, not both')
        entries = await readTaskFile(options.file)
        baseDir = path.dirname(path.resolve(options.file))
      } else {
        entries = [fromFlags(options)]
      }
      const [client, deployment, token] = await Promise.all([
        context.walletClient(),
        context.deployment(),
        context.token(),
      ])
      const store = context.store()
      // Sealed results (the default): the key is derived from the account, so nothing is stored.
      const resultKey =
        options.seal === false ? undefined : (await deriveResultKey(client, { deployment })).publicKey
      const tasks: TaskSubmission[] = []
      for (const [index, entry] of entries.entries()) {
        const input = await resolveInput(entry.input, {
          store,
          terminal: context.terminal,
          baseDir,
          option:
            entries.length > 1 ? `tasks[${index}].input` : options.file === undefined ? '--input' : 'input',
        })
        tasks.push({
          ...(entry as unknown as TaskSubmission),
          input,
          ...(resultKey === undefined ? {} : { resultKey }),
        })
      }
      let submitted: { taskId: bigint; escrow: bigint; deadline: number; resultKey: Hex }[]
      let transaction: { hash: `0x${string}`; blockNumber: bigint }
      if (tasks.length === 1) {
        const parameters = { deployment, ...(tasks[0] as TaskSubmission) } as SubmitTaskParameters
        context.terminal.progress('submitting the task…')
        const result =
          options.permit === true
            ? await submitTaskWithPermit(client, parameters)
            : await submitTask(client, parameters)
        submitted = [
          {
            taskId: result.taskId,
            escrow: result.escrow,
            deadline: result.deadline,
            resultKey: result.resultKey,
          },
        ]
        transaction = { hash: result.hash, blockNumber: result.blockNumber }
      } else {
        if (options.permit === true)
          throw new UsageError('--permit submits one task; approve or deposit for a batch')
        context.terminal.progress(`submitting ${tasks.length} tasks…`)
        const result = await submitTasks(client, { deployment, tasks })
        submitted = result.tasks
        transaction = { hash: result.hash, blockNumber: result.blockNumber }
      }
      for (const { taskId, escrow } of submitted) {
        context.terminal.progress(`submitted task ${taskId} (escrow ${formatAmount(escrow, token)})`)
      }
      if (options.wait !== true) {
        context.terminal.result(
          submitted.map((item, index) => ({ ...item, input: tasks[index]?.input, ...transaction })),
          () => [
            ...submitted.map(
              ({ taskId, escrow, deadline }, index) =>
                `submitted task ${taskId}: input ${tasks[index]?.input}, escrow ${formatAmount(escrow, token)}, deadline ${formatDate(new Date(deadline * 1000))}, output ${resultKey === undefined ? 'in the clear' : 'sealed to you'}`,
            ),
            formatTransaction(transaction),
            `follow it with: gridforge task watch ${submitted[0]?.taskId}`,
          ],
        )
        return
      }
      const settled = await Promise.all(
        submitted.map(({ taskId }) =>
          follow(context, taskId, { timeout, fromBlock: transaction.blockNumber }),
        ),
      )
      context.terminal.result(
        settled.map(({ result }) => result),
        () => settled.flatMap((followed) => describeResults(followed, token)),
      )
    })

  addQuoteCommand(task, contextOf)

  task
    .command('status')
    .description("a task's state: status, terms, requirements and slots")
    .argument('<taskId>', 'the task', parseId)
    .addHelpText('after', examples('gridforge task status 42', 'gridforge --json task status 42'))
    .action(async (taskId: bigint, _options: object, command: Command) => {
      const context = contextOf(command)
      const [client, deployment, token] = await Promise.all([
        context.client(),
        context.deployment(),
        context.token(),
      ])
      const [found, latest] = await Promise.all([
        getTask(client, { deployment, taskId, includeInput: true }),
        getBlock(client, { blockTag: 'latest' }),
      ])
      const now = new Date(Number(latest.timestamp) * 1000)
      context.terminal.result(found, () => describeTask(found, token, now))
    })

  task
    .command('watch')
    .description(
      'follow a task until it settles: status changes, claims, results (exit 4 if it fails, expires or is cancelled)',
    )
    .argument('<taskId>', 'the task', parseId)
    .option('--timeout <duration>', 'give up waiting after this long (exit code 5)')
    .addHelpText('after', examples('gridforge task watch 42', 'gridforge task watch 42 --timeout 30m'))
    .action(async (taskId: bigint, options: { timeout?: string }, command: Command) => {
      const context = contextOf(command)
      const timeout = timeoutMs(options.timeout)
      const token = await context.token()
      const followed = await follow(context, taskId, { timeout })
      context.terminal.result(followed.result, () => describeResults(followed, token))
    })

  task
    .command('result')
    .description(
      "fetch a completed task's output from the store: into --out, or a file's bytes to stdout (every block is checked against the CID); a sealed output is opened first with your result key (you must be the task's client)",
    )
    .argument('<taskId>', 'the task', parseId)
    .option('--out <dir>', 'write the output here (a folder: created; existing files are never overwritten)')
    .option(
      '--slot <n>',
      'the replica slot whose output to fetch (default: the accepted result)',
      parseInteger,
    )
    .addHelpText(
      'after',
      examples('gridforge task result 42 --out ./result', 'gridforge task result 42 > output.json'),
    )
    .action(async (taskId: bigint, options: { out?: string; slot?: number }, command: Command) => {
      const context = contextOf(command)
      const found = await resultOf(context, taskId)
      const chosen =
        options.slot === undefined
          ? (found.results.find((item) => item.resultCID === found.resultCID) ?? found.results[0])
          : found.results.find((item) => item.slot === options.slot)
      if (chosen === undefined) {
        throw new UsageError(
          options.slot === undefined
            ? `task ${taskId} has no result yet`
            : `task ${taskId} has no result in slot ${options.slot}`,
          [`Follow it with: gridforge task watch ${taskId}`],
        )
      }
      const store = context.store()
      // A failed run's logs are in the clear; an output may be sealed to the client.
      const sealed = chosen.failure === undefined && (await isSealedOutput(store, { cid: chosen.resultCID }))
      const output = sealed ? await openSealed(context, taskId, chosen) : chosen.resultCID
      const envelope = sealed ? { envelope: chosen.resultCID } : {}
      if (options.out !== undefined) {
        const exported = await exportContent(store, output, options.out, {
          terminal: context.terminal,
        })
        context.terminal.result(
          { taskId, slot: chosen.slot, out: options.out, ...exported, ...envelope },
          () => [
            `wrote ${exported.files.length} file(s), ${exported.bytes} bytes of ${exported.cid} to ${options.out}`,
            ...exported.skippedLinks.map((link) => `skipped symbolic link ${link}`),
          ],
        )
        return
      }
      const directory = await isDirectory(store, output)
      if (context.terminal.json || directory) {
        const listing = directory ? await store.ls(output) : undefined
        context.terminal.result(
          { taskId, slot: chosen.slot, cid: output, ...envelope, entries: listing },
          () => [
            `task ${taskId} output ${output} is a folder; fetch it with --out <dir>:`,
            ...table(
              ['TYPE', 'SIZE', 'NAME'],
              (listing ?? []).map((entry) => [entry.type, entry.size, entry.name]),
            ).map((line) => `  ${line}`),
          ],
        )
        return
      }
      for await (const chunk of store.get(output)) context.terminal.outBytes(chunk)
    })

  task
    .command('logs')
    .description("print a settled task's logs (the logs CID of the provider's receipt)")
    .argument('<taskId>', 'the task', parseId)
    .option('--slot <n>', 'the replica slot (default: the first)', parseInteger)
    .addHelpText('after', examples('gridforge task logs 42', 'gridforge task logs 42 --slot 2 | less'))
    .action(async (taskId: bigint, options: { slot?: number }, command: Command) => {
      const context = contextOf(command)
      const receipts = await readReceipts(context, taskId, options.slot)
      const chosen = receipts[0]
      if (chosen?.receipt === undefined) {
        throw new UsageError(`task ${taskId} has no readable receipt, so no logs CID`, [
          `See what is wrong with: gridforge receipt show ${taskId}`,
        ])
      }
      if (chosen.status === 'mismatch') {
        context.terminal.err(
          `warning: the receipt of task ${taskId} did not verify (gridforge receipt verify ${taskId}); the logs are the provider's word`,
        )
      }
      const logsCid = chosen.receipt.logsCID
      if (context.terminal.json) {
        const bytes = await getBytes(context.store(), logsCid, { maxBytes: 64 * 1024 * 1024 })
        context.terminal.result(
          { taskId, slot: chosen.settlement.slot, logsCID: logsCid, logs: new TextDecoder().decode(bytes) },
          () => '',
        )
        return
      }
      for await (const chunk of context.store().get(logsCid)) context.terminal.outBytes(chunk)
    })

  task
    .command('cancel')
    .description('cancel a task nobody has claimed yet; its escrow returns to your market balance')
    .argument('<taskId>', 'the task', parseId)
    .addHelpText('after', examples('gridforge task cancel 42'))
    .action(async (taskId: bigint, _options: object, command: Command) => {
      const context = contextOf(command)
      const [client, deployment, token] = await Promise.all([
        context.walletClient(),
        context.deployment(),
        context.token(),
      ])
      context.terminal.progress(`cancelling task ${taskId}…`)
      const result = await cancelTask(client, { deployment, taskId })
      context.terminal.result(
        result,
        () =>
          `cancelled task ${taskId}: ${formatAmount(result.refund, token)} refunded; ${formatTransaction(result)}`,
      )
    })

  task
    .command('release')
    .description(
      'draw whether a held result (one replica of a deterministic source) is audited: not drawn, it is paid now; drawn, auditors re-run it first (anyone may release, two blocks after the result came in)',
    )
    .argument('<taskId>', 'the task', parseId)
    .addHelpText('after', examples('gridforge task release 42'))
    .action(async (taskId: bigint, _options: object, command: Command) => {
      const context = contextOf(command)
      const [client, deployment, token] = await Promise.all([
        context.walletClient(),
        context.deployment(),
        context.token(),
      ])
      context.terminal.progress(`releasing task ${taskId}…`)
      const result = await releaseResult(client, { deployment, taskId })
      context.terminal.result(result, () =>
        result.drawn
          ? `task ${taskId} was drawn for an audit: auditors re-run it before it is paid (follow it with: gridforge task watch ${taskId}); ${formatTransaction(result)}`
          : `task ${taskId} was not drawn for an audit: paid ${formatAmount(result.payment, token)} (fee ${formatAmount(result.fee, token)}), ${formatAmount(result.refund, token)} refunded; ${formatTransaction(result)}`,
      )
    })

  task
    .command('list')
    .description('tasks by client, provider, source or status (from --indexer, else the chain)')
    .option('--mine', 'tasks the configured key submitted')
    .option('--client <address>', 'tasks this address submitted')
    .option('--provider <address>', 'tasks this provider claimed')
    .option('--source <id>', 'tasks of this source', parseInteger)
    .option(
      '--status <status...>',
      'Open, Claimed, Revealing, Held, Auditing, Completed, Failed, Cancelled, Expired',
    )
    .option('--limit <n>', 'at most this many tasks (default: all of them)', parseInteger)
    .option('--after <taskId>', 'only tasks with a higher id (the last id of the previous page)', parseId)
    .addHelpText(
      'after',
      examples(
        'gridforge task list --mine --status Open Claimed',
        'gridforge --json task list --source 1',
        'gridforge task list --source 1 --limit 100 --after 4200',
      ),
    )
    .action(
      async (
        options: {
          mine?: boolean
          client?: string
          provider?: string
          source?: number
          status?: string[]
          limit?: number
          after?: bigint
        },
        command: Command,
      ) => {
        const context = contextOf(command)
        const account =
          options.mine === true || options.client !== undefined
            ? await context.addressOr(options.client, '--client')
            : undefined
        const provider =
          options.provider === undefined ? undefined : await context.addressOr(options.provider, '--provider')
        const [client, deployment, token] = await Promise.all([
          context.client(),
          context.deployment(),
          context.token(),
        ])
        const tasks = await listTasks(client, {
          deployment,
          indexer: context.indexer(),
          ...(account === undefined ? {} : { client: account }),
          ...(provider === undefined ? {} : { provider }),
          ...(options.source === undefined ? {} : { sourceId: options.source }),
          ...(options.status === undefined ? {} : { status: options.status as TaskStatus[] }),
          ...(options.limit === undefined ? {} : { limit: options.limit }),
          ...(options.after === undefined ? {} : { afterTaskId: options.after }),
        })
        context.terminal.result(tasks, () =>
          tasks.length === 0
            ? 'no tasks'
            : table(
                ['ID', 'STATUS', 'SOURCE', 'REPLICAS', 'MAX PAYMENT', 'DEADLINE', 'INPUT'],
                tasks.map((item) => [
                  item.taskId,
                  item.status,
                  item.sourceId,
                  item.replicas,
                  formatAmount(item.maxPayment, token),
                  item.deadline,
                  item.inputCID,
                ]),
              ),
        )
        // A full page: say how to get the next one (on stderr, so that --json output stays one document).
        const last = tasks.at(-1)
        if (options.limit !== undefined && tasks.length === options.limit && last !== undefined) {
          context.terminal.err(`more tasks may follow: run the same command with --after ${last.taskId}`)
        }
      },
    )
}
