/**
 * A small market on a devnet, driven with the SDK as users drive it, that
 * remembers what each step did on chain (blocks, times, amounts) so that the
 * tests can say exactly what the indexer must answer.
 */
import { type GridforgeDeployment, taskMarketAbi } from '@gridforge/contracts'
import {
  cancelTask,
  claimTask,
  deposit,
  type Failure,
  publishSource,
  registerProvider,
  reopenSlot,
  setPriceFloor,
  stake,
  submitResult,
  subscribeSources,
} from '@gridforge/sdk'
import {
  type Address,
  createWalletClient,
  erc20Abi,
  type Hex,
  http,
  parseEventLogs,
  parseUnits,
  publicActions,
  toHex,
  zeroHash,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { hardhat } from 'viem/chains'

/** Raw-leaf sha2-256 CIDs (as the SDK's fixtures): an output, a failed run's logs, metadata, receipts. */
export const cids = {
  input: 'bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku',
  output: 'bafkreidvbhs33ighmljlvr7zbv2ywwzcmp5adtf4kqvlly67cy56bdtmve',
  logs: 'bafkreie7q3iidccmpvszul7kudcvvuavuo7u6gzlbobczuk5nqk3b4akba',
  metadata: 'bafkreifjjcie6lypi6ny7amxnfftagclbuxndqonfipmb64f2km2devei4',
  receipt: 'bafkreiabltrd5zm73pvi7plq25pef3hm7jxhbi3kv4hapegrkfpkqtkbme',
} as const

export const grid = (amount: string) => parseUnits(amount, 18)

export const capabilities = {
  gpuCount: 2,
  vramMiB: 24_576,
  computeCapability: 89,
  cpuCores: 8,
  memoryMiB: 65_536,
} as const

/** What happened to a task on chain, as the steps below recorded it. */
export interface TaskRecord {
  id: bigint
  client: Address
  sourceId: number
  maxPayment: bigint
  pricePerSecond: bigint
  deadline: number
  escrow: bigint
  submitted: { block: bigint; time: number; hash: Hex }
  /** When the task was first claimed (a reopened slot's claim is replaced in `claim`). */
  firstClaimTime?: number
  claim?: { provider: Address; slot: number; block: bigint; time: number; dueAt: number; collateral: bigint }
  result?: {
    result: string
    digest: Hex
    failure: Failure | undefined
    runtimeSec: number
    payment: bigint
    fee: bigint
    refund: bigint
    block: bigint
    time: number
  }
  cancelled?: { block: bigint; time: number; refund: bigint }
  /** No-shows slashed when their slot was reopened. */
  reopened: { provider: Address; slot: number; slashed: bigint; toClient: bigint; time: number }[]
}

export type MarketClient = ReturnType<typeof accountClient>

function accountClient(rpcUrl: string, privateKey: Hex) {
  return createWalletClient({
    account: privateKeyToAccount(privateKey),
    chain: hardhat,
    transport: http(rpcUrl),
  }).extend(publicActions)
}

/** Accounts 1 to 6 of the devnet: a source owner, two providers, two clients (funded with GRID by account 0). */
export async function openMarket({
  rpcUrl,
  deployment,
  privateKeys,
}: {
  rpcUrl: string
  deployment: GridforgeDeployment
  privateKeys: readonly Hex[]
}) {
  const at = (index: number) => {
    const key = privateKeys[index]
    if (key === undefined) throw new Error(`no devnet account ${index}`)
    return accountClient(rpcUrl, key)
  }
  const deployer = at(0)
  const [owner, provider1, provider2, client1, client2] = [at(1), at(2), at(3), at(4), at(5)]
  for (const account of [owner, provider1, provider2, client1, client2]) {
    const hash = await deployer.writeContract({
      address: deployment.contracts.token,
      abi: erc20Abi,
      functionName: 'transfer',
      args: [account.account.address, grid('1000')],
    })
    await deployer.waitForTransactionReceipt({ hash })
  }
  const blockTime = async (blockNumber: bigint) =>
    Number((await deployer.getBlock({ blockNumber })).timestamp)
  const tasks = new Map<bigint, TaskRecord>()
  const record = (taskId: bigint) => {
    const task = tasks.get(taskId)
    if (task === undefined) throw new Error(`no task ${taskId} recorded`)
    return task
  }

  return {
    deployer,
    owner,
    providers: [provider1, provider2] as const,
    clients: [client1, client2] as const,
    tasks,

    async publish(options: { creatorFeeBps: number; failureFeeBps: number; minGpus: number }) {
      const { sourceId, blockNumber } = await publishSource(owner, {
        deployment,
        imageDigest: toHex(crypto.getRandomValues(new Uint8Array(32))),
        metadata: cids.metadata,
        requirements: { minGpus: options.minGpus, maxRuntimeSec: '1h' },
        creatorFeeBps: options.creatorFeeBps,
        failureFeeBps: options.failureFeeBps,
      })
      return { sourceId, block: blockNumber, time: await blockTime(blockNumber) }
    },

    /**
     * Stakes 200 GRID, registers with {@link capabilities}, joins `sourceIds` and publishes `priceFloor` (base
     * units per GPU-second) if given; returns when it registered.
     */
    async register(provider: MarketClient, sourceIds: number[], priceFloor?: bigint) {
      await stake(provider, { deployment, amount: '200', approve: true })
      const { blockNumber } = await registerProvider(provider, {
        deployment,
        capabilities,
        profile: cids.input,
      })
      await subscribeSources(provider, { deployment, sourceIds })
      if (priceFloor !== undefined)
        await setPriceFloor(provider, { deployment, minPricePerGpuSecond: priceFloor })
      return { block: blockNumber, time: await blockTime(blockNumber) }
    },

    async fundClient(client: MarketClient) {
      await deposit(client, { deployment, amount: '100', approve: true })
    },

    /**
     * Submits a task from the client's market balance, through the contract's ABI: the SDK's `submitTask`
     * does not pass `TaskParams.resultKey` yet (sealed results), which viem then cannot encode.
     */
    async submit(client: MarketClient, sourceId: number, maxPayment: string, pricePerSecond = '0') {
      const latest = await client.getBlock({ blockTag: 'latest' })
      const deadline = Number(latest.timestamp) + 86_400
      const hash = await client.writeContract({
        address: deployment.contracts.market,
        abi: taskMarketAbi,
        functionName: 'submitTask',
        args: [
          {
            sourceId,
            inputCID: cids.input,
            maxPayment: grid(maxPayment),
            pricePerSecond: grid(pricePerSecond),
            replicas: 1,
            deadline,
            requirements: {
              minGpus: 0,
              minVramMiB: 0,
              minComputeCapability: 0,
              maxRuntimeSec: 0,
              deterministic: false,
            },
            minSuccessBps: 0,
            minCompleted: 0,
            auditBps: 0,
            resultKey: zeroHash,
          },
        ],
      })
      const receipt = await client.waitForTransactionReceipt({ hash })
      const [submitted] = parseEventLogs({
        abi: taskMarketAbi,
        eventName: 'TaskSubmitted',
        logs: receipt.logs,
      })
      if (receipt.status !== 'success' || submitted === undefined)
        throw new Error(`submitTask failed: ${hash}`)
      const task: TaskRecord = {
        id: submitted.args.taskId,
        client: client.account.address,
        sourceId,
        maxPayment: grid(maxPayment),
        pricePerSecond: grid(pricePerSecond),
        deadline,
        escrow: submitted.args.escrow,
        submitted: { block: receipt.blockNumber, time: await blockTime(receipt.blockNumber), hash },
        reopened: [],
      }
      tasks.set(task.id, task)
      return task
    },

    async claim(provider: MarketClient, taskId: bigint) {
      const claimed = await claimTask(provider, { deployment, taskId })
      const task = record(taskId)
      const time = await blockTime(claimed.blockNumber)
      task.firstClaimTime ??= time
      task.claim = {
        provider: provider.account.address,
        slot: claimed.slot,
        block: claimed.blockNumber,
        time,
        dueAt: Math.floor(claimed.dueAt.getTime() / 1000),
        collateral: claimed.collateral,
      }
    },

    async deliver(provider: MarketClient, taskId: bigint, failure?: Failure) {
      const settled = await submitResult(provider, {
        deployment,
        taskId,
        result: failure === undefined ? cids.output : cids.logs,
        failure,
        receipt: cids.receipt,
        runtimeSec: 30,
      })
      record(taskId).result = {
        result: settled.result,
        digest: settled.digest,
        failure: settled.failure,
        runtimeSec: settled.runtimeSec,
        payment: settled.payment,
        fee: settled.fee,
        refund: settled.refund,
        block: settled.blockNumber,
        time: await blockTime(settled.blockNumber),
      }
    },

    /** Moves the chain's clock past `unix` and mines a block. */
    async timeTravelPast(unix: number) {
      const latest = Number((await deployer.getBlock({ blockTag: 'latest' })).timestamp)
      await deployer.request({
        method: 'evm_increaseTime',
        params: [Math.max(unix - latest + 1, 1)],
      } as never)
      await deployer.request({ method: 'hardhat_mine', params: ['0x1'] } as never)
    },

    /** Reopens the overdue slot of a task (anyone may), slashing its claimant. */
    async reopen(by: MarketClient, taskId: bigint, slot: number) {
      const reopened = await reopenSlot(by, { deployment, taskId, slot })
      const task = record(taskId)
      task.reopened.push({
        provider: reopened.provider,
        slot,
        slashed: reopened.slashed,
        toClient: reopened.toClient,
        time: await blockTime(reopened.blockNumber),
      })
      task.claim = undefined
    },

    async cancel(client: MarketClient, taskId: bigint) {
      const cancelled = await cancelTask(client, { deployment, taskId })
      record(taskId).cancelled = {
        block: cancelled.blockNumber,
        time: await blockTime(cancelled.blockNumber),
        refund: cancelled.refund,
      }
    },
  }
}

export type Market = Awaited<ReturnType<typeof openMarket>>
