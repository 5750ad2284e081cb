import { parseUnits } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { deployerClient, deployment, fundedClient, testClient } from '../../test/chain.js'
import {
  cancel,
  cids,
  claim,
  closeJoining,
  commit,
  endSeatRace,
  type FixtureClient,
  finalize,
  join,
  publishSource,
  randomBytes32,
  registerFixtureProvider,
  reveal,
  submit,
  submitFixtureTasks,
} from '../../test/fixtures.js'
import { ContractRevertedError } from '../errors/contract.js'
import { InvalidParametersError } from '../errors/validation.js'
import type { ContentStore } from '../storage/ContentStore.js'
import { memoryStore } from '../storage/memoryStore.js'
import { type Failure, failureDigest } from '../tasks/failures.js'
import {
  ReceiptNotFoundError,
  ReceiptNotSubmittedError,
  ReceiptTooLargeError,
  TaskNotSettledError,
} from './errors.js'
import { getReceipt } from './getReceipt.js'
import type { Receipt, UnsignedReceipt } from './schema.js'
import { signReceipt } from './signReceipt.js'
import { receiptTypedData } from './typedData.js'

const hardware = {
  gpus: [{ name: 'NVIDIA L4', vramMiB: 23_034, computeCapability: 89 }],
  cpuCores: 8,
  memoryMiB: 32_768,
}
const maxPayment = parseUnits('5', 18)
const fee = (maxPayment * 500n) / 10_000n

/** A source, a registered provider subscribed to it, and a client's submitted task. */
async function openTask({ replicas = 1, providers = 1 }: { replicas?: number; providers?: number } = {}) {
  const owner = deployerClient() as unknown as FixtureClient
  const imageDigest = randomBytes32()
  const sourceId = await publishSource(owner, deployment(), {
    deterministic: replicas > 1,
    maxRuntimeSec: 600,
    imageDigest,
    metadata: cids.metadata,
  })
  const hosts = await Promise.all(
    Array.from({ length: providers }, async () => {
      const provider = (await fundedClient()) as unknown as FixtureClient
      await registerFixtureProvider(provider, deployment(), [sourceId])
      return provider
    }),
  )
  const client = await fundedClient()
  const {
    taskIds: [taskId = 0n],
  } = await submitFixtureTasks(client as unknown as FixtureClient, deployment(), {
    sourceId,
    replicas,
    maxPayment: '5',
    deadlineIn: 7_200,
  })
  const inputCID = cids.input
  return { client, hosts, sourceId, imageDigest, taskId, inputCID }
}

/** What an honest provider signs for slot `slot` that it claimed at `claimedAt`. */
function honestReceipt(
  task: { sourceId: number; imageDigest: `0x${string}`; taskId: bigint; inputCID: string },
  provider: FixtureClient,
  { slot, claimedAt, runtimeSec }: { slot: number; claimedAt: number; runtimeSec: number },
): UnsignedReceipt {
  return {
    version: 1,
    chainId: 31337,
    market: deployment().contracts.market,
    taskId: String(task.taskId),
    slot,
    sourceId: task.sourceId,
    imageDigest: task.imageDigest,
    inputCID: task.inputCID,
    outputCID: cids.output,
    logsCID: cids.logs,
    provider: provider.account.address,
    startedAt: claimedAt + 2,
    finishedAt: claimedAt + 2 + runtimeSec + 3,
    runtimeSec,
    exitCode: 0,
    hardware,
  }
}

/**
 * A k = 1 task driven to settlement: claimed, 2 minutes pass, then the
 * provider submits `cids.output` with a runtime of 90 s and the receipt
 * `sign` returns (the honest one by default), stored in a memory store.
 */
async function settledTask(
  sign: (honest: UnsignedReceipt, provider: FixtureClient) => Promise<Receipt | Uint8Array | string> = (
    honest,
    provider,
  ) => signReceipt(provider, { receipt: honest }),
  { failure }: { failure?: Failure } = {},
) {
  const task = await openTask()
  const provider = task.hosts[0] as FixtureClient
  const { slot, claimedAt } = await claim(provider, deployment(), task.taskId)
  await testClient().increaseTime({ seconds: 120 })
  const honest = honestReceipt(task, provider, { slot, claimedAt, runtimeSec: 90 })
  // A failed run hands in its logs as the result.
  const result = failure === undefined ? cids.output : cids.logs
  const document = await sign(
    failure === undefined ? honest : { ...honest, outputCID: result, exitCode: failure.exitCode ?? 137 },
    provider,
  )
  const store = memoryStore()
  const receiptCID =
    typeof document === 'string'
      ? document
      : document instanceof Uint8Array
        ? await store.put(document)
        : await store.putJson(document)
  const submitted = await submit(provider, deployment(), task.taskId, {
    result,
    receipt: receiptCID,
    runtimeSec: 90,
    ...(failure === undefined ? {} : { digest: failureDigest(failure) }),
  })
  return { ...task, provider, slot, store, receiptCID, document, submitted }
}

describe('getReceipt', () => {
  it('verifies an honest single-replica receipt against the settlement', async () => {
    const task = await settledTask()
    const results = await getReceipt(task.client, {
      deployment: deployment(),
      taskId: task.taskId,
      store: task.store,
    })
    expect(results).toEqual([
      {
        status: 'verified',
        receipt: task.document,
        settlement: {
          taskId: task.taskId,
          status: 'Completed',
          client: task.client.account.address,
          sourceId: task.sourceId,
          imageDigest: task.imageDigest,
          inputCID: cids.input,
          slot: 0,
          provider: task.provider.account.address,
          resultCID: cids.output,
          receiptCID: task.receiptCID,
          runtimeSec: 90,
          paid: true,
          payment: maxPayment,
          fee,
          totalPaid: maxPayment,
          refund: 0n,
          hash: task.submitted.transactionHash,
          blockNumber: task.submitted.blockNumber,
          resultHash: task.submitted.transactionHash,
          resultBlockNumber: task.submitted.blockNumber,
        },
      },
    ])
    // The task id may be given as a decimal string, and the slot asked for.
    const [again] = await getReceipt(task.client, {
      deployment: deployment(),
      taskId: String(task.taskId),
      store: task.store,
      slot: 0,
    })
    expect(again?.status).toBe('verified')
  })

  it("verifies the receipt of a failed run: its output is the run's logs, its exit code the failure's", async () => {
    const failure = { kind: 'exited', exitCode: 2 } as const
    const task = await settledTask(undefined, { failure })
    const [result] = await getReceipt(task.client, {
      deployment: deployment(),
      taskId: task.taskId,
      store: task.store,
    })
    expect(result).toMatchObject({
      status: 'verified',
      receipt: { outputCID: cids.logs, exitCode: 2 },
      // The source pays no failure fee: paid nothing, never slashed.
      settlement: { status: 'Completed', resultCID: cids.logs, failure, paid: true, payment: 0n },
    })

    const lying = await settledTask(
      (honest, provider) => signReceipt(provider, { receipt: { ...honest, exitCode: 1 } }),
      {
        failure,
      },
    )
    const [mismatch] = await getReceipt(lying.client, {
      deployment: deployment(),
      taskId: lying.taskId,
      store: lying.store,
    })
    expect(mismatch?.status === 'mismatch' && mismatch.mismatches).toEqual([
      { field: 'exitCode', expected: '2', actual: '1' },
    ])

    // Another kind of failure has no exit code on chain: the receipt's is the provider's word.
    const oom = await settledTask(undefined, { failure: { kind: 'outOfMemory' } })
    const [killed] = await getReceipt(oom.client, {
      deployment: deployment(),
      taskId: oom.taskId,
      store: oom.store,
    })
    expect(killed).toMatchObject({
      status: 'verified',
      receipt: { exitCode: 137 },
      settlement: { failure: { kind: 'outOfMemory' } },
    })
  })

  it('names every field of a lying receipt that disagrees with the chain', async () => {
    const task = await settledTask((honest, provider) =>
      signReceipt(provider, {
        receipt: {
          ...honest,
          inputCID: cids.otherOutput,
          outputCID: cids.otherOutput,
          runtimeSec: 95,
          finishedAt: honest.startedAt + 100,
        },
      }),
    )
    const [result] = await getReceipt(task.client, {
      deployment: deployment(),
      taskId: task.taskId,
      store: task.store,
    })
    expect(result).toEqual({
      status: 'mismatch',
      receipt: task.document,
      settlement: expect.objectContaining({ resultCID: cids.output, runtimeSec: 90, paid: true }),
      mismatches: [
        { field: 'inputCID', expected: cids.input, actual: cids.otherOutput },
        { field: 'outputCID', expected: cids.output, actual: cids.otherOutput },
        { field: 'runtimeSec', expected: '90', actual: '95' },
      ],
    })
  })

  it('catches a receipt for another chain, market, task or source', async () => {
    const other = privateKeyToAccount(generatePrivateKey()).address
    const task = await settledTask((honest, provider) =>
      signReceipt(provider, {
        receipt: {
          ...honest,
          chainId: 1,
          market: other,
          taskId: '999999',
          sourceId: honest.sourceId + 1,
          imageDigest: randomBytes32(),
        },
      }),
    )
    const [result] = await getReceipt(task.client, {
      deployment: deployment(),
      taskId: task.taskId,
      store: task.store,
    })
    expect(result?.status).toBe('mismatch')
    expect(result?.status === 'mismatch' && result.mismatches).toEqual([
      { field: 'chainId', expected: '31337', actual: '1' },
      { field: 'market', expected: deployment().contracts.market, actual: other },
      { field: 'taskId', expected: String(task.taskId), actual: '999999' },
      { field: 'sourceId', expected: String(task.sourceId), actual: String(task.sourceId + 1) },
      { field: 'imageDigest', expected: task.imageDigest, actual: result?.receipt?.imageDigest },
    ])
    expect(result?.receipt?.imageDigest).not.toBe(task.imageDigest)
  })

  it('catches a receipt signed by someone other than the claimant', async () => {
    const stranger = privateKeyToAccount(generatePrivateKey())
    const task = await settledTask((honest) =>
      signReceipt(stranger, { receipt: { ...honest, provider: stranger.address } }),
    )
    const [result] = await getReceipt(task.client, {
      deployment: deployment(),
      taskId: task.taskId,
      store: task.store,
    })
    expect(result?.status === 'mismatch' && result.mismatches).toEqual([
      { field: 'provider', expected: task.provider.account.address, actual: stranger.address },
    ])

    // The claimant's address on a stranger's signature: the signature is what fails.
    const forged = await settledTask(async (honest) => ({
      ...honest,
      signature: await stranger.signTypedData(receiptTypedData(honest)),
    }))
    const [forgedResult] = await getReceipt(forged.client, {
      deployment: deployment(),
      taskId: forged.taskId,
      store: forged.store,
    })
    expect(forgedResult?.status === 'mismatch' && forgedResult.mismatches).toEqual([
      {
        field: 'signature',
        expected: `signed by ${forged.provider.account.address}`,
        actual: `signed by ${stranger.address}`,
      },
    ])
  })

  it('reports a document that is not a receipt, or a receipt CID that is not a CID', async () => {
    const malformed = await settledTask(async () => new TextEncoder().encode('{"version": 1, "taskId": '))
    const [result] = await getReceipt(malformed.client, {
      deployment: deployment(),
      taskId: malformed.taskId,
      store: malformed.store,
    })
    expect(result).toEqual({
      status: 'mismatch',
      receipt: undefined,
      settlement: expect.objectContaining({ receiptCID: malformed.receiptCID }),
      mismatches: [
        { field: '(document)', expected: 'a JSON receipt', actual: expect.stringMatching(/^malformed JSON/) },
      ],
    })

    // The market only checks that a CID is 1 to 128 bytes.
    const garbage = await settledTask(async () => 'not a CID at all')
    const [garbageResult] = await getReceipt(garbage.client, {
      deployment: deployment(),
      taskId: garbage.taskId,
      store: garbage.store,
    })
    expect(garbageResult).toEqual({
      status: 'mismatch',
      receipt: undefined,
      settlement: expect.objectContaining({ receiptCID: 'not a CID at all' }),
      mismatches: [
        { field: 'receiptCID', expected: 'a CID of a receipt document', actual: 'not a CID at all' },
      ],
    })
  })

  it('throws typed errors for a missing or oversized document and an unknown slot', async () => {
    const task = await settledTask()
    const parameters = { deployment: deployment(), taskId: task.taskId, store: task.store }

    const missing = await getReceipt(task.client, { ...parameters, store: memoryStore() }).catch(
      (e: unknown) => e,
    )
    expect(missing).toBeInstanceOf(ReceiptNotFoundError)
    expect(missing).toMatchObject({ taskId: task.taskId, slot: 0, cid: task.receiptCID })

    const large = await getReceipt(task.client, { ...parameters, maxBytes: 100 }).catch((e: unknown) => e)
    expect(large).toBeInstanceOf(ReceiptTooLargeError)
    expect(large).toMatchObject({ cid: task.receiptCID, maxBytes: 100 })

    // A store that ignores maxBytes is cut off too.
    const careless: Pick<ContentStore, 'get'> = {
      get: (cid) => task.store.get(cid),
    }
    const cut = await getReceipt(task.client, { ...parameters, store: careless, maxBytes: 100 }).catch(
      (e: unknown) => e,
    )
    expect(cut).toBeInstanceOf(ReceiptTooLargeError)

    const noSlot = await getReceipt(task.client, { ...parameters, slot: 3 }).catch((e: unknown) => e)
    expect(noSlot).toBeInstanceOf(ReceiptNotSubmittedError)
    expect(noSlot).toMatchObject({ slot: 3, status: 'Completed' })

    const bad = await getReceipt(task.client, { ...parameters, taskId: -1n, slot: 9 }).catch(
      (e: unknown) => e,
    )
    expect(bad).toBeInstanceOf(InvalidParametersError)
    expect((bad as InvalidParametersError).fields.map((field) => field.path)).toEqual(['taskId', 'slot'])
  })

  it('refuses tasks that are not settled, were cancelled or do not exist', async () => {
    const store = memoryStore()
    const open = await openTask()
    const openError = await getReceipt(open.client, {
      deployment: deployment(),
      taskId: open.taskId,
      store,
    }).catch((e: unknown) => e)
    expect(openError).toBeInstanceOf(TaskNotSettledError)
    expect(openError).toMatchObject({ taskId: open.taskId, status: 'Open' })

    await claim(open.hosts[0] as FixtureClient, deployment(), open.taskId)
    const claimedError = await getReceipt(open.client, {
      deployment: deployment(),
      taskId: open.taskId,
      store,
    }).catch((e: unknown) => e)
    expect(claimedError).toMatchObject({ name: 'TaskNotSettledError', status: 'Claimed' })

    const cancelled = await openTask()
    await cancel(cancelled.client as unknown as FixtureClient, deployment(), cancelled.taskId)
    const cancelledError = await getReceipt(cancelled.client, {
      deployment: deployment(),
      taskId: cancelled.taskId,
      store,
    }).catch((e: unknown) => e)
    expect(cancelledError).toBeInstanceOf(ReceiptNotSubmittedError)
    expect(cancelledError).toMatchObject({ status: 'Cancelled', slot: undefined })

    const unknown = await getReceipt(open.client, {
      deployment: deployment(),
      taskId: 10n ** 12n,
      store,
    }).catch((e: unknown) => e)
    expect(unknown).toBeInstanceOf(ContractRevertedError)
    expect((unknown as ContractRevertedError).errorName).toBe('TaskMarketUnknownTask')
  })

  it('returns one entry per revealed slot of a consensus task, or the one asked for', async () => {
    const task = await openTask({ replicas: 2, providers: 2 })
    const [first, second] = task.hosts as [FixtureClient, FixtureClient]
    const claims = [
      await claim(first, deployment(), task.taskId),
      await claim(second, deployment(), task.taskId),
    ]
    // The seats were raced for: they start when the race ends.
    await endSeatRace(first, deployment(), task.taskId)
    await testClient().increaseTime({ seconds: 60 })
    const salts = [
      await commit(first, deployment(), task.taskId, cids.output),
      await commit(second, deployment(), task.taskId, cids.output),
    ]
    const store = memoryStore()
    const revealing = await getReceipt(task.client, {
      deployment: deployment(),
      taskId: task.taskId,
      store,
    }).catch((e: unknown) => e)
    expect(revealing).toMatchObject({ name: 'TaskNotSettledError', status: 'Revealing' })

    const receipts = [
      await signReceipt(first, {
        receipt: honestReceipt(task, first, {
          slot: 0,
          claimedAt: claims[0]?.claimedAt ?? 0,
          runtimeSec: 30,
        }),
      }),
      // The second provider signs the wrong slot.
      await signReceipt(second, {
        receipt: honestReceipt(task, second, {
          slot: 0,
          claimedAt: claims[1]?.claimedAt ?? 0,
          runtimeSec: 30,
        }),
      }),
    ]
    const receiptCIDs = [await store.putJson(receipts[0]), await store.putJson(receipts[1])]
    const reveals = []
    for (const [index, provider] of [first, second].entries()) {
      reveals.push(
        await reveal(provider, deployment(), task.taskId, cids.output, {
          receipt: receiptCIDs[index] as string,
          runtimeSec: 30,
          salt: salts[index] as `0x${string}`,
        }),
      )
    }
    const settledIn = reveals[1]
    const results = await getReceipt(task.client, { deployment: deployment(), taskId: task.taskId, store })
    expect(
      results.map((result) => [result.status, result.settlement.slot, result.settlement.provider]),
    ).toEqual([
      ['verified', 0, first.account.address],
      ['mismatch', 1, second.account.address],
    ])
    expect(results[0]?.settlement).toMatchObject({
      status: 'Completed',
      paid: true,
      payment: maxPayment,
      fee,
      totalPaid: 2n * maxPayment,
      refund: 0n,
      hash: settledIn?.transactionHash,
      resultHash: reveals[0]?.transactionHash,
      receiptCID: receiptCIDs[0],
      runtimeSec: 30,
    })
    expect(results[1]?.status === 'mismatch' && results[1].mismatches).toEqual([
      { field: 'slot', expected: '1', actual: '0' },
    ])

    const only = await getReceipt(task.client, {
      deployment: deployment(),
      taskId: task.taskId,
      store,
      slot: 1,
    })
    expect(only).toHaveLength(1)
    expect(only[0]?.settlement.provider).toBe(second.account.address)
  })

  it('returns unpaid entries for a consensus task whose replicas disagreed and whose dispute lapsed', async () => {
    const task = await openTask({ replicas: 2, providers: 2 })
    const hosts = task.hosts as [FixtureClient, FixtureClient]
    const outputs = [cids.output, cids.otherOutput]
    const claims = []
    for (const provider of hosts) claims.push(await claim(provider, deployment(), task.taskId))
    await endSeatRace(hosts[0], deployment(), task.taskId)
    await testClient().increaseTime({ seconds: 60 })
    const salts = []
    for (const [index, provider] of hosts.entries()) {
      salts.push(await commit(provider, deployment(), task.taskId, outputs[index] as string))
    }
    const store = memoryStore()
    for (const [index, provider] of hosts.entries()) {
      const receipt = await signReceipt(provider, {
        receipt: {
          ...honestReceipt(task, provider, {
            slot: index,
            claimedAt: claims[index]?.claimedAt ?? 0,
            runtimeSec: 20,
          }),
          outputCID: outputs[index] as string,
        },
      })
      await reveal(provider, deployment(), task.taskId, outputs[index] as string, {
        receipt: await store.putJson(receipt),
        runtimeSec: 20,
        salt: salts[index] as `0x${string}`,
      })
    }
    // The results differ: a dispute, which nobody joins; it lapses without a majority and the task fails.
    const disputed = await getReceipt(task.client, {
      deployment: deployment(),
      taskId: task.taskId,
      store,
    }).catch((e: unknown) => e)
    expect(disputed).toMatchObject({ name: 'TaskNotSettledError', status: 'Auditing' })
    await closeJoining(hosts[0], deployment(), task.taskId)
    await finalize(hosts[0], deployment(), task.taskId)
    const results = await getReceipt(task.client, { deployment: deployment(), taskId: task.taskId, store })
    expect(results.map((result) => result.status)).toEqual(['verified', 'verified'])
    for (const [index, result] of results.entries()) {
      expect(result.settlement).toMatchObject({
        status: 'Failed',
        audit: 'lapsed',
        slot: index,
        resultCID: outputs[index],
        paid: false,
        payment: 0n,
        fee: 0n,
        totalPaid: 0n,
        refund: 2n * maxPayment,
      })
    }
  })

  it("fails the receipt of a replica whose result a dispute's auditor did not confirm, and gives the auditor's", async () => {
    const task = await openTask({ replicas: 2, providers: 3 })
    const [right, wrong, auditor] = task.hosts as [FixtureClient, FixtureClient, FixtureClient]
    const store = memoryStore()
    const claims = [
      await claim(right, deployment(), task.taskId),
      await claim(wrong, deployment(), task.taskId),
    ]
    await endSeatRace(right, deployment(), task.taskId)
    await testClient().increaseTime({ seconds: 60 })
    const runs = [
      { provider: right, output: cids.output, slot: 0, claimedAt: claims[0]?.claimedAt ?? 0 },
      { provider: wrong, output: cids.otherOutput, slot: 1, claimedAt: claims[1]?.claimedAt ?? 0 },
    ]
    const signed = async (run: (typeof runs)[number]) =>
      store.putJson(
        await signReceipt(run.provider, {
          receipt: {
            ...honestReceipt(task, run.provider, { ...run, runtimeSec: 20 }),
            outputCID: run.output,
          },
        }),
      )
    const salts = []
    for (const run of runs) salts.push(await commit(run.provider, deployment(), task.taskId, run.output))
    for (const [index, run] of runs.entries()) {
      await reveal(run.provider, deployment(), task.taskId, run.output, {
        receipt: await signed(run),
        runtimeSec: 20,
        salt: salts[index] as `0x${string}`,
      })
    }
    // The dispute's auditor (slot 2) finds the first replica's result: it stands, the other is slashed.
    const slot = await join(auditor, deployment(), task.taskId)
    await closeJoining(auditor, deployment(), task.taskId)
    const { timestamp } = await auditor.getBlock({ blockTag: 'latest' })
    const audit = { provider: auditor, output: cids.output, slot, claimedAt: Number(timestamp) }
    await testClient().increaseTime({ seconds: 60 })
    const salt = await commit(auditor, deployment(), task.taskId, cids.output)
    await reveal(auditor, deployment(), task.taskId, cids.output, {
      receipt: await signed(audit),
      runtimeSec: 20,
      salt,
    })

    const results = await getReceipt(task.client, { deployment: deployment(), taskId: task.taskId, store })
    expect(results.map((result) => [result.status, result.settlement.slot, result.settlement.paid])).toEqual([
      ['verified', 0, true],
      ['mismatch', 1, false],
      ['verified', 2, true],
    ])
    expect(results.every((result) => result.settlement.audit === 'upheld')).toBe(true)
    expect(results[1]?.status === 'mismatch' && results[1].mismatches).toEqual([
      { field: '(audit)', expected: 'a result the audit upheld', actual: 'overturned by its audit' },
    ])
  })
})
