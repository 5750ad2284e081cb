/**
 * The market's fixed cast on one chain: the deployer (owner, treasury, publisher of the source), funded
 * provider accounts that stake, register and subscribe, funded clients with a deposit, and spare accounts
 * for strategies' second identities. Set up once per chain and saved as a snapshot; each run starts from it.
 */
import {
  gridTokenAbi,
  providerRegistryAbi,
  sourceRegistryAbi,
  stakingAbi,
  taskMarketAbi,
} from '@gridforge/contracts'
import { type Address, keccak256, maxUint256, toHex } from 'viem'
import type { Chain } from '../chain.js'
import { Ledger } from '../ledger.js'
import { type SimParams, SPARE_ACCOUNT_GRID } from '../params.js'
import type { Cast } from '../strategies/types.js'
import { Transactor } from '../transactor.js'
import { grid } from '../units.js'

export const METADATA_CID = 'bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy'
export const PROFILE_CID = 'bafkreibm6jg3ux5qumhcn2b3flc3tyu6dmlb4xa7u5bf44yegnrjhc4yeq'

/** GRID given to every client (spare accounts get `SPARE_ACCOUNT_GRID`), and deposited by clients into the market. */
const CLIENT_GRID = 100_000
const CLIENT_DEPOSIT = 50_000
/** GRID a provider holds besides its stake. */
const PROVIDER_SPARE_GRID = 1_000
export const SPARE_ACCOUNTS = 3

/** The parameters a world's set-up depends on: a change of any of them needs a new set-up. */
export type WorldShape = Pick<
  SimParams,
  'providers' | 'clients' | 'providerStake' | 'sourceMaxRuntimeSec' | 'failureFeeBps'
>

export interface World {
  chain: Chain
  shape: WorldShape
  cast: Cast
  owner: Address
  sourceId: number
  /** The snapshot every run of this world starts from. */
  snapshot: `0x${string}`
}

/** Accounts a world of this shape uses: the deployer, providers, clients and the spare ones. */
export function accountsNeeded(shape: Pick<WorldShape, 'providers' | 'clients'>): number {
  return 1 + shape.providers + shape.clients + SPARE_ACCOUNTS
}

/** Sets up the cast on `chain` (from its current state) and snapshots it. */
export async function setUpWorld(chain: Chain, shape: WorldShape): Promise<World> {
  const { contracts, accounts } = chain
  if (accounts.length < accountsNeeded(shape)) {
    throw new Error(
      `sim: the chain has ${accounts.length} accounts, a world of this shape needs ${accountsNeeded(shape)}`,
    )
  }
  const owner = accounts[0] as Address
  const providers = accounts.slice(1, 1 + shape.providers)
  const clients = accounts.slice(1 + shape.providers, 1 + shape.providers + shape.clients)
  const spare = accounts.slice(1 + shape.providers + shape.clients, accountsNeeded(shape))
  const ledger = new Ledger(contracts, 0)
  const block = await chain.provider.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })
  const tx = new Transactor(chain.provider, ledger, Number(block?.timestamp ?? 0))
  const at = () => tx.now + 1

  const token = { address: contracts.token, abi: gridTokenAbi } as const
  const market = { address: contracts.market, abi: taskMarketAbi } as const

  const sourceId = await publishSource(tx, contracts, owner, shape)

  const funding: [Address, number][] = [
    ...providers.map((p): [Address, number] => [p, shape.providerStake + PROVIDER_SPARE_GRID]),
    ...clients.map((c): [Address, number] => [c, CLIENT_GRID]),
    ...spare.map((s): [Address, number] => [s, SPARE_ACCOUNT_GRID]),
  ]
  for (const [account, amount] of funding) {
    await tx.send(owner, at(), { ...token, functionName: 'transfer', args: [account, grid(amount)] })
    await tx.send(account, at(), { ...token, functionName: 'approve', args: [contracts.market, maxUint256] })
    await tx.send(account, at(), { ...token, functionName: 'approve', args: [contracts.staking, maxUint256] })
  }
  for (const client of clients) {
    await tx.send(client, at(), { ...market, functionName: 'deposit', args: [grid(CLIENT_DEPOSIT)] })
  }
  for (const provider of providers) {
    await registerProvider(tx, contracts, provider, grid(shape.providerStake), sourceId)
  }
  return {
    chain,
    shape,
    cast: { providers, clients, spare },
    owner,
    sourceId,
    snapshot: await chain.snapshot(),
  }
}

/** Publishes the simulated source (deterministic, no creator fee, no validator) from `owner`; returns its id. */
export async function publishSource(
  tx: Transactor,
  contracts: Chain['contracts'],
  owner: Address,
  shape: Pick<WorldShape, 'sourceMaxRuntimeSec' | 'failureFeeBps'>,
): Promise<number> {
  await tx.send(owner, tx.now + 1, {
    address: contracts.sources,
    abi: sourceRegistryAbi,
    functionName: 'publish',
    args: [
      keccak256(toHex('gridforge-sim-source')),
      METADATA_CID,
      {
        minGpus: 1,
        minVramMiB: 0,
        minComputeCapability: 0,
        maxRuntimeSec: shape.sourceMaxRuntimeSec,
        deterministic: true,
      },
      0, // creatorFeeBps
      0, // predecessor
      shape.failureFeeBps,
      0, // no validator: audits re-run the workload
    ],
  })
  return Number(
    await tx.public.readContract({
      address: contracts.sources,
      abi: sourceRegistryAbi,
      functionName: 'sourceCount',
    }),
  )
}

/** Stakes `stake`, registers `provider` with one H100-class GPU and subscribes it to `sourceId`. */
export async function registerProvider(
  tx: Transactor,
  contracts: Chain['contracts'],
  provider: Address,
  stake: bigint,
  sourceId: number,
) {
  const registry = { address: contracts.providers, abi: providerRegistryAbi } as const
  await tx.send(provider, tx.now + 1, {
    address: contracts.staking,
    abi: stakingAbi,
    functionName: 'stake',
    args: [stake],
  })
  await tx.send(provider, tx.now + 1, {
    ...registry,
    functionName: 'register',
    args: [
      { gpuCount: 1, vramMiB: 81_920, computeCapability: 90, cpuCores: 16, memoryMiB: 131_072 },
      PROFILE_CID,
    ],
  })
  await tx.send(provider, tx.now + 1, { ...registry, functionName: 'subscribe', args: [[sourceId]] })
}
