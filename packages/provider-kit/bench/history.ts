/**
 * Gives a devnet market a history: many tasks, some cancelled, some settled,
 * the rest left open, all of one source, from accounts of their own (so a
 * benchmarked agent's client sees none of this traffic). Submissions go
 * in `submitTasks` batches; each account is one lane with its own nonces and
 * the lanes run side by side.
 */
import {
  approveMarket,
  type Capabilities,
  cancelTask,
  claimTask,
  type Deployment,
  getProviderRegistryParams,
  registerProvider,
  stake,
  submitResult,
  submitTasks,
  subscribeSources,
} from '@gridforge/sdk'
import {
  type Account,
  type Chain,
  createWalletClient,
  erc20Abi,
  type Hex,
  http,
  parseUnits,
  publicActions,
  type Transport,
  type WalletClient,
} from 'viem'
import { nonceManager, privateKeyToAccount } from 'viem/accounts'
import { waitForTransactionReceipt, writeContract } from 'viem/actions'
import { hardhat } from 'viem/chains'

/** Tasks per `submitTasks` transaction: about 85,000 gas each, inside the 2^24 gas cap of a transaction. */
export const tasksPerTransaction = 100
/** Gas limit of every history transaction: a batch of 100 uses ~8.6 M; under the 2^24 cap of a transaction. */
const historyGasLimit = 15_000_000n
/** Each history task pays this much at most (GRID); small, so funding and collateral stay small. */
const maxPayment = '0.01'

export interface BuildHistoryParameters {
  rpcUrl: string
  deployment: Deployment
  /** Holds GRID: funds the lanes. */
  funder: WalletClient<Transport, Chain, Account>
  /** One submitting client per key; each also cancels some of its own tasks. */
  clientKeys: readonly Hex[]
  /** One provider per key, registered and subscribed to `sourceId` here; each settles some tasks. */
  providerKeys: readonly Hex[]
  /** The source every history task runs. */
  sourceId: number
  /** CIDs of an input, and of the result and receipt the providers submit. */
  input: string
  result: string
  receipt: string
  /** The providers' registration. */
  capabilities: Capabilities
  profile: string
  /** Tasks submitted, cancelled, and claimed and settled; the rest stay open. */
  tasks: number
  cancelled: number
  settled: number
  onProgress?: ((line: string) => void) | undefined
}

export interface History {
  submitted: number
  cancelled: number
  settled: number
  open: number
  /** How long each part took, ms. */
  ms: { setup: number; submit: number; cancelAndSettle: number; total: number }
}

/**
 * Builds the history described by `parameters`.
 *
 * @example
 * const history = await buildHistory({ rpcUrl, deployment, funder, clientKeys, providerKeys,
 *   sourceId, input, result, receipt, capabilities, profile, tasks: 20_000, cancelled: 2_000, settled: 2_000 })
 * console.log(`${history.submitted} tasks in ${history.ms.total} ms`)
 */
export async function buildHistory(parameters: BuildHistoryParameters): Promise<History> {
  const { deployment, funder, sourceId, onProgress = () => {} } = parameters
  const started = performance.now()
  const walletOf = (key: Hex) =>
    createWalletClient({
      account: privateKeyToAccount(key, { nonceManager }),
      chain: hardhat,
      transport: http(parameters.rpcUrl),
      // Hardhat automines: a receipt is there as soon as the transaction is sent.
      pollingInterval: 50,
    })
      .extend(publicActions)
      // The SDK's actions send through the client's `writeContract`: with a fixed gas limit, viem skips
      // `eth_estimateGas`, which on Hardhat runs a 100-task batch several times over (~0.5-0.9 s of a ~1 s send).
      // Only the gas used is charged; a revert still fails the action.
      .extend((client) => ({
        writeContract: ((args: Parameters<typeof writeContract>[1]) =>
          writeContract(client, {
            ...args,
            gas: args.gas ?? historyGasLimit,
          } as never)) as typeof client.writeContract,
      }))
  const clients = parameters.clientKeys.map(walletOf)
  const providers = parameters.providerKeys.map(walletOf)
  const lanes = clients.length
  if (lanes === 0 || providers.length !== lanes) throw new Error('history: as many providers as clients, ≥ 1')
  const share = (total: number, lane: number) => Math.floor(total / lanes) + (lane < total % lanes ? 1 : 0)

  // ── Funding and registration (the funder's nonces are sequential) ──
  const { minProviderStake } = await getProviderRegistryParams(funder, { deployment })
  const send = async (to: Hex, amount: bigint) => {
    const hash = await funder.writeContract({
      address: deployment.contracts.token,
      abi: erc20Abi,
      functionName: 'transfer',
      args: [to, amount],
    })
    await waitForTransactionReceipt(funder, { hash })
  }
  const perTask = parseUnits(maxPayment, 18)
  for (const [lane, client] of clients.entries())
    await send(client.account.address, perTask * BigInt(share(parameters.tasks, lane)) + parseUnits('1', 18))
  for (const provider of providers)
    await send(provider.account.address, minProviderStake + parseUnits('1', 18))
  await Promise.all([
    ...clients.map((client, lane) =>
      approveMarket(client, { deployment, amount: perTask * BigInt(share(parameters.tasks, lane)) }),
    ),
    ...providers.map(async (provider) => {
      await stake(provider, { deployment, amount: minProviderStake, approve: true })
      await registerProvider(provider, {
        deployment,
        capabilities: parameters.capabilities,
        profile: parameters.profile,
      })
      await subscribeSources(provider, { deployment, sourceIds: [sourceId] })
    }),
  ])
  const setupDone = performance.now()

  // ── Submissions: each client submits its share in batches ──
  let submitted = 0
  let cancelled = 0
  let settled = 0
  const progress = setInterval(
    () => onProgress(`  history: ${submitted} submitted, ${cancelled} cancelled, ${settled} settled`),
    10_000,
  )
  try {
    const taskIdsOf = await Promise.all(
      clients.map(async (client, lane) => {
        const ids: bigint[] = []
        for (let left = share(parameters.tasks, lane); left > 0; ) {
          const count = Math.min(tasksPerTransaction, left)
          const { taskIds } = await submitTasks(client, {
            deployment,
            tasks: Array.from({ length: count }, () => ({
              sourceId,
              input: parameters.input,
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

    // ── Each client cancels some of its tasks while a provider settles others of the same client ──
    await Promise.all(
      clients.flatMap((client, lane) => {
        const ids = taskIdsOf[lane] ?? []
        const toSettle = ids.slice(0, share(parameters.settled, lane))
        const toCancel = ids.slice(toSettle.length, toSettle.length + share(parameters.cancelled, lane))
        const provider = providers[lane]
        if (provider === undefined) return []
        return [
          (async () => {
            for (const taskId of toCancel) {
              await cancelTask(client, { deployment, taskId })
              cancelled++
            }
          })(),
          (async () => {
            for (const taskId of toSettle) {
              await claimTask(provider, { deployment, taskId })
              await submitResult(provider, {
                deployment,
                taskId,
                result: parameters.result,
                receipt: parameters.receipt,
                runtimeSec: 1,
              })
              settled++
            }
          })(),
        ]
      }),
    )
    const done = performance.now()
    return {
      submitted,
      cancelled,
      settled,
      open: submitted - cancelled - settled,
      ms: {
        setup: Math.round(setupDone - started),
        submit: Math.round(submitDone - setupDone),
        cancelAndSettle: Math.round(done - submitDone),
        total: Math.round(done - started),
      },
    }
  } finally {
    clearInterval(progress)
  }
}
