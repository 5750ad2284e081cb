/**
 * Gas benchmark of the task lifecycle, on Hardhat's in-process EDR network with
 * the contracts deployed by the `LocalGridforge` Ignition module.
 *
 * Usage (from the repository root): `pnpm bench:gas`
 * (in packages/contracts: `pnpm hardhat run scripts/bench-gas.ts`).
 *
 * Every figure is `gasUsed` from a transaction receipt (intrinsic gas and
 * calldata included). Clients deposit before the lifecycles, so a lifecycle is
 * submit → settlement with no token pull. Each lifecycle runs twice; the second
 * run (accounts already hold balances, stakes and reputation counters, so no
 * storage slot goes from zero to non-zero for the first time) is the figure
 * reported and checked against the targets. The first run is printed too.
 *
 * Writes bench/results/gas.json and exits non-zero when a target is missed.
 * See bench/README.md.
 */
import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import hre, { network } from 'hardhat'
import {
  type Address,
  encodeAbiParameters,
  encodeFunctionData,
  type Hash,
  type Hex,
  keccak256,
  parseUnits,
  toHex,
} from 'viem'
import LocalGridforgeModule from '../ignition/modules/LocalGridforge.js'

const RESULTS_FILE = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../bench/results/gas.json',
)

/** Gas targets per lifecycle (DESIGN.md, issue 2). */
const TARGETS = { k1_fixed: 300_000n, k1_audit_not_drawn: 300_000n, k2_consensus: 700_000n } as const

/**
 * k1_fixed and k1_metered run a source that is not deterministic (nothing to audit: the result settles at
 * once); the k1_audit ones a deterministic one (the result is held until `releaseResult` draws; the audited
 * one buys auditBps 10000 so that the draw always audits). k1_audit_not_drawn is the path the provider agent
 * takes: the release of a held result rides on the provider's next claim (`multicall`), so it costs no
 * transaction of its own; k1_audit_not_drawn_alone releases in a transaction of its own (a provider with no
 * next task, or the client).
 */
const LIFECYCLES = [
  'k1_fixed',
  'k1_metered',
  'k1_audit_not_drawn',
  'k1_audit_not_drawn_alone',
  'k1_audited',
  'k2_consensus',
  'k3_consensus',
] as const
type Lifecycle = (typeof LIFECYCLES)[number]

const OPERATIONS = [
  'submitTask',
  'submitTasks_per_task',
  'claimTask',
  'submitResult',
  'submitResult_metered',
  'submitResult_held',
  'releaseResult',
  'claimTask_releasing',
  'joinAudit',
  'commitResult',
  'revealResult',
  'revealResult_settles_k2',
  'revealResult_settles_k3',
  'deposit',
  'withdraw',
  'stake',
  'cancelTask',
  'reopenSlot',
  'expireTask',
] as const
type Operation = (typeof OPERATIONS)[number]

const grid = (amount: number | string) => parseUnits(String(amount), 18)

const INPUT_CID = 'bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi'
const RESULT_CID = 'bafybeihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku'
const RECEIPT_CID = 'bafkreiebc4vu2vbf6qjwjx3s4e3eooypl3mj6vxpfldxd3xlzj4sdcvhwa'
/** The client's result key every benchmarked task names (TaskParams.resultKey). */
const RESULT_KEY = keccak256(toHex('bench result key'))

/** Stands for the sha2-256 digest of RESULT_CID (the contracts compare digests; they do not parse CIDs). */
const RESULT_DIGEST = keccak256(toHex('bench output'))
const METADATA_CID = 'bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy'
const PROFILE_CID = 'bafkreibm6jg3ux5qumhcn2b3flc3tyu6dmlb4xa7u5bf44yegnrjhc4yeq'
const MAX_PAYMENT = grid(10)
/** Metered price: RUNTIME_SEC of it (1.2 GRID) stays under MAX_PAYMENT, so the client gets a refund. */
const PRICE_PER_SECOND = grid('0.01')
const RUNTIME_SEC = 120
const PROVIDER_STAKE = grid(10_000)

const connection = await network.create()
const { viem, ignition, networkHelpers } = connection
const { token, sources, staking, providers, market } = await ignition.deploy(LocalGridforgeModule)
const publicClient = await viem.getPublicClient()
const wallets = await viem.getWalletClients()
function wallet(index: number) {
  const found = wallets[index]
  if (found === undefined) throw new Error(`bench-gas needs account #${index}`)
  return found
}
type Wallet = ReturnType<typeof wallet>
const owner = wallet(0)
const client = wallet(1)
const creator = wallet(2)
/** Three providers: k3 needs one per replica. */
const provs = [wallet(3), wallet(4), wallet(5)]

/** gasUsed of a sent transaction; throws if it reverted. */
async function gas(hash: Promise<Hash>): Promise<bigint> {
  const receipt = await publicClient.waitForTransactionReceipt({ hash: await hash })
  if (receipt.status !== 'success') throw new Error(`transaction ${receipt.transactionHash} reverted`)
  return receipt.gasUsed
}

async function publish(deterministic: boolean) {
  await gas(
    sources.write.publish(
      [
        keccak256(toHex(`ghcr.io/gridforge/bench@sha256 ${deterministic}`)),
        METADATA_CID,
        {
          minGpus: 1,
          minVramMiB: 16_384,
          minComputeCapability: 80,
          maxRuntimeSec: 3_600,
          deterministic,
        },
        1_000,
        0, // no predecessor
        0, // failure fee
        0, // no validator
      ],
      { account: creator.account },
    ),
  )
  return sources.read.sourceCount()
}

async function setup() {
  const as = (wallet: Wallet) => ({ account: wallet.account })
  await gas(token.write.transfer([client.account.address, grid(1_000_000)], as(owner)))
  await gas(token.write.approve([market.address, 2n ** 256n - 1n], as(client)))
  // The first deposit writes the client's balance slot from zero; the measured one is a top-up.
  await gas(market.write.deposit([grid(100_000)], as(client)))

  const deterministic = await publish(true)
  const opaque = await publish(false)

  for (const p of provs) {
    await gas(token.write.transfer([p.account.address, grid(100_000)], as(owner)))
    await gas(token.write.approve([staking.address, 2n ** 256n - 1n], as(p)))
    await gas(staking.write.stake([PROVIDER_STAKE], as(p)))
    await gas(
      providers.write.register(
        [
          { gpuCount: 2, vramMiB: 24_576, computeCapability: 89, cpuCores: 32, memoryMiB: 131_072 },
          PROFILE_CID,
        ],
        as(p),
      ),
    )
    await gas(providers.write.subscribe([[deterministic, opaque]], as(p)))
  }
  return { deterministic, opaque }
}

const source = await setup()

async function taskParams(
  replicas: number,
  pricePerSecond: bigint,
  { sourceId = replicas > 1 ? source.deterministic : source.opaque, auditBps = 0 } = {},
) {
  const now = await networkHelpers.time.latest()
  return {
    sourceId,
    inputCID: INPUT_CID,
    maxPayment: MAX_PAYMENT,
    pricePerSecond,
    replicas,
    deadline: now + 86_400,
    requirements: {
      minGpus: 0,
      minVramMiB: 0,
      minComputeCapability: 0,
      maxRuntimeSec: 0,
      deterministic: false,
    },
    minSuccessBps: 0,
    minCompleted: 0,
    auditBps,
    // A client's X25519 key: 32 bytes of calldata and log data, as every sealed task carries.
    resultKey: RESULT_KEY,
  }
}

async function submit(
  replicas: number,
  pricePerSecond = 0n,
  options: Parameters<typeof taskParams>[2] = {},
): Promise<{ taskId: bigint; gas: bigint }> {
  const used = await gas(
    market.write.submitTask([await taskParams(replicas, pricePerSecond, options)], {
      account: client.account,
    }),
  )
  return { taskId: await market.read.taskCount(), gas: used }
}

/** A result's seal (Results.sol's sealOf) for an output's digest: what providers hand in. */
function sealOf(taskId: bigint, digest: Hex): Hex {
  return keccak256(encodeAbiParameters([{ type: 'uint256' }, { type: 'bytes32' }], [taskId, digest]))
}

function commitment(taskId: bigint, provider: Address, digest: Hex, salt: Hex): Hex {
  return keccak256(
    encodeAbiParameters(
      [{ type: 'uint256' }, { type: 'address' }, { type: 'bytes32' }, { type: 'bytes32' }],
      [taskId, provider, digest, salt],
    ),
  )
}

/** Provider #3 hands in the output of `taskId` (its seal), which ran RUNTIME_SEC. */
function handIn(taskId: bigint): Promise<Hash> {
  return market.write.submitResult(
    [taskId, sealOf(taskId, RESULT_DIGEST), RESULT_CID, RECEIPT_CID, RUNTIME_SEC],
    {
      account: wallet(3).account,
    },
  )
}

/** One lifecycle: gas of each transaction, in order, with a label. */
type Steps = [label: string, gas: bigint][]

async function runK1(metered: boolean): Promise<Steps> {
  const p = wallet(3)
  const steps: Steps = []
  const { taskId, gas: submitGas } = await submit(1, metered ? PRICE_PER_SECOND : 0n)
  steps.push(['submitTask', submitGas])
  steps.push(['claimTask', await gas(market.write.claimTask([taskId], { account: p.account }))])
  await networkHelpers.time.increase(RUNTIME_SEC)
  steps.push([metered ? 'submitResult_metered' : 'submitResult', await gas(handIn(taskId))])
  return steps
}

/**
 * k = 1 on the deterministic source: the result is held, then released. `audited` buys auditBps 10000 (the
 * draw always audits) and runs the first round: one auditor joins, commits and reveals the same digest, which
 * upholds the result. Not audited: a run whose draw audits is set aside and another one measured.
 */
async function runHeld(audited: boolean): Promise<Steps> {
  const p = wallet(3)
  const auditor = provs[1] as Wallet
  for (;;) {
    const steps: Steps = []
    const { taskId, gas: submitGas } = await submit(1, 0n, {
      sourceId: source.deterministic,
      auditBps: audited ? 10_000 : 0,
    })
    steps.push(['submitTask', submitGas])
    steps.push(['claimTask', await gas(market.write.claimTask([taskId], { account: p.account }))])
    await networkHelpers.time.increase(RUNTIME_SEC)
    steps.push(['submitResult_held', await gas(handIn(taskId))])
    await networkHelpers.mine(1)
    // Calls run on the latest block: two blocks on, the draw (the hash of the first) is readable.
    await networkHelpers.mine(1)
    const [, drawn] = await market.read.auditDraw([taskId])
    if (drawn !== audited) continue
    steps.push(['releaseResult', await gas(market.write.releaseResult([taskId], { account: p.account }))])
    if (!audited) return steps
    await networkHelpers.mine(1) // the round's tickets read the hash of the block after it opened
    steps.push(['joinAudit', await gas(market.write.joinAudit([taskId], { account: auditor.account }))])
    const audit = await market.read.getAudit([taskId])
    await networkHelpers.time.increaseTo(audit.joinDeadline + 1)
    const salt = keccak256(toHex(`salt ${taskId}`))
    const c = commitment(taskId, auditor.account.address, RESULT_DIGEST, salt)
    steps.push([
      'commitResult (audit)',
      await gas(market.write.commitResult([taskId, c], { account: auditor.account })),
    ])
    steps.push([
      'revealResult (audit, settles)',
      await gas(
        market.write.revealResult([taskId, RESULT_DIGEST, salt, RESULT_CID, RECEIPT_CID, RUNTIME_SEC], {
          account: auditor.account,
        }),
      ),
    ])
    return steps
  }
}

/** TaskStatus.Completed (ITaskMarket.sol). */
const TASK_COMPLETED = 4

const CLAIM_RELEASING = 'claimTask + earlier release (multicall)'

/** A held result of provider #3 whose draw is ready and did not audit it: what the next claim releases. */
async function heldNotDrawn(): Promise<bigint> {
  const p = wallet(3)
  for (;;) {
    const { taskId } = await submit(1, 0n, { sourceId: source.deterministic })
    await gas(market.write.claimTask([taskId], { account: p.account }))
    await networkHelpers.time.increase(RUNTIME_SEC)
    await gas(handIn(taskId))
    await networkHelpers.mine(2)
    const [, drawn] = await market.read.auditDraw([taskId])
    if (!drawn) return taskId
    // Drawn: released on its own (an audit round opens) and set aside.
    await gas(market.write.releaseResult([taskId], { account: p.account }))
  }
}

/**
 * k = 1 on the deterministic source, as the agent runs it: the claim carries the release of the provider's
 * previous held result (ready, not drawn) in one `multicall`, and this task's result is held in turn (its own
 * release rides on the next claim). The lifecycle counts one release: this task's submission, claim and held
 * result, and the release the claim carries.
 */
async function runHeldReleasedByNextClaim(): Promise<Steps> {
  const p = wallet(3)
  const previous = await heldNotDrawn()
  const steps: Steps = []
  const { taskId, gas: submitGas } = await submit(1, 0n, { sourceId: source.deterministic })
  steps.push(['submitTask', submitGas])
  const calls = [
    encodeFunctionData({ abi: market.abi, functionName: 'releaseResult', args: [previous] }),
    encodeFunctionData({ abi: market.abi, functionName: 'claimTask', args: [taskId] }),
  ]
  steps.push([CLAIM_RELEASING, await gas(market.write.multicall([calls], { account: p.account }))])
  if ((await market.read.getTask([previous])).status !== TASK_COMPLETED) {
    throw new Error(`task ${previous} was not settled by the claim's release`)
  }
  await networkHelpers.time.increase(RUNTIME_SEC)
  steps.push(['submitResult_held', await gas(handIn(taskId))])
  return steps
}

async function runConsensus(k: number): Promise<Steps> {
  const claimants = provs.slice(0, k)
  const steps: Steps = []
  const { taskId, gas: submitGas } = await submit(k)
  steps.push(['submitTask', submitGas])
  // The seats are raced for: a claim draws its ticket from the hash of the block after the submission, so the
  // claims wait for that block. With k providers for k seats, each claim takes a free seat.
  await networkHelpers.mine(1)
  for (const [i, p] of claimants.entries()) {
    steps.push([`claimTask #${i + 1}`, await gas(market.write.claimTask([taskId], { account: p.account }))])
  }
  // A seat won in the race starts when the race ends: the replicas commit RUNTIME_SEC after that.
  const race = await market.read.getAudit([taskId])
  await networkHelpers.time.increaseTo(race.joinDeadline + RUNTIME_SEC)
  // Replicas commit to and reveal their output's seal.
  const digest = sealOf(taskId, keccak256(toHex(`bench output ${taskId}`)))
  const saltOf = (p: Wallet) => keccak256(toHex(`salt ${taskId} ${p.account.address}`))
  for (const [i, p] of claimants.entries()) {
    const c = commitment(taskId, p.account.address, digest, saltOf(p))
    const label = i === k - 1 ? `commitResult #${i + 1} (opens reveal)` : `commitResult #${i + 1}`
    steps.push([label, await gas(market.write.commitResult([taskId, c], { account: p.account }))])
  }
  for (const [i, p] of claimants.entries()) {
    const label = i === k - 1 ? `revealResult #${i + 1} (settles)` : `revealResult #${i + 1}`
    const hash = market.write.revealResult(
      [taskId, digest, saltOf(p), RESULT_CID, RECEIPT_CID, RUNTIME_SEC],
      {
        account: p.account,
      },
    )
    steps.push([label, await gas(hash)])
  }
  return steps
}

const run: Record<Lifecycle, () => Promise<Steps>> = {
  k1_fixed: () => runK1(false),
  k1_metered: () => runK1(true),
  k1_audit_not_drawn: runHeldReleasedByNextClaim,
  k1_audit_not_drawn_alone: () => runHeld(false),
  k1_audited: () => runHeld(true),
  k2_consensus: () => runConsensus(2),
  k3_consensus: () => runConsensus(3),
}

const firstRun = {} as Record<Lifecycle, Steps>
const steadyRun = {} as Record<Lifecycle, Steps>
for (const name of LIFECYCLES) firstRun[name] = await run[name]()
for (const name of LIFECYCLES) steadyRun[name] = await run[name]()

const total = (steps: Steps) => steps.reduce((sum, [, g]) => sum + g, 0n)
const step = (steps: Steps, label: string) => {
  const found = steps.find(([l]) => l === label)
  if (found === undefined) throw new Error(`no step ${label}`)
  return found[1]
}

/** Operations outside the lifecycles, each measured in steady state (second time for the same account). */
async function standalone() {
  const p = wallet(3)
  const as = (wallet: Wallet) => ({ account: wallet.account })

  const batch = await Promise.all(Array.from({ length: 20 }, () => taskParams(1, 0n)))
  const batchGas = await gas(market.write.submitTasks([batch], as(client)))

  const depositGas = await gas(market.write.deposit([grid(1_000)], as(client)))
  const withdrawGas = await gas(market.write.withdraw([grid(1_000)], as(client)))
  const stakeGas = await gas(staking.write.stake([grid(100)], as(p)))

  const cancelled = await submit(1)
  const cancelGas = await gas(market.write.cancelTask([cancelled.taskId], as(client)))

  // A no-show: claimed, then past maxRuntimeSec + claimGrace; anyone reopens the slot.
  const noShow = await submit(1)
  await gas(market.write.claimTask([noShow.taskId], as(p)))
  await networkHelpers.time.increase(3_600 + 300 + 1)
  const reopenGas = await gas(market.write.reopenSlot([noShow.taskId, 0], as(owner)))

  // An unclaimed task past its deadline (the reopened one above, which is Open again).
  await networkHelpers.time.increase(86_400)
  const expireGas = await gas(market.write.expireTask([noShow.taskId], as(owner)))

  return { batchGas, depositGas, withdrawGas, stakeGas, cancelGas, reopenGas, expireGas }
}

const other = await standalone()

const operations: Record<Operation, number> = {
  submitTask: Number(step(steadyRun.k1_fixed, 'submitTask')),
  submitTasks_per_task: Number(other.batchGas / 20n),
  claimTask: Number(step(steadyRun.k1_fixed, 'claimTask')),
  submitResult: Number(step(steadyRun.k1_fixed, 'submitResult')),
  submitResult_metered: Number(step(steadyRun.k1_metered, 'submitResult_metered')),
  submitResult_held: Number(step(steadyRun.k1_audit_not_drawn, 'submitResult_held')),
  releaseResult: Number(step(steadyRun.k1_audit_not_drawn_alone, 'releaseResult')),
  claimTask_releasing: Number(step(steadyRun.k1_audit_not_drawn, CLAIM_RELEASING)),
  joinAudit: Number(step(steadyRun.k1_audited, 'joinAudit')),
  commitResult: Number(step(steadyRun.k2_consensus, 'commitResult #1')),
  revealResult: Number(step(steadyRun.k2_consensus, 'revealResult #1')),
  revealResult_settles_k2: Number(step(steadyRun.k2_consensus, 'revealResult #2 (settles)')),
  revealResult_settles_k3: Number(step(steadyRun.k3_consensus, 'revealResult #3 (settles)')),
  deposit: Number(other.depositGas),
  withdraw: Number(other.withdrawGas),
  stake: Number(other.stakeGas),
  cancelTask: Number(other.cancelGas),
  reopenSlot: Number(other.reopenGas),
  expireTask: Number(other.expireGas),
}
const lifecycles = Object.fromEntries(
  LIFECYCLES.map((name) => [name, Number(total(steadyRun[name]))]),
) as Record<Lifecycle, number>

// ─── Report ───

const fmt = (n: bigint | number) => Number(n).toLocaleString('en-US')
const row = (cells: string[], widths: number[]) =>
  cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ')

/** The compiler settings the figures depend on, as configured for the build profile in use. */
function compilerSettings(): string {
  const profile = hre.globalOptions.buildProfile ?? 'default'
  const compiler = hre.config.solidity.profiles[profile]?.compilers[0]
  if (compiler === undefined) return `build profile ${profile}`
  const settings = (compiler.settings ?? {}) as {
    optimizer?: { enabled?: boolean; runs?: number }
    viaIR?: boolean
  }
  const optimizer =
    settings.optimizer?.enabled === true ? `optimizer ${settings.optimizer.runs ?? 200} runs` : 'no optimizer'
  return `solc ${compiler.version}, ${optimizer}${settings.viaIR === true ? ', via-IR' : ''}, build profile ${profile}`
}

console.log(`\nGridforge gas benchmark: gasUsed per transaction receipt, EDR; ${compilerSettings()}\n`)
for (const name of LIFECYCLES) {
  const widths = [36, 12, 12]
  console.log(row([name, 'steady', 'first run'], widths))
  for (const [i, [label, g]] of steadyRun[name].entries()) {
    console.log(row([`  ${label}`, fmt(g), fmt(firstRun[name][i]?.[1] ?? 0n)], widths))
  }
  console.log(row(['  total', fmt(total(steadyRun[name])), fmt(total(firstRun[name]))], widths))
  console.log()
}

console.log(row(['operation', 'gas'], [36, 12]))
for (const name of OPERATIONS) console.log(row([`  ${name}`, fmt(operations[name])], [36, 12]))
console.log()

let failed = false
console.log(row(['lifecycle', 'gas', 'target', 'result'], [36, 12, 12, 8]))
for (const name of LIFECYCLES) {
  const target = (TARGETS as Partial<Record<Lifecycle, bigint>>)[name]
  const value = BigInt(lifecycles[name])
  const ok = target === undefined || value <= target
  if (!ok) failed = true
  const result = target === undefined ? '-' : ok ? 'PASS' : 'FAIL'
  console.log(
    row([`  ${name}`, fmt(value), target === undefined ? '-' : `≤ ${fmt(target)}`, result], [36, 12, 12, 8]),
  )
}

await mkdir(path.dirname(RESULTS_FILE), { recursive: true })
await writeFile(RESULTS_FILE, `${JSON.stringify({ operations, lifecycles }, null, 2)}\n`)
console.log(`\nWrote ${path.relative(process.cwd(), RESULTS_FILE)}`)

if (failed) {
  console.error('\nA gas target was missed.')
  process.exitCode = 1
}
