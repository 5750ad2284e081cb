import { randomBytes } from 'node:crypto'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { leaseMarketAbi } from '@gridforge/contracts'
import {
  type Deployment,
  type GetLeaseParamsReturnType,
  getLease,
  getLeaseEnd,
  getLeaseParams,
} from '@gridforge/sdk'
import type { ContentStore } from '@gridforge/sdk/storage'
import { type Account, type Chain, type Client, getAbiItem, type Log, type Transport } from 'viem'
import { getBlock, getLogs } from 'viem/actions'
import { type LeaseGateway, startLeaseGateway } from '../../lease/leaseGateway.js'
import { freePort } from '../../lease/nginx/freePort.js'
import { type NginxDataPath, nginxAvailable, nginxDataPath } from '../../lease/nginx/nginxDataPath.js'
import { onChainLeaseAuthority } from '../../lease/onChainLeaseAuthority.js'
import type { Logger } from '../../logger.js'
import type { ContainerRuntime } from '../../runtime/ContainerRuntime.js'
import { dockerLeaseRuntime } from '../../runtime/dockerLeaseRuntime.js'
import type { GpuPool } from '../../runtime/gpuPool.js'
import type { LeaseRuntime } from '../../runtime/LeaseRuntime.js'
import type { LeasePolicy } from '../AgentOptions.js'
import { firstBlockAtOrAfter } from '../backlog.js'
import { messageOf } from '../errorKind.js'
import { LeaseSourceRefusedError } from '../errors.js'
import { writeDurably } from '../journal.js'
import { type LeaseEntry, openLeaseJournal } from './leaseJournal.js'
import { leaseContainerSpec, readLeaseSource } from './leaseSource.js'
import { type LeaseContext, leaseSteps } from './leaseSteps.js'

/** The lease market events the provider acts on. */
const leaseEvents = [
  getAbiItem({ abi: leaseMarketAbi, name: 'LeaseRequested' }),
  getAbiItem({ abi: leaseMarketAbi, name: 'OfflineReported' }),
  getAbiItem({ abi: leaseMarketAbi, name: 'LeaseEnded' }),
  getAbiItem({ abi: leaseMarketAbi, name: 'LeaseSettled' }),
] as const

type LeaseLog = Log<bigint, number, false, undefined, true, typeof leaseEvents>

/** The leases' side of a running agent. */
export interface RunningLeases {
  gateway: LeaseGateway
  /** Leases not done. */
  leases(): bigint[]
  /** Stops following and closes the gateway; lease containers keep running and leases are not ended. */
  stop(): Promise<void>
}

/** A request is taken only this long before its `acceptBy` (a first start reads the requests of the last 30 days). */
const maxAcceptWindowSec = 30n * 86_400n

/**
 * Runs the agent's leases: follows `LeaseRequested` (from a journaled cursor; a first start reads
 * the requests that may still be accepted), accepts what the policy allows, and moves each lease's
 * journal entry through its steps (see `leaseSteps.ts`) on every new block range and every
 * `pollingInterval`. A restart resumes every entry: a running container is re-attached, never
 * restarted; stopping ends no lease.
 */
export async function runLeases(parameters: {
  client: Client<Transport, Chain, Account>
  deployment: Deployment
  store: ContentStore
  runtime: ContainerRuntime
  /** The host's GPUs, shared with the tasks: a lease of a source that needs GPUs holds them while it runs. */
  gpus: GpuPool
  policy: LeasePolicy
  sources: readonly number[] | undefined
  allowEgress: boolean
  owner: string
  dataDir: string
  pollingInterval: number
  transact: <T>(send: () => Promise<T>) => Promise<T>
  logger: Logger
  signal: AbortSignal
}): Promise<RunningLeases> {
  const { client, deployment, gpus, policy, logger, signal, pollingInterval } = parameters
  const leaseMarket = deployment.contracts.leases
  const address = client.account.address
  const minPricePerSec = policy.minPricePerSec ?? (policy.minPricePerHour ?? 0n) / 3_600n
  const maxPenaltySec = policy.maxPenaltySec ?? 3_600
  const maxConcurrent = policy.maxConcurrent ?? 1
  const leases: LeaseRuntime =
    policy.runtime ?? dockerLeaseRuntime({ owner: `${parameters.owner}:leases`, logger })
  const journal = await openLeaseJournal(join(parameters.dataDir, 'leases'))
  const entries = new Map<string, LeaseEntry>()
  for (const journaled of await journal.list()) {
    if (journaled.step === 'done') continue
    let entry = journaled
    // A lease resumed after a restart holds its GPUs again (its container is pinned to them).
    if (entry.gpus !== undefined && gpus.acquireExactly(entry.gpus) === undefined) {
      logger.warn('a resumed lease does not get its GPUs back: they are taken or gone', {
        leaseId: entry.leaseId,
        gpus: entry.gpus,
      })
      entry = { ...entry, gpus: undefined }
    }
    entries.set(entry.leaseId, entry)
  }

  // Chain time, moved on by the wall clock between blocks: what acknowledgements are checked against.
  let chainOffsetMs = 0
  const chainNow = () => Math.floor((Date.now() + chainOffsetMs) / 1000)
  const latest = await getBlock(client, { blockTag: 'latest' })
  chainOffsetMs = Number(latest.timestamp) * 1000 - Date.now()

  // Kept in the data directory: renters' sessions outlive a restart of the agent.
  const secret = await gatewaySecret(join(parameters.dataDir, 'lease-gateway.key'))
  const startGateway = (dataPath: NginxDataPath | undefined) =>
    startLeaseGateway({
      chainId: client.chain.id,
      leaseMarket,
      provider: address,
      authority: onChainLeaseAuthority({ client, deployment, chainNow, cacheMs: 1_000 }),
      // Behind nginx, the gateway listens on the loopback, on a port of its own.
      hostname: dataPath === undefined ? policy.gateway?.hostname : '127.0.0.1',
      port: dataPath === undefined ? policy.gateway?.port : 0,
      publicHost:
        policy.gateway?.publicHost ?? (dataPath === undefined ? undefined : `localhost:${dataPath.port}`),
      publicScheme: policy.gateway?.publicScheme,
      leaseCheckMs: 1_000,
      secret,
      dataPath,
      chainNow,
      readChainTime: async () => {
        const block = await getBlock(client, { blockTag: 'latest' })
        chainOffsetMs = Number(block.timestamp) * 1000 - Date.now()
        return Number(block.timestamp)
      },
      acks: policy.acks,
      logger,
      // Journaled before the renter is told it was accepted: a restart redeems it all the same.
      onAck: async (leaseId, ack) => {
        const entry = entries.get(leaseId.toString())
        if (entry === undefined) return
        const next = { ...entry, lastAck: ack }
        entries.set(entry.leaseId, next)
        await journal.write(next)
      },
    })
  let dataPath = await nginxDataPathOf({ policy, dataDir: parameters.dataDir, logger })
  let gateway = await startGateway(dataPath)
  if (dataPath !== undefined) {
    try {
      await dataPath.start(gateway)
    } catch (error) {
      await gateway.close()
      await dataPath.stop()
      if (policy.gateway?.dataPath === 'nginx') throw error
      logger.warn('nginx cannot run in front of the lease gateway: the gateway proxies alone', {
        error: messageOf(error),
      })
      dataPath = undefined
      gateway = await startGateway(undefined)
    }
  }

  const params = new Map<number, Promise<GetLeaseParamsReturnType>>()
  const paramsOf = (version: number) => {
    let found = params.get(version)
    if (found === undefined) {
      found = getLeaseParams(client, { deployment, version })
      found.catch(() => params.delete(version))
      params.set(version, found)
    }
    return found
  }

  const context: LeaseContext = {
    client,
    deployment,
    address,
    leases,
    gateway,
    gpus,
    logger,
    transact: parameters.transact,
    redeemEveryMs: policy.redeemEveryMs ?? 6 * 3_600_000,
    now: () => Date.now(),
    containerSpec: (leaseId, sourceId, leaseGpus) =>
      leaseContainerSpec({
        client,
        deployment,
        store: parameters.store,
        runtime: parameters.runtime,
        leaseId,
        sourceId,
        gpus: leaseGpus,
        limits: policy.limits,
        allowEgress: parameters.allowEgress,
        signal,
      }),
  }

  // A `serving` entry of an earlier run is served again: re-attached to its container.
  for (const entry of entries.values())
    if (entry.step === 'serving') entries.set(entry.leaseId, { ...entry, step: 'starting' })

  /** Moves one lease through its steps until one waits; each new state journaled before the next step. */
  const busy = new Set<string>()
  async function advance(leaseId: string): Promise<void> {
    if (busy.has(leaseId)) return
    busy.add(leaseId)
    try {
      for (let steps = 0; steps < 8 && !signal.aborted; steps++) {
        const entry = entries.get(leaseId)
        if (entry === undefined || entry.step === 'done') return
        const id = BigInt(leaseId)
        const [lease, end, block] = await Promise.all([
          getLease(client, { deployment, leaseId: id }),
          getLeaseEnd(client, { deployment, leaseId: id }),
          getBlock(client, { blockTag: 'latest' }),
        ])
        const nowSec = Number(block.timestamp)
        chainOffsetMs = nowSec * 1000 - Date.now()
        const view = { lease, end, params: await paramsOf(lease.paramsVersion), nowSec }
        const next = await leaseSteps[entry.step](context, entry, view)
        if (next === entry) return
        await journal.write(next)
        if (next.step === 'done') entries.delete(leaseId)
        else entries.set(leaseId, next)
        // Room freed (a lease done, its GPUs back in the pool): the requests that waited for it are looked at again.
        if (next.step === 'done' || (entry.gpus !== undefined && next.gpus === undefined))
          void considerWaiting()
        if (next.step === entry.step && next.txHash === entry.txHash) return
      }
    } catch (error) {
      logger.warn('lease step failed, retrying', { leaseId, error: messageOf(error) })
    } finally {
      busy.delete(leaseId)
    }
  }

  const lookAll = () => Promise.all([...entries.keys()].map(advance))

  /**
   * Requests refused for want of room (the GPUs their source needs are taken, or `maxConcurrent` leases
   * run), by lease: looked at again whenever room frees up, until their `acceptBy`. A request that came
   * a moment before a lease ended is not lost for it.
   */
  const waiting = new Map<string, { log: LeaseLog & { eventName: 'LeaseRequested' }; minGpus: number }>()
  const wait = (log: LeaseLog & { eventName: 'LeaseRequested' }, minGpus: number, refusal: string) => {
    logger.info('lease request waits for room', { leaseId: log.args.leaseId, refusal })
    waiting.delete(log.args.leaseId.toString())
    // At most 256: the oldest wait goes first.
    if (waiting.size >= 256) waiting.delete(waiting.keys().next().value as string)
    waiting.set(log.args.leaseId.toString(), { log, minGpus })
  }
  const running = () => [...entries.values()].filter((entry) => entry.step !== 'done').length
  /** The waiting requests there is room for now (GPUs free, fewer than `maxConcurrent` leases), looked at again. */
  async function considerWaiting(): Promise<void> {
    for (const [key, { log, minGpus }] of [...waiting]) {
      const expired = BigInt(log.args.acceptBy) <= BigInt(chainNow())
      if (!expired && (running() >= maxConcurrent || gpus.free < minGpus)) continue
      waiting.delete(key)
      if (expired) continue
      await consider(log).catch((error: unknown) =>
        logger.warn('a waiting lease request could not be looked at again', {
          leaseId: key,
          error: messageOf(error),
        }),
      )
    }
  }

  /** Accepts a request when the policy allows: journaled `accepting` first, then the step sends it. */
  async function consider(log: LeaseLog & { eventName: 'LeaseRequested' }): Promise<void> {
    const { leaseId, sourceId, maxPricePerSec, penaltySec, acceptBy } = log.args
    const key = leaseId.toString()
    if (entries.has(key)) return
    const refusal =
      parameters.sources !== undefined && !parameters.sources.includes(Number(sourceId))
        ? `source ${sourceId} is not one of the policy's`
        : BigInt(maxPricePerSec) < minPricePerSec
          ? `price ${maxPricePerSec}/s is under the floor ${minPricePerSec}/s`
          : Number(penaltySec) > maxPenaltySec
            ? `penalty ${penaltySec} s is over the policy's ${maxPenaltySec} s`
            : BigInt(acceptBy) <= BigInt(chainNow())
              ? 'its acceptBy has passed'
              : undefined
    if (refusal !== undefined) {
      logger.info('lease request refused', { leaseId, refusal })
      return
    }
    if (running() >= maxConcurrent) return wait(log, 0, `already ${maxConcurrent} leases`)
    // A source it could never run is refused now: accepted, such a lease would only be reported offline.
    const readable = await readLeaseSource({
      client,
      deployment,
      store: parameters.store,
      sourceId: Number(sourceId),
      allowEgress: parameters.allowEgress,
      signal,
    }).catch((error: unknown) => {
      if (error instanceof LeaseSourceRefusedError) return error
      throw error
    })
    if (readable instanceof LeaseSourceRefusedError) {
      logger.info('lease request refused', { leaseId, refusal: readable.reason })
      return
    }
    // The GPUs the source needs, held from now: a task must not take them between acceptance and start.
    const { minGpus } = readable.source.requirements
    const held = gpus.acquire(minGpus)
    if (held === undefined)
      return wait(
        log,
        minGpus,
        `its source needs ${minGpus} GPU${minGpus === 1 ? '' : 's'}, ${gpus.free} free`,
      )
    // The renter's maximum price: what it offered; the floor only decides whether to accept.
    const entry: LeaseEntry = {
      version: 1,
      leaseId: key,
      step: 'accepting',
      sourceId: Number(sourceId),
      pricePerSec: maxPricePerSec.toString(),
      ...(held.length > 0 ? { gpus: held } : {}),
    }
    try {
      await journal.write(entry)
    } catch (error) {
      gpus.release(held)
      throw error
    }
    entries.set(key, entry)
    void advance(key)
  }

  async function onLogs(logs: LeaseLog[]): Promise<void> {
    for (const log of logs) {
      if (log.eventName === 'LeaseRequested')
        await consider(log as LeaseLog & { eventName: 'LeaseRequested' })
      else if (entries.has(log.args.leaseId.toString())) void advance(log.args.leaseId.toString())
    }
  }

  const cursorFile = join(parameters.dataDir, 'lease-cursor.json')
  const market = `${client.chain.id}:${leaseMarket}`.toLowerCase()
  let next: bigint =
    (await readLeaseCursor(cursorFile, market)) ??
    (await firstBlockAtOrAfter(
      client,
      latest.timestamp - maxAcceptWindowSec,
      BigInt(deployment.blockNumber),
      latest.number,
    ))

  void lookAll()
  const following = (async () => {
    let failures = 0
    while (!signal.aborted) {
      try {
        const block = await getBlock(client, { blockTag: 'latest' })
        const head = block.number
        chainOffsetMs = Number(block.timestamp) * 1000 - Date.now()
        while (next <= head && !signal.aborted) {
          const toBlock: bigint = next + 4_999n < head ? next + 4_999n : head
          const logs = (await getLogs(client, {
            address: leaseMarket,
            events: leaseEvents,
            fromBlock: next,
            toBlock,
            strict: true,
          })) as LeaseLog[]
          await onLogs(logs)
          next = toBlock + 1n
          await writeDurably(
            cursorFile,
            `${JSON.stringify({ version: 1, market, block: toBlock.toString() })}\n`,
          )
        }
        await lookAll()
        // GPUs a task gave back also make room.
        await considerWaiting()
        failures = 0
      } catch (error) {
        if (signal.aborted) break
        failures++
        logger.warn('following leases failed, retrying', { error: messageOf(error) })
      }
      await pause(Math.min(30_000, pollingInterval * 2 ** Math.min(failures, 6)), signal)
    }
  })()

  // Renters' requests come in at nginx's address when it is in front.
  const entrance: LeaseGateway = dataPath === undefined ? gateway : { ...gateway, url: dataPath.url }
  logger.info('leases started', {
    gateway: entrance.url,
    publicHost: gateway.publicHost,
    dataPath: dataPath === undefined ? 'node' : 'nginx',
    resumed: entries.size,
  })
  return {
    gateway: entrance,
    leases: () => [...entries.keys()].map(BigInt),
    async stop() {
      await following
      await gateway.close()
      await dataPath?.stop()
    },
  }
}

/** The gateway's session key: read, or made (32 random bytes, readable by the agent's user only). */
async function gatewaySecret(file: string): Promise<Uint8Array> {
  try {
    const key = await readFile(file)
    if (key.length === 32) return key
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  const key = randomBytes(32)
  await writeFile(file, key, { mode: 0o600 })
  return key
}

async function readLeaseCursor(file: string, market: string): Promise<bigint | undefined> {
  try {
    const cursor = JSON.parse(await readFile(file, 'utf8')) as {
      version: number
      market: string
      block: string
    }
    return cursor.version === 1 && cursor.market === market ? BigInt(cursor.block) + 1n : undefined
  } catch {
    return undefined
  }
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve()
    const done = () => {
      clearTimeout(timer)
      signal.removeEventListener('abort', done)
      resolve()
    }
    const timer = setTimeout(done, ms)
    signal.addEventListener('abort', done, { once: true })
  })
}

/**
 * The gateway's nginx data path, as the policy asks (`gateway.dataPath`, default `'auto'`), not
 * started yet; `undefined` when the gateway proxies alone. `'auto'` takes nginx where it and its
 * njs module are installed, and goes on without it (a warning) where it cannot run.
 */
async function nginxDataPathOf({
  policy,
  dataDir,
  logger,
}: {
  policy: LeasePolicy
  dataDir: string
  logger: Logger
}): Promise<NginxDataPath | undefined> {
  const choice = policy.gateway?.dataPath ?? 'auto'
  const paths = policy.gateway?.nginx ?? {}
  if (choice === 'node' || (choice === 'auto' && !(await nginxAvailable(paths)))) return undefined
  const hostname = policy.gateway?.hostname ?? '127.0.0.1'
  try {
    // nginx cannot tell which port the system picked: port 0 is picked here.
    const port = policy.gateway?.port || (await freePort(hostname))
    return await nginxDataPath({
      dir: join(dataDir, 'lease-nginx'),
      hostname,
      port,
      binary: paths.binary,
      njsModule: paths.njsModule,
      logger,
    })
  } catch (error) {
    if (choice === 'nginx') throw error
    logger.warn('nginx cannot run in front of the lease gateway: the gateway proxies alone', {
      error: messageOf(error),
    })
    return undefined
  }
}
