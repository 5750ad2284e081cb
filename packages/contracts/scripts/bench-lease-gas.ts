/**
 * Gas per lease-hour of a 24-hour lease, on Hardhat's in-process EDR network with the contracts deployed by the
 * `LocalGridforge` Ignition module (issue 15: target ≤ 30,000).
 *
 * Usage (from the repository root): `pnpm bench:lease` runs it with the gateway figures;
 * alone: `pnpm --filter @gridforge/contracts bench:lease-gas`.
 *
 * Every transaction from the request to the final settlement counts (`gasUsed`: intrinsic gas and calldata
 * included): the renter's request, the provider's acceptance, a proof of service (a redeemed usage
 * acknowledgement) every six hours, a top-up at the half, the renter's close at 24 h and the provider's last
 * acknowledgement, which settles the lease. The renter pays with EIP-2612 permits (signatures, not transactions);
 * with an `approve` transaction before each payment instead, add the `approve` figure printed. Chain time is advanced, not waited for. The lease runs twice and the
 * second run is reported (accounts already hold balances and records: no slot goes from zero to non-zero for
 * the first time); the first is printed too.
 *
 * Merges `gas_per_lease_hour` (and the breakdown, under `gas_breakdown`) into bench/results/lease.json and exits
 * non-zero when the target is missed.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { network } from 'hardhat'
import { type Hash, keccak256, parseSignature, parseUnits, toHex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import LocalGridforgeModule from '../ignition/modules/LocalGridforge.js'

const RESULTS_FILE = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../bench/results/lease.json',
)
const TARGET = 30_000n
const HOURS = 24
const PROOF_EVERY_HOURS = 6
const grid = (amount: number | string) => parseUnits(String(amount), 18)
/** 0.001 GRID per second: 86.4 GRID a day. */
const PRICE = grid('0.001')
const SESSION_KEY = privateKeyToAccount(keccak256(toHex('bench lease session key')))

const connection = await network.create()
const { viem, ignition, networkHelpers } = connection
const { token, sources, staking, providers, leases } = await ignition.deploy(LocalGridforgeModule)
const publicClient = await viem.getPublicClient()
const chainId = await publicClient.getChainId()
const wallets = await viem.getWalletClients()
function wallet(index: number) {
  const found = wallets[index]
  if (found === undefined) throw new Error(`bench-lease-gas needs account #${index}`)
  return found
}
const renter = wallet(1)
const provider = wallet(2)

async function gas(hash: Promise<Hash>): Promise<bigint> {
  const receipt = await publicClient.waitForTransactionReceipt({ hash: await hash })
  if (receipt.status !== 'success') throw new Error(`transaction ${receipt.transactionHash} reverted`)
  return receipt.gasUsed
}

// Set-up, not counted: a source, a staked and subscribed provider, a funded renter.
await gas(
  sources.write.publish([
    keccak256(toHex('ghcr.io/gridforge/jupyter@sha256')),
    'bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy',
    { minGpus: 1, minVramMiB: 16_384, minComputeCapability: 80, maxRuntimeSec: 3_600, deterministic: false },
    0,
    0,
    0,
    0,
  ]),
)
await gas(token.write.transfer([renter.account.address, grid(10_000)]))
await gas(token.write.transfer([provider.account.address, grid(10_000)]))
await gas(token.write.approve([staking.address, grid(5_000)], { account: provider.account }))
await gas(staking.write.stake([grid(5_000)], { account: provider.account }))
await gas(
  providers.write.register(
    [
      { gpuCount: 1, vramMiB: 24_576, computeCapability: 89, cpuCores: 16, memoryMiB: 65_536 },
      'bafkreibm6jg3ux5qumhcn2b3flc3tyu6dmlb4xa7u5bf44yegnrjhc4yeq',
    ],
    { account: provider.account },
  ),
)
await gas(providers.write.subscribe([[1]], { account: provider.account }))

async function ack(leaseId: bigint, servedSec: number, at: number) {
  return SESSION_KEY.signTypedData({
    domain: { name: 'Gridforge LeaseMarket', version: '1', chainId, verifyingContract: leases.address },
    types: {
      Usage: [
        { name: 'leaseId', type: 'uint256' },
        { name: 'servedSec', type: 'uint40' },
        { name: 'at', type: 'uint40' },
      ],
    },
    primaryType: 'Usage',
    message: { leaseId, servedSec, at },
  })
}

/** An EIP-2612 permit of `value` from the renter to the lease market. */
async function permit(value: bigint, usedAt: number) {
  const [nonce, name] = await Promise.all([token.read.nonces([renter.account.address]), token.read.name()])
  const deadline = BigInt(usedAt + 3_600)
  const signature = await renter.signTypedData({
    account: renter.account,
    domain: { name, version: '1', chainId, verifyingContract: token.address },
    types: {
      Permit: [
        { name: 'owner', type: 'address' },
        { name: 'spender', type: 'address' },
        { name: 'value', type: 'uint256' },
        { name: 'nonce', type: 'uint256' },
        { name: 'deadline', type: 'uint256' },
      ],
    },
    primaryType: 'Permit',
    message: { owner: renter.account.address, spender: leases.address, value, nonce, deadline },
  })
  const { r, s, v, yParity } = parseSignature(signature)
  return { value, deadline, v: v === undefined ? yParity + 27 : Number(v), r, s }
}

/** One 24-hour lease, every transaction's gas by step. */
async function runLease() {
  const steps: Record<string, bigint> = {}
  const add = (step: string, used: bigint) => {
    steps[step] = (steps[step] ?? 0n) + used
  }
  // Half the day up front; the other half as a top-up at 12 h.
  const half = PRICE * BigInt((HOURS / 2) * 3_600)
  const now = await networkHelpers.time.latest()
  const requested = await publicClient.waitForTransactionReceipt({
    hash: await leases.write.requestLeaseWithPermit(
      [
        {
          sourceId: 1,
          maxPricePerSec: PRICE,
          duration: HOURS * 3_600,
          deposit: half,
          penaltySec: 3_600,
          minUptimeBps: 9_500,
          ackSigner: SESSION_KEY.address,
          acceptBy: now + 3_600,
        },
        await permit(half, now),
      ],
      { account: renter.account },
    ),
  })
  add('requestLease', requested.gasUsed)
  const leaseId = await leases.read.leaseCount()
  add('acceptLease', await gas(leases.write.acceptLease([leaseId, PRICE], { account: provider.account })))
  const t0 = Number((await leases.read.getLease([leaseId])).startedAt)

  for (let hour = PROOF_EVERY_HOURS; hour < HOURS; hour += PROOF_EVERY_HOURS) {
    const at = t0 + hour * 3_600
    if (hour === HOURS / 2) {
      const topUpPermit = await permit(half, at)
      await networkHelpers.time.setNextBlockTimestamp(at - 60)
      add(
        'topUp',
        await gas(leases.write.topUpWithPermit([leaseId, half, topUpPermit], { account: renter.account })),
      )
    }
    await networkHelpers.time.setNextBlockTimestamp(at)
    const signature = await ack(leaseId, hour * 3_600, at)
    add(
      'redeemUsage',
      await gas(
        leases.write.redeemUsage([leaseId, hour * 3_600, at, signature], { account: provider.account }),
      ),
    )
  }
  const end = t0 + HOURS * 3_600
  await networkHelpers.time.setNextBlockTimestamp(end - 1)
  add('closeLease', await gas(leases.write.closeLease([leaseId], { account: renter.account })))
  await networkHelpers.time.setNextBlockTimestamp(end + 30)
  const finalAck = await ack(leaseId, HOURS * 3_600 - 1, end - 1)
  add(
    'redeemUsage_settles',
    await gas(
      leases.write.redeemUsage([leaseId, HOURS * 3_600 - 1, end - 1, finalAck], {
        account: provider.account,
      }),
    ),
  )
  const lease = await leases.read.getLease([leaseId])
  if (lease.status !== 3) throw new Error(`lease ${leaseId} did not settle (status ${lease.status})`)
  const total = Object.values(steps).reduce((a, b) => a + b, 0n)
  return { steps, total, perHour: total / BigInt(HOURS) }
}

const first = await runLease()
const second = await runLease()
// What an approve transaction costs instead of a permit (an allowance written from zero), for the record.
const approve = await gas(token.write.approve([leases.address, PRICE], { account: renter.account }))
await gas(token.write.approve([leases.address, 0n], { account: renter.account }))
const fmt = (n: bigint) => n.toLocaleString('en-US')
console.log(`24-hour lease, a proof of service every ${PROOF_EVERY_HOURS} h, a top-up at 12 h (second run):`)
for (const [step, used] of Object.entries(second.steps))
  console.log(`  ${step.padEnd(22)} ${fmt(used).padStart(10)}`)
console.log(`  ${'total'.padEnd(22)} ${fmt(second.total).padStart(10)}`)
console.log(
  `gas per lease-hour: ${fmt(second.perHour)} (first run ${fmt(first.perHour)}; target ≤ ${fmt(TARGET)})`,
)
console.log(`(an approve transaction instead of each of the 2 permits: +${fmt(approve)} each)`)

const existing = await readFile(RESULTS_FILE, 'utf8')
  .then((text) => JSON.parse(text) as Record<string, unknown>)
  .catch(() => ({}))
const results = {
  open_to_first_byte_ms: null,
  gateway_overhead_ratio: null,
  ...existing,
  gas_per_lease_hour: Number(second.perHour),
  gas_breakdown: Object.fromEntries(Object.entries(second.steps).map(([step, used]) => [step, Number(used)])),
  gas_approve_instead_of_permit: Number(approve),
}
await mkdir(path.dirname(RESULTS_FILE), { recursive: true })
await writeFile(RESULTS_FILE, `${JSON.stringify(results, null, 2)}\n`)
console.log(`Wrote ${path.relative(process.cwd(), RESULTS_FILE)}`)
if (second.perHour > TARGET) {
  console.error('The gas target per lease-hour was missed.')
  process.exitCode = 1
}
