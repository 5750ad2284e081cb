/**
 * Shared fixture for the node:test + viem suites: the whole system deployed by
 * the `LocalGridforge` Ignition module, funded accounts, and the few helpers
 * every suite needs (publish a source, register a provider, deposit, submit a
 * task, compute a commitment, check the DESIGN.md §2.5 invariants).
 *
 * The market keeps no totals of what it owes (they cost a storage write on
 * every operation): the invariant is checked from the outside, by enumerating
 * every account the fixture knows, every source and every task
 * ({@link marketLiabilities}).
 *
 * Use it through `networkHelpers.loadFixture` so each test starts from the same
 * snapshot:
 *
 * @example
 * import { network } from 'hardhat'
 * import { deployGridforge } from './helpers/fixture.js'
 *
 * const connection = await network.create()
 * const { networkHelpers } = connection
 *
 * it('pays the provider', async () => {
 *   const gf = await networkHelpers.loadFixture(deployGridforge)
 *   const sourceId = await gf.publishSource(gf.owner)
 *   await gf.registerProvider(gf.providerWallets[0]!, { sourceIds: [sourceId] })
 *   const taskId = await gf.submitTask(gf.clients[0]!, await gf.defaultTaskParams(sourceId))
 *   await gf.checkInvariants()
 * })
 */
import assert from 'node:assert/strict'
import type { ContractReturnType } from '@nomicfoundation/hardhat-viem/types'
import type { NetworkConnection } from 'hardhat/types/network'
import {
  type Abi,
  type Address,
  type ContractEventName,
  encodeAbiParameters,
  type GetEventArgs,
  getAddress,
  type Hash,
  type Hex,
  keccak256,
  parseEventLogs,
  parseSignature,
  parseUnits,
  toHex,
} from 'viem'
import LocalGridforgeModule from '../../../ignition/modules/LocalGridforge.js'

/** `amount` whole GRID (18 decimals) in wei: `grid(100)`, `grid('0.5')`. */
export function grid(amount: number | string | bigint): bigint {
  return parseUnits(String(amount), 18)
}

/** Asserts that `value` is defined (`what` says what was missing) and returns it: a checked `value!`. */
export function defined<T>(value: T | undefined, what: string): T {
  assert.ok(value !== undefined, `${what} is undefined`)
  return value
}

/**
 * Asserts two addresses are equal regardless of checksum case (Hardhat's wallet clients report
 * lower-case addresses, contract reads return checksummed ones).
 */
export function assertAddress(
  actual: string,
  expected: string | { account: { address: Address } },
  message?: string,
) {
  const want = typeof expected === 'string' ? expected : expected.account.address
  assert.equal(actual.toLowerCase(), want.toLowerCase(), message)
}

/** Mirrors `Requirements` in ISourceRegistry.sol. */
export interface Requirements {
  minGpus: number
  minVramMiB: number
  minComputeCapability: number
  maxRuntimeSec: number
  deterministic: boolean
}

/** What `publishSource` lets a test choose; every field has a default (see deployGridforge). */
export interface PublishOverrides {
  imageDigest?: Hex
  metadataCID?: string
  requirements?: Partial<Requirements>
  creatorFeeBps?: number
  predecessor?: number
  /** What a failed run pays on a fixed-price task, in basis points of its price (default 0). */
  failureFeeBps?: number
  /** A deterministic source that checks this one's results (default 0: none). */
  validator?: number
}

/** Mirrors `Capabilities` in IProviderRegistry.sol. */
export interface Capabilities {
  gpuCount: number
  vramMiB: number
  computeCapability: number
  cpuCores: number
  memoryMiB: number
}

/** Mirrors `TaskParams` in ITaskMarket.sol. */
export interface TaskParams {
  sourceId: number
  inputCID: string
  maxPayment: bigint
  pricePerSecond: bigint
  replicas: number
  deadline: number
  requirements: Requirements
  minSuccessBps: number
  minCompleted: number
  /**
   * Audit probability of a k = 1 result of a deterministic source, in basis points: 0 for the market's
   * default (`MarketParams.auditBps`), otherwise at least that. Ignored for k > 1 and non-deterministic sources.
   */
  auditBps: number
  resultKey: Hex
}

/** Requirements of the sources `publishSource` creates unless overridden: one sm_80 GPU with 16 GiB, 1 h, deterministic. */
export const DEFAULT_SOURCE_REQUIREMENTS: Requirements = {
  minGpus: 1,
  minVramMiB: 16_384,
  minComputeCapability: 80,
  maxRuntimeSec: 3_600,
  deterministic: true,
}

/** Task requirements that add nothing to the source's (all zero: the source's apply). */
export const NO_EXTRA_REQUIREMENTS: Requirements = {
  minGpus: 0,
  minVramMiB: 0,
  minComputeCapability: 0,
  maxRuntimeSec: 0,
  deterministic: false,
}

/** Capabilities `registerProvider` declares unless overridden: 2 × 24 GiB sm_89, 32 cores, 128 GiB. */
export const DEFAULT_CAPABILITIES: Capabilities = {
  gpuCount: 2,
  vramMiB: 24_576,
  computeCapability: 89,
  cpuCores: 32,
  memoryMiB: 131_072,
}

export const DEFAULT_IMAGE_DIGEST: Hex = keccak256(toHex('ghcr.io/gridforge/example@sha256'))
export const DEFAULT_METADATA_CID = 'bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy'
export const DEFAULT_PROFILE_CID = 'bafkreibm6jg3ux5qumhcn2b3flc3tyu6dmlb4xa7u5bf44yegnrjhc4yeq'
export const DEFAULT_INPUT_CID = 'bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi'

/** Stake `registerProvider` puts up unless overridden (10× the default minProviderStake). */
export const DEFAULT_PROVIDER_STAKE = grid(1_000)
/** Tokens each client / provider / other account receives from the owner at deployment. */
export const CLIENT_FUNDS = grid(1_000_000)
export const PROVIDER_FUNDS = grid(100_000)
export const OTHER_FUNDS = grid(100_000)

/** TaskStatus values of a final task (Completed, Failed, Cancelled, Expired): it holds no escrow any more. */
export const FINAL_TASK_STATUSES: ReadonlySet<number> = new Set([4, 5, 6, 7])

/**
 * What a stored task escrowed from its client: maxPayment per replica, or, for an auditable k = 1 result
 * (`auditBps` > 0), 2 × maxPayment (the provider's payment and the first auditor's).
 */
export function escrowOf(task: { replicas: number; maxPayment: bigint; auditBps: number }): bigint {
  return task.maxPayment * (task.auditBps > 0 ? 2n : BigInt(task.replicas))
}

/**
 * What `market` owes, summed from the outside (the market keeps no totals):
 * - `balances`: Σ balanceOf(account) over `accounts` (duplicates counted once);
 * - `creatorFees`: Σ creatorFeesOf(sourceId) over every source, 1..sources.sourceCount();
 * - `escrow`: Σ over every task not final, 1..market.taskCount(), of what it escrowed ({@link escrowOf}:
 *   replicas × maxPayment, or 2 × maxPayment for an auditable k = 1 result) plus, for an audited or disputed
 *   one, the collateral its audit slashed so far (`getAudit(taskId).slashed`, held until the audit settles);
 * - `auditSlashed`: that last part alone (already included in `escrow`);
 * - `treasuryAccrued` and `pendingStakerFees`;
 * - `total`: their sum, which must equal asset.balanceOf(market) when `accounts` holds every
 *   account that ever had an internal balance.
 */
export async function marketLiabilities(
  market: ContractReturnType<'TaskMarket'>,
  sources: ContractReturnType<'SourceRegistry'>,
  accounts: readonly Address[],
) {
  const unique = [...new Set(accounts.map((account) => getAddress(account)))]
  const [sourceCount, taskCount, treasuryAccrued, pendingStakerFees] = await Promise.all([
    sources.read.sourceCount(),
    market.read.taskCount(),
    market.read.treasuryAccrued(),
    market.read.pendingStakerFees(),
  ])
  const sourceIds = Array.from({ length: sourceCount }, (_, i) => i + 1)
  const taskIds = Array.from({ length: Number(taskCount) }, (_, i) => BigInt(i + 1))
  const [balances, fees, tasks] = await Promise.all([
    Promise.all(unique.map((account) => market.read.balanceOf([account]))),
    Promise.all(sourceIds.map((sourceId) => market.read.creatorFeesOf([sourceId]))),
    Promise.all(taskIds.map((taskId) => market.read.getTask([taskId]))),
  ])
  const sum = (values: readonly bigint[]) => values.reduce((total, value) => total + value, 0n)
  const live = tasks
    .map((task, i) => ({ task, taskId: defined(taskIds[i], `task id ${i + 1}`) }))
    .filter(({ task }) => !FINAL_TASK_STATUSES.has(task.status))
  // Only an auditable k = 1 task or a disputed k > 1 one (status Auditing) can have an audit; the others read 0.
  const auditSlashed = sum(
    await Promise.all(
      live
        .filter(({ task }) => task.auditBps > 0 || task.status === 9)
        .map(async ({ taskId }) => (await market.read.getAudit([taskId])).slashed),
    ),
  )
  const result = {
    balances: sum(balances),
    creatorFees: sum(fees),
    escrow: sum(live.map(({ task }) => escrowOf(task))) + auditSlashed,
    treasuryAccrued,
    pendingStakerFees,
  }
  return {
    ...result,
    auditSlashed,
    total:
      result.balances +
      result.creatorFees +
      result.escrow +
      result.treasuryAccrued +
      result.pendingStakerFees,
  }
}

/**
 * Account layout (Hardhat's 20 default accounts):
 * 0 owner/deployer (owns every contract, holds the rest of the supply),
 * 1–4 clients, 5–12 providers, 13 treasury, 14–19 others (stakers, creators, attackers).
 */
const CLIENT_ACCOUNTS = [1, 5] as const
const PROVIDER_ACCOUNTS = [5, 13] as const
const TREASURY_ACCOUNT = 13
const OTHER_ACCOUNTS = [14, 20] as const

/**
 * Deploys Gridforge with Ignition on `connection` (treasury = account 13, every
 * other parameter the module's default), funds clients, providers and others
 * with GRID, and returns the contracts, wallets and helpers. A `Fixture` for
 * `networkHelpers.loadFixture(deployGridforge)`.
 */
export async function deployGridforge(connection: NetworkConnection): Promise<Gridforge> {
  const { viem, networkHelpers } = connection
  const publicClient = await viem.getPublicClient()
  const wallets = await viem.getWalletClients()
  assert.ok(wallets.length >= 20, 'the fixture needs 20 accounts')
  const owner = defined(wallets[0], 'account 0')
  const clients = wallets.slice(...CLIENT_ACCOUNTS)
  const providerWallets = wallets.slice(...PROVIDER_ACCOUNTS)
  const others = wallets.slice(...OTHER_ACCOUNTS)
  const treasury = defined(wallets[TREASURY_ACCOUNT], 'the treasury account').account.address

  const { token, sources, staking, providers, market, leases } = await connection.ignition.deploy(
    LocalGridforgeModule,
    {
      parameters: { LocalGridforge: { treasury } },
      displayUi: false,
    },
  )

  /**
   * Every address that can hold an internal market balance in the fixture's tests: the 20 accounts
   * and the five contracts (tests impersonate the market and Staking).
   */
  const accounts: readonly Address[] = [
    ...new Set(
      [
        ...wallets.map((wallet) => wallet.account.address),
        token.address,
        sources.address,
        staking.address,
        providers.address,
        market.address,
      ].map((account) => getAddress(account)),
    ),
  ]

  /**
   * {@link marketLiabilities} over `accounts` and `extra`: `.balances` is what totalBalances() used to report,
   * `.escrow` what totalEscrow() used to report.
   */
  function liabilities(extra: readonly Address[] = []) {
    return marketLiabilities(market, sources, [...accounts, ...extra])
  }

  /**
   * Waits for `hash` and returns the args of every `eventName` log that `contract` emitted in it,
   * in log order (an empty array when there is none).
   */
  async function getEvents<const TAbi extends Abi, TEventName extends ContractEventName<TAbi>>(
    hash: Hash | Promise<Hash>,
    contract: { address: Address; abi: TAbi },
    eventName: TEventName,
  ): Promise<GetEventArgs<TAbi, TEventName, { EnableUnion: false; IndexedOnly: false; Required: true }>[]> {
    const receipt = await publicClient.waitForTransactionReceipt({ hash: await hash })
    assert.equal(receipt.status, 'success')
    const logs = receipt.logs.filter((log) => log.address.toLowerCase() === contract.address.toLowerCase())
    const parsed = parseEventLogs({ abi: contract.abi as Abi, eventName: eventName as string, logs })
    return parsed.map((log) => log.args) as never
  }

  /** Sends `amount` GRID from the owner to `account`. */
  async function fund(account: Address | Wallet, amount: bigint) {
    const to = typeof account === 'string' ? account : account.account.address
    await token.write.transfer([to, amount], { account: owner.account })
  }

  /**
   * Publishes a source as `wallet` (defaults: DEFAULT_IMAGE_DIGEST, DEFAULT_METADATA_CID,
   * DEFAULT_SOURCE_REQUIREMENTS merged with `overrides.requirements`, creator fee 0, no predecessor,
   * failure fee 0, no validator) and returns its id.
   */
  async function publishSource(wallet: Wallet, overrides: PublishOverrides = {}): Promise<number> {
    const hash = await sources.write.publish(
      [
        overrides.imageDigest ?? DEFAULT_IMAGE_DIGEST,
        overrides.metadataCID ?? DEFAULT_METADATA_CID,
        { ...DEFAULT_SOURCE_REQUIREMENTS, ...overrides.requirements },
        overrides.creatorFeeBps ?? 0,
        overrides.predecessor ?? 0,
        overrides.failureFeeBps ?? 0,
        overrides.validator ?? 0,
      ],
      { account: wallet.account },
    )
    const [event] = await getEvents(hash, sources, 'SourcePublished')
    return defined(event, 'SourcePublished').sourceId
  }

  /**
   * Makes `wallet` a provider: approves and stakes `stake` (default DEFAULT_PROVIDER_STAKE; 0 skips
   * staking), registers with `capabilities` (DEFAULT_CAPABILITIES merged with the given fields) and
   * `profileCID`, then subscribes to `sourceIds` (if any). The wallet needs the tokens (providers are funded).
   */
  async function registerProvider(
    wallet: Wallet,
    options: {
      stake?: bigint
      capabilities?: Partial<Capabilities>
      sourceIds?: readonly number[]
      profileCID?: string
    } = {},
  ) {
    const account = wallet.account
    const stake = options.stake ?? DEFAULT_PROVIDER_STAKE
    if (stake > 0n) {
      await token.write.approve([staking.address, stake], { account })
      await staking.write.stake([stake], { account })
    }
    await providers.write.register(
      [{ ...DEFAULT_CAPABILITIES, ...options.capabilities }, options.profileCID ?? DEFAULT_PROFILE_CID],
      { account },
    )
    if (options.sourceIds !== undefined && options.sourceIds.length > 0) {
      await providers.write.subscribe([[...options.sourceIds]], { account })
    }
  }

  /** Approves the market and deposits `amount` into `wallet`'s internal balance. */
  async function deposit(wallet: Wallet, amount: bigint) {
    await token.write.approve([market.address, amount], { account: wallet.account })
    await market.write.deposit([amount], { account: wallet.account })
  }

  /**
   * Task parameters for `sourceId`: a fixed price of 10 GRID per replica, one replica, deadline one
   * day from the latest block, no extra requirements, no reputation gates; `overrides` replace fields.
   */
  async function defaultTaskParams(
    sourceId: number,
    overrides: Partial<TaskParams> = {},
  ): Promise<TaskParams> {
    const now = await networkHelpers.time.latest()
    return {
      sourceId,
      inputCID: DEFAULT_INPUT_CID,
      maxPayment: grid(10),
      pricePerSecond: 0n,
      replicas: 1,
      deadline: now + 24 * 60 * 60,
      requirements: NO_EXTRA_REQUIREMENTS,
      minSuccessBps: 0,
      minCompleted: 0,
      auditBps: 0,
      resultKey: RESULT_KEY,
      ...overrides,
    }
  }

  /**
   * What submitting `params` escrows: replicas × maxPayment, or 2 × maxPayment for a k = 1 task of a
   * deterministic source or of a source with a validator (its result is auditable). An unknown source escrows
   * nothing (the submission reverts).
   */
  async function escrowFor(params: TaskParams): Promise<bigint> {
    if (params.replicas !== 1) return BigInt(params.replicas) * params.maxPayment
    const terms = await sources.read.getSourceTerms([params.sourceId]).catch(() => undefined)
    if (terms === undefined) return 0n
    const auditable = terms.requirements.deterministic || terms.validator !== 0
    return params.maxPayment * (auditable ? 2n : 1n)
  }

  /**
   * Submits a task as `wallet` and returns its id (from TaskSubmitted). If the internal balance is below
   * the escrow ({@link escrowFor}), approves exactly the shortfall first, so the market pulls it with transferFrom.
   */
  async function submitTask(wallet: Wallet, params: TaskParams): Promise<bigint> {
    const account = wallet.account
    const escrow = await escrowFor(params)
    const balance = await market.read.balanceOf([account.address])
    if (balance < escrow) await token.write.approve([market.address, escrow - balance], { account })
    const hash = await market.write.submitTask([params], { account })
    const [event] = await getEvents(hash, market, 'TaskSubmitted')
    return defined(event, 'TaskSubmitted').taskId
  }

  /**
   * Signs an EIP-2612 permit of GridToken letting `spender` pull `value` from `wallet`, valid until
   * `deadline` (default: one hour after the latest block), with the wallet's current nonce.
   * Returns the fields of the `Permit` struct (and the arguments of `stakeWithPermit` / `depositWithPermit`).
   */
  async function signPermit(
    wallet: Wallet,
    spender: Address,
    value: bigint,
    deadline?: bigint,
  ): Promise<Permit> {
    const owner = wallet.account.address
    const validUntil = deadline ?? BigInt((await networkHelpers.time.latest()) + 60 * 60)
    const [nonce, chainId, name] = await Promise.all([
      token.read.nonces([owner]),
      publicClient.getChainId(),
      token.read.name(),
    ])
    const signature = await wallet.signTypedData({
      account: wallet.account,
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
      message: { owner, spender, value, nonce, deadline: validUntil },
    })
    const { r, s, v, yParity } = parseSignature(signature)
    return { value, deadline: validUntil, v: v === undefined ? yParity + 27 : Number(v), r, s }
  }

  /**
   * Asserts both DESIGN.md §2.5 balance invariants. TaskMarket, summed from the outside: token balance ==
   * Σ balanceOf (every known account and `extra`) + Σ creatorFeesOf (every source) + Σ escrow of the tasks
   * not final + treasuryAccrued + pendingStakerFees. Staking: token balance == totalStaked + totalUnbonding
   * + rewardsReserve.
   */
  async function checkInvariants(extra: readonly Address[] = []) {
    const [marketTokens, owed] = await Promise.all([
      token.read.balanceOf([market.address]),
      liabilities(extra),
    ])
    assert.equal(
      marketTokens,
      owed.total,
      `TaskMarket: token balance != Σ balances + Σ creator fees + Σ escrow + treasuryAccrued + pendingStakerFees (${JSON.stringify(
        owed,
        (_, value) => (typeof value === 'bigint' ? value.toString() : value),
      )})`,
    )
    const [stakingTokens, totalStaked, totalUnbonding, rewardsReserve] = await Promise.all([
      token.read.balanceOf([staking.address]),
      staking.read.totalStaked(),
      staking.read.totalUnbonding(),
      staking.read.rewardsReserve(),
    ])
    assert.equal(
      stakingTokens,
      totalStaked + totalUnbonding + rewardsReserve,
      'Staking: token balance != totalStaked + totalUnbonding + rewardsReserve',
    )
  }

  for (const wallet of clients) await fund(wallet, CLIENT_FUNDS)
  for (const wallet of providerWallets) await fund(wallet, PROVIDER_FUNDS)
  for (const wallet of others) await fund(wallet, OTHER_FUNDS)

  return {
    connection,
    viem,
    networkHelpers,
    publicClient,
    token,
    sources,
    staking,
    providers,
    market,
    leases,
    /** Account 0: deployer, owner of every contract, holder of the remaining supply. */
    owner,
    /** Accounts 1–4, each funded with CLIENT_FUNDS. */
    clients,
    /** Accounts 5–12, each funded with PROVIDER_FUNDS; not registered (see registerProvider). */
    providerWallets,
    /** Accounts 14–19, each funded with OTHER_FUNDS. */
    others,
    /** Account 13's address: the market's treasury. */
    treasury,

    accounts,
    liabilities,
    fund,
    publishSource,
    registerProvider,
    deposit,
    defaultTaskParams,
    escrowFor,
    submitTask,
    commitment,
    signPermit,
    checkInvariants,
    getEvents,
  }
}

type Viem = NetworkConnection['viem']
/** A wallet client of the fixture. */
export type Wallet = Awaited<ReturnType<Viem['getWalletClients']>>[number]

/** The fields of the `Permit` struct, also the permit arguments of `stakeWithPermit` / `depositWithPermit`. */
export interface Permit {
  value: bigint
  deadline: bigint
  v: number
  r: Hex
  s: Hex
}

/**
 * Everything `deployGridforge` returns. Declared rather than inferred: the inferred type is too large for
 * TypeScript to write out (TS7056 under `declaration: true`).
 */
export interface Gridforge {
  connection: NetworkConnection
  viem: Viem
  networkHelpers: NetworkConnection['networkHelpers']
  publicClient: Awaited<ReturnType<Viem['getPublicClient']>>
  token: ContractReturnType<'GridToken'>
  sources: ContractReturnType<'SourceRegistry'>
  staking: ContractReturnType<'Staking'>
  providers: ContractReturnType<'ProviderRegistry'>
  market: ContractReturnType<'TaskMarket'>
  /** The lease market beside it (same token, staking and registries). */
  leases: ContractReturnType<'LeaseMarket'>
  /** Account 0: deployer, owner of every contract, holder of the remaining supply. */
  owner: Wallet
  /** Accounts 1–4, each funded with CLIENT_FUNDS. */
  clients: Wallet[]
  /** Accounts 5–12, each funded with PROVIDER_FUNDS; not registered (see registerProvider). */
  providerWallets: Wallet[]
  /** Accounts 14–19, each funded with OTHER_FUNDS. */
  others: Wallet[]
  /** Account 13's address: the market's treasury. */
  treasury: Address
  /** Every address that can hold an internal market balance: the 20 accounts and the five contracts. */
  accounts: readonly Address[]
  /**
   * {@link marketLiabilities} over `accounts` and `extra`: `.balances` is what totalBalances() used to report,
   * `.escrow` what totalEscrow() used to report.
   */
  liabilities(extra?: readonly Address[]): ReturnType<typeof marketLiabilities>
  /** Sends `amount` GRID from the owner to `account`. */
  fund(account: Address | Wallet, amount: bigint): Promise<void>
  /** Publishes a source as `wallet` and returns its id (see the defaults in deployGridforge). */
  publishSource(wallet: Wallet, overrides?: PublishOverrides): Promise<number>
  /** Stakes, registers and subscribes `wallet` as a provider (see the defaults in deployGridforge). */
  registerProvider(
    wallet: Wallet,
    options?: {
      stake?: bigint
      capabilities?: Partial<Capabilities>
      sourceIds?: readonly number[]
      profileCID?: string
    },
  ): Promise<void>
  /** Approves the market and deposits `amount` into `wallet`'s internal balance. */
  deposit(wallet: Wallet, amount: bigint): Promise<void>
  /** Task parameters for `sourceId` (10 GRID, k = 1, one day); `overrides` replace fields. */
  defaultTaskParams(sourceId: number, overrides?: Partial<TaskParams>): Promise<TaskParams>
  /** What submitting `params` escrows: 2 × maxPayment for an auditable k = 1 task (deterministic or validated source). */
  escrowFor(params: TaskParams): Promise<bigint>
  /** Submits a task as `wallet` (approving the shortfall) and returns its id. */
  submitTask(wallet: Wallet, params: TaskParams): Promise<bigint>
  commitment: typeof commitment
  /** Signs an EIP-2612 permit of GridToken (see deployGridforge). */
  signPermit(wallet: Wallet, spender: Address, value: bigint, deadline?: bigint): Promise<Permit>
  /** Asserts both DESIGN.md §2.5 balance invariants (see deployGridforge). */
  checkInvariants(extra?: readonly Address[]): Promise<void>
  /** The args of every `eventName` log `contract` emitted in the transaction `hash`, in log order. */
  getEvents<const TAbi extends Abi, TEventName extends ContractEventName<TAbi>>(
    hash: Hash | Promise<Hash>,
    contract: { address: Address; abi: TAbi },
    eventName: TEventName,
  ): Promise<GetEventArgs<TAbi, TEventName, { EnableUnion: false; IndexedOnly: false; Required: true }>[]>
}

/** The X25519 public key the fixture's tasks name as their client's (TaskParams.resultKey): any 32 bytes do here. */
export const RESULT_KEY: Hex = keccak256(toHex('result key'))

/** The low 8 bytes of a failure digest ("gf:fail" and a zero byte): libraries/Results.sol's FAILURE_MARK. */
const FAILURE_MARK = 0x67663a6661696c00n

/**
 * A result's seal (libraries/Results.sol, sealOf): keccak256(abi.encode(taskId, digest)), or a failure digest
 * itself. Providers hand in seals; auditors reveal digests, which the market seals.
 */
export function sealOf(taskId: bigint, digest: Hex): Hex {
  const value = BigInt(digest)
  const kind = value >> 248n
  const failure = (value & ~(0xffffn << 240n)) === FAILURE_MARK && kind >= 1n && kind <= 4n
  if (failure) return digest
  return keccak256(encodeAbiParameters([{ type: 'uint256' }, { type: 'bytes32' }], [taskId, digest]))
}

/** The k > 1 commitment: keccak256(abi.encode(taskId, provider, resultDigest, salt)). */
export function commitment(taskId: bigint, provider: Address, resultDigest: Hex, salt: Hex): Hex {
  return keccak256(
    encodeAbiParameters(
      [{ type: 'uint256' }, { type: 'address' }, { type: 'bytes32' }, { type: 'bytes32' }],
      [taskId, provider, resultDigest, salt],
    ),
  )
}
