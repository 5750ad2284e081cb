/**
 * The CLI end to end on the devnet: a client funds its market balance,
 * publishes a source from a metadata file and submits a task with --wait; a
 * provider driven by this test (with the SDK's actions) claims it, stores an
 * output, logs and a signed receipt in the same content store and submits
 * the result; the client then reads the task, its result, logs and receipt.
 */
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { createWalletClient, type Hex, http, zeroHash } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { hardhat } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createReceipt } from '../../src/receipts/createReceipt.js'
import { deriveResultKey } from '../../src/results/resultKey.js'
import { sealOutput } from '../../src/results/sealOutput.js'
import { fsStore } from '../../src/storage/fsStore.js'
import { importPath } from '../../src/storage/importPath.js'
import { memoryStore } from '../../src/storage/memoryStore.js'
import { claimTask } from '../../src/tasks/claimTask.js'
import { resultDigest } from '../../src/tasks/commitment.js'
import { getTask } from '../../src/tasks/getTask.js'
import { sealResult } from '../../src/tasks/seal.js'
import { submitResult } from '../../src/tasks/submitResult.js'
import { deployment, devnet } from '../chain.js'
import { testProvider } from '../fixtures.js'
import { ensureBuilt, newAccount, runCli, startCli, workspace } from './run.js'

const imageDigest = `0x${'ab'.repeat(32)}` as Hex
const hardware = {
  gpus: [{ name: 'NVIDIA L4', vramMiB: 23_034, computeCapability: 89 }],
  cpuCores: 8,
  memoryMiB: 32_768,
}

type Provider = Awaited<ReturnType<typeof testProvider>>

/**
 * What a provider does with a claimed task: run it (here: uppercase the input), store output, logs and
 * receipt, submit. A task with a result key gets its output sealed to it: the envelope is the result
 * (and the receipt's outputCID), the plain output stays in the provider's store.
 */
async function runAsProvider(
  provider: Provider,
  taskId: bigint,
  storeRoot: string,
  { output = 'HELLO GRIDFORGE\n', lie = false }: { output?: string; lie?: boolean } = {},
) {
  const store = fsStore({ root: storeRoot })
  const claimed = await claimTask(provider, { deployment: deployment(), taskId })
  const task = await getTask(provider, { deployment: deployment(), taskId, includeInput: true })
  const outputCID = await store.putDirectory([
    { path: 'result.txt', content: new TextEncoder().encode(output) },
  ])
  const resultKey = task.resultKey ?? zeroHash
  const resultCID =
    resultKey === zeroHash ? outputCID : (await sealOutput(store, { cid: outputCID, resultKey })).cid
  const logsCID = await store.put(new TextEncoder().encode(`task ${taskId}: processed 1 file\n`))
  const { timestamp } = await provider.getBlock({ blockNumber: claimed.blockNumber })
  const startedAt = Number(timestamp)
  const { cid: receiptCID } = await createReceipt(provider, {
    deployment: deployment(),
    store,
    taskId,
    slot: claimed.slot,
    sourceId: task.sourceId,
    imageDigest,
    inputCID: task.inputCID as string,
    // A lying provider signs a receipt for another output than the one it submits.
    outputCID: lie ? logsCID : resultCID,
    logsCID,
    startedAt,
    finishedAt: startedAt + 1,
    exitCode: 0,
    hardware,
  })
  await submitResult(provider, {
    deployment: deployment(),
    taskId,
    result: resultCID,
    output: outputCID,
    receipt: receiptCID,
    runtimeSec: 1,
  })
  return { outputCID, resultCID, logsCID, receiptCID }
}

describe('gridforge: a task from deposit to verified receipt', () => {
  let space: Awaited<ReturnType<typeof workspace>>
  let env: Record<string, string>
  /** The client's result key, as the CLI derives it from GRIDFORGE_PRIVATE_KEY. */
  const clientKey = () =>
    deriveResultKey(
      createWalletClient({
        account: privateKeyToAccount(env.GRIDFORGE_PRIVATE_KEY as Hex),
        chain: hardhat,
        transport: http(devnet().rpcUrl),
      }),
      { deployment: deployment() },
    )
  let sourceId: number
  let provider: Provider

  beforeAll(async () => {
    const [created, client] = await Promise.all([workspace(), newAccount({ grid: '100' }), ensureBuilt()])
    space = created
    env = { GRIDFORGE_PRIVATE_KEY: client.key }
    const metadata = path.join(space.root, 'source.json')
    await writeFile(
      metadata,
      JSON.stringify({
        name: 'Uppercase',
        image: `ghcr.io/gridforge/uppercase:1@sha256:${imageDigest.slice(2)}`,
        command: ['tr', 'a-z', 'A-Z'],
        resources: { maxRuntimeSec: 600 },
      }),
    )
    const deposit = await runCli([...space.globals, 'wallet', 'deposit', '20'], { env })
    expect(deposit.stderr).not.toContain('error')
    expect(deposit.code).toBe(0)
    expect(deposit.stdout).toMatch(/^deposited 20 GRID: tx 0x[0-9a-f]{64} \(block \d+\)/)

    const published = await runCli(
      [...space.globals, '--json', 'source', 'publish', '--metadata', metadata],
      { env },
    )
    expect(published.code).toBe(0)
    const source = JSON.parse(published.stdout)
    expect(source.imageDigest).toBe(imageDigest)
    sourceId = source.sourceId
    provider = await testProvider([sourceId])
  }, 240_000)
  afterAll(() => space.cleanup())

  it('shows the deposit in the balance, as JSON with bigints as strings', async () => {
    const { code, stdout } = await runCli([...space.globals, '--json', 'wallet', 'balance'], { env })
    expect(code).toBe(0)
    const balance = JSON.parse(stdout)
    expect(balance.balance).toBe('20000000000000000000')
    expect(balance.token).toBe('80000000000000000000')
  })

  it('shows the published source with its metadata', async () => {
    const { code, stdout } = await runCli([...space.globals, 'source', 'show', String(sourceId)], { env })
    expect(code).toBe(0)
    expect(stdout).toContain('name:               Uppercase')
    expect(stdout).toContain('max runtime:        10m')
  })

  it('submits a folder with --wait while a provider runs it, then reads status, result, logs and receipt', async () => {
    const input = path.join(space.root, 'input')
    await mkdir(input)
    await writeFile(path.join(input, 'hello.txt'), 'hello gridforge\n')
    const submit = startCli(
      [
        ...space.globals,
        '--json',
        'task',
        'submit',
        '--source',
        String(sourceId),
        '--input',
        input,
        '--max-payment',
        '5',
        '--deadline',
        '2h',
        '--wait',
        '--timeout',
        '2m',
      ],
      { env, timeout: 150_000 },
    )
    const [, id] = await submit.waitForStderr(/submitted task (\d+)/)
    const taskId = BigInt(id as string)
    const { outputCID, resultCID, logsCID, receiptCID } = await runAsProvider(provider, taskId, space.store)
    const done = await submit.done
    expect(done.stderr).toContain(`task ${taskId}: waiting`)
    expect(done.stderr).toContain(`task ${taskId}: slot 0 claimed by ${provider.account.address}`)
    expect(done.code).toBe(0)
    const [settled] = JSON.parse(done.stdout)
    expect(settled.taskId).toBe(String(taskId))
    // Sealed by default: the chain has the envelope and the seal of the plain output's digest.
    expect(resultCID).not.toBe(outputCID)
    expect(settled.resultCID).toBe(resultCID)
    expect(settled.results[0]).toMatchObject({
      slot: 0,
      resultCID,
      receiptCID,
      resultDigest: sealResult({ taskId, digest: resultDigest(outputCID) }),
    })

    // The input was imported with the SDK's deterministic UnixFS settings; the task names the client's result key.
    const status = await runCli([...space.globals, '--json', 'task', 'status', String(taskId)], { env })
    expect(status.code).toBe(0)
    const task = JSON.parse(status.stdout)
    expect(task.status).toBe('Completed')
    expect(task.inputCID).toBe(await importPath(memoryStore(), input))
    expect(task.maxPayment).toBe('5000000000000000000')
    expect(task.resultKey).toBe((await clientKey()).publicKey)

    const human = await runCli([...space.globals, 'task', 'status', String(taskId)], { env })
    expect(human.stdout).toContain('status:       Completed')
    expect(human.stdout).toContain(`output:       sealed to the client's result key ${task.resultKey}`)

    const out = path.join(space.root, 'result')
    const result = await runCli([...space.globals, 'task', 'result', String(taskId), '--out', out], { env })
    expect(result.code).toBe(0)
    expect(result.stderr).toContain(`task ${taskId}: opening its sealed output ${resultCID}`)
    expect(await readFile(path.join(out, 'result.txt'), 'utf8')).toBe('HELLO GRIDFORGE\n')
    expect(result.stdout).toContain(`wrote 1 file(s), 16 bytes of ${outputCID}`)
    // As JSON: the plain output's CID and the envelope's.
    const listed = await runCli([...space.globals, '--json', 'task', 'result', String(taskId)], { env })
    expect(listed.code).toBe(0)
    expect(JSON.parse(listed.stdout)).toMatchObject({
      cid: outputCID,
      envelope: resultCID,
      entries: [{ name: 'result.txt', type: 'file', size: 16 }],
    })

    // Nobody but the client opens it.
    const stranger = await newAccount({ grid: '0' })
    const refused = await runCli([...space.globals, 'task', 'result', String(taskId)], {
      env: { GRIDFORGE_PRIVATE_KEY: stranger.key },
    })
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain(
      `is not the client of task ${taskId}: it cannot open the task's sealed output`,
    )
    expect(refused.stderr).toContain("Run this with the client's key")
    // Again into the same folder: the file is there, so a usage error (exit 2), and it is left as it was.
    const again = await runCli([...space.globals, 'task', 'result', String(taskId), '--out', out], { env })
    expect(again.code).toBe(2)
    expect(again.stderr).toContain('result.txt already exists: outputs never overwrite files')
    expect(await readFile(path.join(out, 'result.txt'), 'utf8')).toBe('HELLO GRIDFORGE\n')

    const logs = await runCli([...space.globals, 'task', 'logs', String(taskId)], { env })
    expect(logs.code).toBe(0)
    expect(logs.stdout).toBe(`task ${taskId}: processed 1 file\n`)

    const verify = await runCli([...space.globals, 'receipt', 'verify', String(taskId)], { env })
    expect(verify.code).toBe(0)
    expect(verify.stdout).toContain(`receipt ${receiptCID} verified`)

    const show = await runCli([...space.globals, '--json', 'receipt', 'show', String(taskId)], { env })
    expect(show.code).toBe(0)
    const [receipt] = JSON.parse(show.stdout)
    expect(receipt.status).toBe('verified')
    expect(receipt.receipt.logsCID).toBe(logsCID)
    expect(receipt.settlement.payment).toBe('5000000000000000000')

    const list = await runCli(
      [...space.globals, '--json', 'task', 'list', '--mine', '--status', 'Completed'],
      { env },
    )
    expect(JSON.parse(list.stdout).map((item: { taskId: string }) => item.taskId)).toContain(String(taskId))
  })

  it('exits 7 when the receipt does not match the chain, listing the field', async () => {
    const submit = await runCli(
      [
        ...space.globals,
        '--json',
        'task',
        'submit',
        '--source',
        String(sourceId),
        '--input',
        space.deploymentFile,
        '--max-payment',
        '1',
      ],
      { env },
    )
    expect(submit.code).toBe(0)
    const [{ taskId }] = JSON.parse(submit.stdout)
    await runAsProvider(provider, BigInt(taskId), space.store, { lie: true })
    const verify = await runCli([...space.globals, 'receipt', 'verify', taskId], { env })
    expect(verify.code).toBe(7)
    expect(verify.stderr).toContain(`the receipt of task ${taskId} failed verification`)
    expect(verify.stderr).toContain('outputCID')
    const json = await runCli([...space.globals, '--json', 'receipt', 'verify', taskId], { env })
    expect(json.code).toBe(7)
    expect(JSON.parse(json.stdout).error.mismatches.map((item: { field: string }) => item.field)).toContain(
      'slot 0: outputCID',
    )
  })

  it('exits 7 when the store serves bytes that do not match the output CID', async () => {
    // In the clear (--no-seal): the client reads the provider's output blocks as they are in the store.
    const submit = await runCli(
      [
        ...space.globals,
        '--json',
        'task',
        'submit',
        '--source',
        String(sourceId),
        '--input',
        space.deploymentFile,
        '--max-payment',
        '1',
        '--no-seal',
      ],
      { env },
    )
    const [{ taskId, resultKey }] = JSON.parse(submit.stdout)
    expect(resultKey).toBe(zeroHash)
    // The provider's output goes to a store of its own, whose one file block is then damaged on disk.
    const own = path.join(space.root, 'provider-store')
    await runAsProvider(provider, BigInt(taskId), own, { output: 'x'.repeat(64) })
    const blocks: string[] = []
    const walk = async (directory: string) => {
      for (const entry of await readdir(directory, { withFileTypes: true })) {
        const file = path.join(directory, entry.name)
        if (entry.isDirectory()) await walk(file)
        else blocks.push(file)
      }
    }
    await walk(path.join(own, 'blocks'))
    for (const block of blocks) {
      const bytes = await readFile(block)
      // Raw leaves hold the output itself: swap its bytes, keep the length.
      if (bytes.toString() === 'x'.repeat(64)) await writeFile(block, 'y'.repeat(64))
    }
    const out = path.join(space.root, 'damaged')
    const result = await runCli(
      ['--deployment', space.deploymentFile, '--store', own, 'task', 'result', taskId, '--out', out],
      { env },
    )
    expect(result.code).toBe(7)
    expect(result.stderr).toContain('failed verification: its bytes do not match the CID')
    const written = await stat(path.join(out, 'result.txt')).catch(() => undefined)
    expect(written === undefined || written.size < 64).toBe(true)
  })

  it('exits 5 when waiting times out and 4 when the task is cancelled', async () => {
    const submit = await runCli(
      [
        ...space.globals,
        '--json',
        'task',
        'submit',
        '--source',
        String(sourceId),
        '--input',
        space.deploymentFile,
        '--max-payment',
        '1',
      ],
      { env },
    )
    const [{ taskId }] = JSON.parse(submit.stdout)
    const timedOut = await runCli([...space.globals, 'task', 'watch', taskId, '--timeout', '2s'], { env })
    expect(timedOut.code).toBe(5)
    expect(timedOut.stderr).toContain(`waiting for task ${taskId}`)

    const watch = startCli([...space.globals, 'task', 'watch', taskId], { env })
    await watch.waitForStderr(new RegExp(`task ${taskId}: waiting`))
    const cancel = await runCli([...space.globals, 'task', 'cancel', taskId], { env })
    expect(cancel.code).toBe(0)
    expect(cancel.stdout).toContain(`cancelled task ${taskId}: 1 GRID refunded`)
    const watched = await watch.done
    expect(watched.code).toBe(4)
    expect(watched.stderr).toContain(`Task ${taskId} was cancelled.`)
  })

  it('submits an array of tasks from a file in one transaction', async () => {
    const inputs = path.join(space.root, 'batch')
    await mkdir(inputs)
    await writeFile(path.join(inputs, 'a.txt'), 'a')
    const file = path.join(space.root, 'tasks.json')
    await writeFile(
      file,
      JSON.stringify([
        { sourceId, input: './batch/a.txt', maxPayment: 1, deadline: '1h' },
        { sourceId, input: await importPath(memoryStore(), path.join(inputs, 'a.txt')), maxPayment: '0.5' },
      ]),
    )
    const { code, stdout } = await runCli([...space.globals, '--json', 'task', 'submit', '--file', file], {
      env,
    })
    expect(code).toBe(0)
    const submitted = JSON.parse(stdout)
    expect(submitted).toHaveLength(2)
    expect(BigInt(submitted[1].taskId)).toBe(BigInt(submitted[0].taskId) + 1n)
    expect(submitted[0].hash).toBe(submitted[1].hash)
    expect(submitted[0].input).toBe(submitted[1].input)
    expect(submitted[1].escrow).toBe('500000000000000000')
  })

  it('names a typo in a task file', async () => {
    const file = path.join(space.root, 'typo.json')
    await writeFile(file, JSON.stringify({ sourceId, input: 'x', maxPayment: '1', deadlne: '1h' }))
    const { code, stderr } = await runCli([...space.globals, 'task', 'submit', '--file', file], { env })
    expect(code).toBe(2)
    expect(stderr).toContain('unknown field(s) deadlne')
  })
})
