/**
 * Fills a devnet market with a history for the indexer to index: many tasks
 * of one source, most left open, some claimed and left running, some
 * completed, some cancelled. Submissions go in `submitTasks` batches of 100;
 * claims, results and cancellations are a transaction each (they are what a
 * market has fewer of). Each lane is a client and a provider with their own
 * nonces, and the lanes run side by side.
 */
import {
  approveMarket,
  cancelTask,
  claimTask,
  type Deployment,
  getProviderRegistryParams,
  publishSource,
  registerProvider,
  stake,
  submitResult,
  submitTasks,
  subscribeSources,
} from '@gridforge/sdk'
import {
  type Address,
  createWalletClient,
  erc20Abi,
  type Hex,
  http,
  parseUnits,
  publicActions,
  toHex,
} from 'viem'
import { nonceManager, privateKeyToAccount } from 'viem/accounts'
import { waitForTransactionReceipt, writeContract } from 'viem/actions'
import { hardhat } from 'viem/chains'
import { capabilities, cids } from '../test/market.js'

/** Tasks per `submitTasks` transaction: about 85,000 gas each, inside the 2^24 gas cap of a transaction. */
const tasksPerTransaction = 100
/** Gas limit of every history transaction: a batch of 100 uses ~8.6 M. */
const historyGasLimit = 15_000_000n
/** Each task pays this much at most (GRID): small, so that funding and collateral stay small. */
const maxPayment = '0.01'

export interface FillMarketParameters {
  rpcUrl: string
  deployment: Deployment
  /** The devnet's funded keys: 0 holds the GRID and owns the source, then a client and a provider per lane. */
  privateKeys: readonly Hex[]
  lanes: number
  /** Tasks submitted; of them, claimed and left running, completed (claimed and delivered), cancelled. */
  tasks: number
  claimed: number
  completed: number
  cancelled: number
  onProgress?: ((line: string) => void) | undefined
}

export interface MarketHistory {
  sourceId: number
  /** The lanes' clients and providers. */
  clients: Address[]
  providers: Address[]
  submitted: number
  claimed: number
  completed: number
  cancelled: number
  open: number
  /** How long each part took, ms. */
  ms: { setup: number; submit: number; claimsAndCancels: number; total: number }
}

/**
 * Builds the history; the counts are split evenly between the lanes.
 *
 * @example
 * const history = await fillMarket({ rpcUrl, deployment, privateKeys, lanes: 4,
 *   tasks: 100_000, claimed: 1_000, completed: 2_000, cancelled: 2_000 })
 */
export async function fillMarket(parameters: FillMarketParameters): Promise<MarketHistory> {
  const { deployment, lanes, onProgress = () => {} } = parameters
  if (!Number.isSafeInteger(lanes) || lanes < 1 || 2 * lanes + 1 > parameters.privateKeys.length)
    throw new RangeError(`history: lanes must be from 1 to ${(parameters.privateKeys.length - 1) >> 1}`)
  if (parameters.claimed + parameters.completed + parameters.cancelled > parameters.tasks)
    throw new RangeError('history: more tasks claimed, completed and cancelled than submitted')
  const started = performance.now()
  const walletOf = (key: Hex | undefined) => {
    if (key === undefined) throw new Error('history: a devnet key is missing')
    return (
      createWalletClient({
        account: privateKeyToAccount(key, { nonceManager }),
        chain: hardhat,
        transport: http(parameters.rpcUrl),
        // Hardhat automines: a receipt is there as soon as the transaction is sent.
        pollingInterval: 50,
      })
        .extend(publicActions)
        // With a fixed gas limit viem skips `eth_estimateGas`, which Hardhat runs a 100-task batch for several
        // times over (about half of each send). Only the gas used is charged; a revert still fails the action.
        .extend((client) => ({
          writeContract: ((args: Parameters<typeof writeContract>[1]) =>
            writeContract(client, {
              ...args,
              gas: args.gas ?? historyGasLimit,
            } as never)) as typeof client.writeContract,
        }))
    )
  }
  const owner = walletOf(parameters.privateKeys[0])
  const clients = Array.from({ length: lanes }, (_, lane) => walletOf(parameters.privateKeys[1 + 2 * lane]))
  const providers = Array.from({ length: lanes }, (_, lane) => walletOf(parameters.privateKeys[2 + 2 * lane]))
  const share = (total: number, lane: number) => Math.floor(total / lanes) + (lane < total % lanes ? 1 : 0)

  // ── The source, funding and registration ──
  const { sourceId } = await publishSource(owner, {
    deployment,
    imageDigest: toHex(crypto.getRandomValues(new Uint8Array(32))),
    metadata: cids.metadata,
    requirements: { minGpus: 0, maxRuntimeSec: '1h' },
    creatorFeeBps: 500,
    failureFeeBps: 0,
  })
  const { minProviderStake } = await getProviderRegistryParams(owner, { deployment })
  const perTask = parseUnits(maxPayment, 18)
  const send = async (to: Address, amount: bigint) => {
    const hash = await owner.writeContract({
      address: deployment.contracts.token,
      abi: erc20Abi,
      functionName: 'transfer',
      args: [to, amount],
    })
    await waitForTransactionReceipt(owner, { hash })
  }
  for (const [lane, client] of clients.entries())
    await send(client.account.address, perTask * BigInt(share(parameters.tasks, lane)) + parseUnits('1', 18))
  for (const provider of providers)
    await send(provider.account.address, minProviderStake + parseUnits('10', 18))
  await Promise.all([
    ...clients.map((client, lane) =>
      approveMarket(client, { deployment, amount: perTask * BigInt(share(parameters.tasks, lane)) }),
    ),
    ...providers.map(async (provider) => {
      // The minimum and the collateral of every claim this provider leaves running (half of maxPayment).
      await stake(provider, { deployment, amount: minProviderStake + parseUnits('10', 18), approve: true })
      await registerProvider(provider, { deployment, capabilities, profile: cids.input })
      await subscribeSources(provider, { deployment, sourceIds: [sourceId] })
    }),
  ])
  const setupDone = performance.now()

  let submitted = 0
  let claimed = 0
  let completed = 0
  let cancelled = 0
  const progress = setInterval(() => {
    const seconds = (performance.now() - started) / 1000
    onProgress(
      `history: ${submitted} submitted (${Math.round(submitted / seconds)}/s), ${claimed} claimed, ${completed} completed, ${cancelled} cancelled, ${Math.round(seconds)} s`,
    )
  }, 15_000)
  try {
    // ── Submissions: each client its share, in batches ──
    const taskIdsOf = await Promise.all(
      clients.map(async (client, lane) => {
        const ids: bigint[] = []
        for (let left = share(parameters.tasks, lane); left > 0; ) {
          const count = Math.min(tasksPerTransaction, left)
          const { taskIds } = await submitTasks(client, {
            deployment,
            tasks: Array.from({ length: count }, () => ({
              sourceId,
              input: cids.input,
              maxPayment,
              deadline: '7d',
            })),
          })
          ids.push(...taskIds)
          left -= count
          submitted += count
        }
        return ids
      }),
    )
    const submitDone = performance.now()

    // ── The lane's provider claims some of its client's oldest tasks (delivering most), while the client
    // cancels some others ──
    await Promise.all(
      clients.flatMap((client, lane) => {
        const provider = providers[lane]
        const ids = taskIdsOf[lane] ?? []
        const toComplete = ids.slice(0, share(parameters.completed, lane))
        const toClaim = ids.slice(toComplete.length, toComplete.length + share(parameters.claimed, lane))
        const from = toComplete.length + toClaim.length
        const toCancel = ids.slice(from, from + share(parameters.cancelled, lane))
        if (provider === undefined) return []
        return [
          (async () => {
            for (const taskId of toCancel) {
              await cancelTask(client, { deployment, taskId })
              cancelled++
            }
          })(),
          (async () => {
            for (const taskId of toComplete) {
              await claimTask(provider, { deployment, taskId })
              await submitResult(provider, {
                deployment,
                taskId,
                result: cids.output,
                receipt: cids.receipt,
                runtimeSec: 1,
              })
              completed++
            }
            for (const taskId of toClaim) {
              await claimTask(provider, { deployment, taskId })
              claimed++
            }
          })(),
        ]
      }),
    )
    const done = performance.now()
    return {
      sourceId,
      clients: clients.map((client) => client.account.address),
      providers: providers.map((provider) => provider.account.address),
      submitted,
      claimed,
      completed,
      cancelled,
      open: submitted - claimed - completed - cancelled,
      ms: {
        setup: Math.round(setupDone - started),
        submit: Math.round(submitDone - setupDone),
        claimsAndCancels: Math.round(done - submitDone),
        total: Math.round(done - started),
      },
    }
  } finally {
    clearInterval(progress)
  }
}
