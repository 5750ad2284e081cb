/**
 * The JSON Schemas (2020-12, as OpenAPI 3.1 takes them) of what the API
 * answers with: one per shape of json.ts. Objects list every property as
 * required and allow no others, so that the document says exactly what comes.
 */
import * as schema from 'ponder:schema'
import { claimRefusalReasons } from '@gridforge/sdk'

/** A JSON Schema, as far as this document uses them. */
export type JsonSchema = { [keyword: string]: unknown }

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` })
const nullable = (inner: JsonSchema): JsonSchema =>
  inner.$ref !== undefined
    ? { anyOf: [inner, { type: 'null' }] }
    : { ...inner, type: [inner.type as string, 'null'] }

/** An object with exactly these properties, all present. */
function object(description: string, properties: Record<string, JsonSchema>): JsonSchema {
  return {
    type: 'object',
    description,
    properties,
    required: Object.keys(properties),
    additionalProperties: false,
  }
}

const integer = (description?: string): JsonSchema => ({
  type: 'integer',
  ...(description && { description }),
})
const text = (description?: string): JsonSchema => ({ type: 'string', ...(description && { description }) })
const bool = (description?: string): JsonSchema => ({ type: 'boolean', ...(description && { description }) })
const amount = ref('Amount')
const time = ref('Time')
const address = ref('Address')
const hex32 = ref('Bytes32')
const list = (items: JsonSchema): JsonSchema => ({ type: 'array', items })

const requirements = object('What a host must offer.', {
  minGpus: integer(),
  minVramMiB: integer(),
  minComputeCapability: integer('CUDA compute capability × 10 (89 for sm_89).'),
  maxRuntimeSec: integer(),
  deterministic: bool(),
})

const failure = object('A failed run, as its failure digest reports it (the SDK `Failure`).', {
  kind: { type: 'string', enum: ['exited', 'timedOut', 'outOfMemory', 'outputTooLarge'] },
  exitCode: integer('The exit code; `exited` only.'),
})
// exitCode belongs to `exited` alone.
failure.required = ['kind']

const taskSummaryProperties = {
  id: text('The task id (uint256, decimal).'),
  client: address,
  sourceId: integer(),
  status: ref('TaskStatus'),
  inputCid: text(),
  replicas: integer(),
  maxPayment: amount,
  pricePerSecond: { ...ref('Amount'), description: '0 for a fixed price.' },
  deadline: time,
  submittedAt: time,
  firstClaimAt: nullable(time),
  finalizedAt: nullable(time),
  resultCid: nullable(text('The result (a single replica’s, or the one the replicas agreed on).')),
  receiptCid: nullable(text()),
  failure: nullable(ref('Failure')),
  paid: { ...ref('Amount'), description: 'Paid out at settlement (0 until then).' },
  refund: { ...ref('Amount'), description: 'Refunded to the client at settlement (0 until then).' },
}

const slot = object(
  'One claim of a slot: a replica’s seat or an auditor’s (reopened and replaced claims stay).',
  {
    slot: integer(),
    role: { type: 'string', enum: [...schema.claimRole.enumValues] },
    auditRound: nullable(integer()),
    provider: address,
    status: { type: 'string', enum: [...schema.claimStatus.enumValues] },
    claimedAt: time,
    dueAt: nullable(time),
    collateral: amount,
    commitment: nullable(hex32),
    committedAt: nullable(time),
    resultDigest: nullable(hex32),
    resultCid: nullable(text()),
    receiptCid: nullable(text()),
    runtimeSec: nullable(integer()),
    submittedAt: nullable(time),
    failure: nullable(ref('Failure')),
    payment: nullable(amount),
    fee: nullable(amount),
    slashed: nullable(amount),
    outvoted: nullable(bool()),
    endedAt: nullable(time),
  },
)

const task = object('A task with its terms, slots, settlement and audit.', {
  ...taskSummaryProperties,
  resultKey: hex32,
  escrow: amount,
  submittedBlock: integer(),
  submittedTx: text(),
  terms: object('Fixed at submission.', {
    feeBps: integer(),
    creatorFeeBps: integer(),
    discountBps: integer(),
    collateral: amount,
    requirements,
    minSuccessBps: integer(),
    minCompleted: integer(),
    auditBps: integer('0: the result is not audited.'),
  }),
  result: nullable(
    object('The result digest and its CIDs.', {
      digest: hex32,
      resultCid: nullable(text()),
      receiptCid: nullable(text()),
      runtimeSec: nullable(integer()),
      failure: nullable(ref('Failure')),
    }),
  ),
  revealDeadline: nullable(time),
  slots: list(ref('Slot')),
  settlement: object('What the task paid, refunded and slashed.', {
    finalized: bool(),
    paid: amount,
    refund: amount,
    fees: amount,
    slashed: amount,
    payments: list(
      object('A payment to a replica or an auditor (fee included).', {
        provider: address,
        slot: integer(),
        payment: amount,
        fee: amount,
        runtimeSec: integer(),
        paidAt: time,
      }),
    ),
    slashes: list(
      object('A slash of a claimant’s collateral.', {
        provider: address,
        slot: integer(),
        amount,
        toClient: amount,
        outvoted: bool(),
        slashedAt: time,
      }),
    ),
  }),
  audit: object('The audit of a single result, or the dispute between replicas.', {
    auditBps: integer(),
    drawn: nullable(bool('Whether the held result was drawn for an audit (null: no draw yet).')),
    verdict: {
      type: 'string',
      enum: ['none', 'not-drawn', 'pending', 'upheld', 'overturned', 'unresolved', 'lapsed'],
    },
    round: integer(),
    resultDigest: nullable(hex32),
    rounds: list(
      object('An audit round.', {
        round: integer(),
        firstSlot: integer(),
        auditors: integer(),
        joinDeadline: time,
        openedAt: time,
      }),
    ),
  }),
})

const provider = object('A provider: capabilities, profile, record, earnings and stake.', {
  address,
  registeredAt: time,
  updatedAt: time,
  paused: bool(),
  capabilities: object('What its host offers.', {
    gpuCount: integer(),
    vramMiB: integer(),
    computeCapability: integer(),
    cpuCores: integer(),
    memoryMiB: integer(),
  }),
  profileCid: text(),
  priceFloor: amount,
  subscriptions: integer('Sources whose pool it is in.'),
  tasksRun: integer('Results it handed in that were settled: completed + failedRuns + outvoted.'),
  record: object('Its success record, from the market’s events.', {
    claims: integer('Replica slots claimed.'),
    audits: integer('Audit slots joined.'),
    completed: integer('Paid slots whose result was an output.'),
    failedRuns: integer('Paid slots whose result was a failure report.'),
    failed: integer('Slashed for a no-show or a missed commitment or reveal.'),
    outvoted: integer('Slashed for a result that lost a vote or an audit.'),
    slashes: integer(),
    slashedAmount: amount,
  }),
  reputation: object(
    'What ProviderRegistry checks the claims of gated tasks against (`minCompleted`, `minSuccessBps`).',
    {
      completed: integer(
        'Outputs of replica seats paid at least minRecordPayment (an audited one once it is released).',
      ),
      failed: integer(),
      outvoted: integer(),
      successBps: integer('completed ÷ (completed + failed + outvoted), in basis points; 0 without any.'),
    },
  ),
  earnings: object('What the market paid it.', {
    paid: { ...ref('Amount'), description: 'Payments, fees included.' },
    fees: amount,
    earned: { ...ref('Amount'), description: 'paid − fees.' },
    runtimeSec: integer(),
  }),
  leases: object('Its leases: what the lease market paid it, and what its collateral paid renters.', {
    accepted: integer(),
    paid: { ...ref('Amount'), description: 'Redeemed acknowledgements, fees included.' },
    fees: amount,
    earned: { ...ref('Amount'), description: 'paid − fees.' },
    penalties: {
      ...ref('Amount'),
      description: 'Paid to renters out of its collateral (offline, or under the uptime threshold).',
    },
  }),
  stake: object('Its position in Staking.', {
    staked: amount,
    locked: amount,
    unbonding: amount,
    unbondingReadyAt: nullable(time),
    withdrawn: amount,
    slashed: amount,
  }),
})

const sourceProperties = {
  id: integer(),
  owner: address,
  predecessor: integer(),
  imageDigest: hex32,
  metadataCid: text(),
  requirements,
  creatorFeeBps: integer(),
  failureFeeBps: integer(),
  validator: integer(),
  active: bool(),
  publishedAt: time,
}

const sourceUsage = {
  tasks: integer(),
  paid: amount,
  subscribers: integer(),
  creatorFees: amount,
  creatorFeesClaimed: amount,
}

const statusCounts = object(
  'Tasks in each status.',
  Object.fromEntries(schema.taskStatus.enumValues.map((status) => [status, integer()])),
)

const lease = object(
  'A lease: its request, its acceptance, what it served and paid, and its end. `Active` includes a lease past `endsAt` that nobody settled yet.',
  {
    id: text('The lease id (uint256, decimal).'),
    renter: address,
    provider: nullable({ ...address, description: 'Null while requested.' }),
    sourceId: integer(),
    ackSigner: { ...address, description: 'Signs usage acknowledgements for the renter.' },
    status: { type: 'string', enum: [...schema.leaseStatus.enumValues] },
    reason: {
      type: 'string',
      enum: [...schema.leaseEndReason.enumValues],
      description: 'Why it ended, or `None` while it runs with no fixed end.',
    },
    maxPricePerSec: { ...amount, description: 'The request’s most per second.' },
    durationSec: integer('The requested duration.'),
    penaltySec: integer('Seconds of price the provider’s collateral pays the renter if it fails the lease.'),
    minUptimeBps: integer(),
    acceptBy: time,
    requestedAt: time,
    requestedBlock: integer(),
    requestedTx: hex32,
    pricePerSec: nullable({
      ...amount,
      description: 'The accepted price per second (null while requested).',
    }),
    collateral: nullable(amount),
    startedAt: nullable(time),
    endsAt: nullable({ ...time, description: 'The latest it runs, then when it ended.' }),
    deposit: { ...amount, description: 'Escrow left: deposit and top-ups less what was paid and refunded.' },
    toppedUp: amount,
    servedSec: integer('Seconds of service acknowledged and redeemed.'),
    lastProofAt: nullable({
      ...time,
      description: 'The latest redeemed acknowledgement: the last proof of service.',
    }),
    redemptions: integer(),
    paid: { ...amount, description: 'Paid to the provider, fees included.' },
    fees: amount,
    offlineReport: nullable(
      object('A pending report that the provider is offline.', { reportedAt: time, answerBy: time }),
    ),
    offlineReports: integer(),
    endedAt: nullable(time),
    settledAt: nullable(time),
    settledBlock: nullable(integer()),
    uptimeBps: nullable(integer('Measured at settlement: served seconds over the lease’s time.')),
    refunded: { ...amount, description: 'Returned to the renter (at a close and at settlement).' },
    penalty: { ...amount, description: 'Paid to the renter out of the provider’s collateral.' },
  },
)

const page = (items: JsonSchema) =>
  object('A page of a list, newest first.', {
    items: list(items),
    nextCursor: nullable(text('Pass as `cursor` for the next page; null on the last page.')),
  })

const refusal = (reason: string, description: string, details: Record<string, JsonSchema> = {}) =>
  object(description, { reason: { type: 'string', const: reason }, ...details })

/** Why a provider could not take the task: the SDK's `ClaimRefusal`, amounts as decimal strings. */
const claimRefusal: JsonSchema = {
  description: 'One dimension on which a provider could not take the task now.',
  oneOf: [
    refusal('paused', 'It paused (takes no new claims).'),
    refusal('notSubscribed', 'It is not in the source’s pool.'),
    refusal('gpuCount', 'Fewer GPUs than required.', { required: integer(), offered: integer() }),
    refusal('vram', 'Less VRAM per GPU (MiB) than required.', { required: integer(), offered: integer() }),
    refusal('computeCapability', 'A lower compute capability (× 10) than required.', {
      required: integer(),
      offered: integer(),
    }),
    refusal('reputation', 'Its record is below the task’s gates.', {
      minCompleted: integer(),
      completed: integer(),
      minSuccessBps: integer(),
      successBps: integer(),
    }),
    refusal('collateral', 'Its available stake (staked − locked) is below what a claim locks.', {
      required: amount,
      available: amount,
    }),
    refusal('priceFloor', 'The task pays less per GPU-second than the floor it published.', {
      floor: amount,
      price: amount,
    }),
    refusal('alreadyClaimed', 'It holds one of the open task’s slots (nobody claims twice).'),
  ],
}

const quote = object(
  'Who could take the task now, who could not and why, and what the source’s recent claimed tasks offered and waited: the SDK’s `TaskQuote`.',
  {
    blockNumber: integer('The last block indexed: the quote is as of it.'),
    asOf: { ...time, description: 'That block’s time.' },
    taskId: nullable(text('The quoted open task (decimal); null for new terms.')),
    terms: object('The terms as the market holds (or would hold) them.', {
      sourceId: integer(),
      maxPayment: amount,
      pricePerSecond: { ...ref('Amount'), description: '0 for a fixed price.' },
      replicas: integer(),
      requirements: { ...requirements, description: 'The task’s merged with the source’s.' },
      gates: object('Reputation gates.', { minSuccessBps: integer(), minCompleted: integer() }),
      auditBps: integer('Audit probability (0: not auditable).'),
      collateral: { ...ref('Amount'), description: 'What each claimant locks from its available stake.' },
      pricePerGpuSecond: {
        ...ref('Amount'),
        description: 'What it pays per GPU-second at worst: the price a provider’s floor is compared with.',
      },
    }),
    closed: nullable(
      object(
        'Of an open task: why no provider can claim it now whatever it offers (its deadline passed, or is too close for a claim to be due before it). Null when the deadline is no obstacle, and for new terms.',
        {
          reason: { type: 'string', enum: ['deadlinePassed', 'claimWindowTooShort'] },
          deadline: time,
          dueAt: nullable({ ...time, description: 'When a claim now would be due (claimWindowTooShort).' }),
        },
      ),
    ),
    providers: integer('Registered providers looked at.'),
    eligible: object('Providers that could claim it now (a task with replicas needs `replicas` of them).', {
      count: integer(),
      providers: list(address),
    }),
    ineligible: object('Providers that could not, and why.', {
      count: integer(),
      byReason: object(
        'For each reason, the providers it holds back (a provider may appear under several).',
        Object.fromEntries(claimRefusalReasons.map((reason) => [reason, list(address)])),
      ),
      providers: list(
        object('A provider that could not take it, and every reason.', {
          provider: address,
          refusals: list(claimRefusal),
        }),
      ),
    }),
    history: object('What the source’s recent claimed tasks offered per GPU-second and waited for a claim.', {
      tasks: integer('Claimed tasks measured.'),
      pricePerGpuSecond: nullable(
        object('Least, median and most offered per GPU-second.', {
          min: amount,
          median: amount,
          max: amount,
        }),
      ),
      timeToClaimSec: nullable(integer('Median seconds from submission to first claim.')),
      reason: nullable(text('Why there is no range and no time to claim.')),
    }),
  },
)

/** Every schema the document's components hold, by name. */
export const componentSchemas: Record<string, JsonSchema> = {
  Amount: { type: 'string', pattern: '^(0|[1-9][0-9]*)$', description: 'Base units (wei), decimal.' },
  Address: { type: 'string', pattern: '^0x[0-9a-fA-F]{40}$', description: 'Checksummed.' },
  Bytes32: { type: 'string', pattern: '^0x[0-9a-f]{64}$' },
  Time: object('A moment of chain time.', {
    unix: integer('Unix seconds.'),
    iso: { type: 'string', format: 'date-time' },
  }),
  TaskStatus: { type: 'string', enum: [...schema.taskStatus.enumValues] },
  Failure: failure,
  TaskSummary: object('A task as lists show it.', taskSummaryProperties),
  Task: task,
  Slot: slot,
  TaskPage: page(ref('TaskSummary')),
  Provider: provider,
  ProviderDetail: object('A provider and the sources whose pool it is in.', {
    ...(provider.properties as Record<string, JsonSchema>),
    sources: list(integer()),
  }),
  ProviderPage: page(ref('Provider')),
  Lease: lease,
  LeasePage: page(ref('Lease')),
  Source: object('A source and its usage.', {
    ...sourceProperties,
    usage: object('How much it is used.', sourceUsage),
  }),
  SourceDetail: object('A source and its usage, with its tasks by status.', {
    ...sourceProperties,
    usage: object('How much it is used.', { ...sourceUsage, tasksByStatus: statusCounts }),
  }),
  SourcePage: page(ref('Source')),
  Stats: object('Market statistics.', {
    asOf: {
      ...time,
      description: 'Now: the later of the server’s clock and the last task, claim or payment indexed.',
    },
    window: object('The window the time and price statistics cover: [from, now].', {
      name: { type: 'string', enum: ['1h', '24h', '7d'] },
      seconds: integer(),
      from: time,
    }),
    tasks: object('Every task indexed.', {
      total: integer(),
      byStatus: statusCounts,
      queueDepth: integer('Open tasks: waiting for a claim.'),
    }),
    timeToFirstClaim: object('From submission to first claim, of tasks first claimed in the window.', {
      tasks: integer(),
      medianSec: nullable(integer('The lower median; null when no task was claimed in the window.')),
    }),
    pricePerGpuSecond: list(
      object(
        'Payments of one source in the window, per GPU-second: payment / max(runtimeSec × max(minGpus, 1), 1), floored.',
        {
          sourceId: integer(),
          payments: integer(),
          gpuSeconds: integer(),
          paid: amount,
          mean: { ...ref('Amount'), description: 'Σ payment / Σ GPU-seconds.' },
          median: { ...ref('Amount'), description: 'The lower median of the payments’ prices.' },
          min: amount,
          max: amount,
        },
      ),
    ),
    providers: object('Registered providers.', { registered: integer(), active: integer('Not paused.') }),
    totals: object('Since the deployment.', {
      paid: amount,
      refunded: amount,
      fees: amount,
      feeRebates: amount,
      creatorFees: amount,
      stakerFees: amount,
      treasuryFees: amount,
      slashed: amount,
    }),
  }),
  Quote: quote,
  ClaimRefusal: claimRefusal,
  Error: object('What a failed request gets.', {
    error: {
      type: 'object',
      properties: {
        parameter: text('The request parameter at fault.'),
        message: text('What is wrong, naming the parameter, and what is allowed.'),
        taskStatus: { ...ref('TaskStatus'), description: 'Of a 409 about a task: its status.' },
      },
      required: ['message'],
      additionalProperties: false,
    },
  }),
}
