import { parseUnits } from 'viem'
import { describe, expect, it } from 'vitest'
import { deployment, fundedClient, testClient } from '../../test/chain.js'
import {
  anyCid,
  cancel,
  claim,
  closeJoining,
  commit,
  join,
  publishSource,
  registerFixtureProvider,
  reveal,
  sealOfResult,
  submit,
  submitFixtureTasks,
} from '../../test/fixtures.js'
import { TaskNotFoundError } from '../errors/task.js'
import { getTask } from './getTask.js'
import { getTaskResult } from './getTaskResult.js'

const result = (taskId: bigint) => getTaskResult(testClient(), { deployment: deployment(), taskId })

describe('getTaskResult', () => {
  it('returns the result, receipt, runtime and payment of a completed single-replica task', async () => {
    const d = deployment()
    const [client, provider] = await Promise.all([fundedClient(), fundedClient()])
    const sourceId = await publishSource(client, d)
    await registerFixtureProvider(provider, d, [sourceId])
    const {
      taskIds: [taskId = 0n],
    } = await submitFixtureTasks(client, d, { sourceId, maxPayment: '3' })
    expect(await result(taskId)).toEqual({
      taskId,
      status: 'Open',
      resultCID: undefined,
      failed: false,
      results: [],
      settlement: undefined,
    })

    await claim(provider, d, taskId)
    const receiptCID = 'bafkreiaxnnnb7qz2focittuqq3ya25q7rcv3bqynnczfzao3bnyb7qwzuy'
    const { transactionHash, blockNumber } = await submit(provider, d, taskId, {
      result: 'bafkreiresultresultresult',
      receipt: receiptCID,
      runtimeSec: 42,
    })
    const { feeBps, slots } = await getTask(testClient(), { deployment: d, taskId })
    const { timestamp } = await provider.getBlock({ blockNumber })
    const claimedAt = (slots[0]?.claimedAt?.getTime() ?? 0) / 1000
    // The runtime counted is capped by the time since the claim.
    const runtimeSec = Math.min(42, Number(timestamp) - claimedAt)
    const payment = parseUnits('3', 18)
    expect(await result(taskId)).toEqual({
      taskId,
      status: 'Completed',
      resultCID: 'bafkreiresultresultresult',
      failed: false,
      results: [
        {
          slot: 0,
          provider: provider.account.address,
          resultCID: 'bafkreiresultresultresult',
          receiptCID,
          runtimeSec,
          // The seal handed in (of the fixture's digest, for a CID that is not sha2-256).
          resultDigest: sealOfResult(taskId, 'bafkreiresultresultresult'),
          accepted: true,
          hash: transactionHash,
          blockNumber,
        },
      ],
      settlement: {
        taskId,
        client: client.account.address,
        status: 'Completed',
        // A single result settled as it was submitted names its seal.
        resultDigest: sealOfResult(taskId, 'bafkreiresultresultresult'),
        paid: payment,
        refund: 0n,
        payments: [
          { slot: 0, provider: provider.account.address, payment, fee: (payment * BigInt(feeBps)) / 10_000n },
        ],
        slashes: [],
        hash: transactionHash,
        blockNumber,
      },
    })
  })

  it('marks the majority of three replicas accepted and the outvoted one slashed once the dispute is upheld', async () => {
    const d = deployment()
    const client = await fundedClient()
    const [auditor, ...providers] = await Promise.all([
      fundedClient(),
      fundedClient(),
      fundedClient(),
      fundedClient(),
    ])
    const sourceId = await publishSource(client, d, { deterministic: true })
    await Promise.all(
      [auditor, ...providers].map((provider) => registerFixtureProvider(provider, d, [sourceId])),
    )
    const {
      taskIds: [taskId = 0n],
    } = await submitFixtureTasks(client, d, { sourceId, replicas: 3 })
    const outputs = ['bafkreimajority', 'bafkreiminority', 'bafkreimajority']
    for (const provider of providers) await claim(provider, d, taskId)
    for (const [index, provider] of providers.entries())
      await commit(provider, d, taskId, outputs[index] ?? '')
    for (const [index, provider] of providers.entries())
      await reveal(provider, d, taskId, outputs[index] ?? '')
    // The results differ: disputed, no settlement until its auditor reveals.
    expect(await result(taskId)).toMatchObject({
      status: 'Auditing',
      resultCID: undefined,
      settlement: undefined,
    })
    expect(await join(auditor, d, taskId)).toBe(3)
    await closeJoining(auditor, d, taskId)
    await commit(auditor, d, taskId, 'bafkreimajority')
    await reveal(auditor, d, taskId, 'bafkreimajority')

    const { status, resultCID, results, settlement } = await result(taskId)
    expect(status).toBe('Completed')
    expect(resultCID).toBe('bafkreimajority')
    expect(results.map((slot) => [slot.slot, slot.provider, slot.resultCID, slot.accepted])).toEqual([
      [0, providers[0]?.account.address, 'bafkreimajority', true],
      [1, providers[1]?.account.address, 'bafkreiminority', false],
      [2, providers[2]?.account.address, 'bafkreimajority', true],
      // The auditor, after the replicas, paid for confirming the majority.
      [3, auditor.account.address, 'bafkreimajority', true],
    ])
    // Replicas revealed seals; the auditor revealed its digest, which the market sealed into the same.
    const seal = (output: string) => sealOfResult(taskId, output)
    expect(results.map((slot) => slot.resultDigest)).toEqual([...outputs, 'bafkreimajority'].map(seal))
    expect(results.every((slot) => slot.receiptCID === anyCid)).toBe(true)
    expect(settlement?.status).toBe('Completed')
    expect(settlement?.resultDigest).toBe(seal('bafkreimajority'))
    expect(settlement?.audit).toEqual({ verdict: 'upheld', resultDigest: seal('bafkreimajority') })
    expect(settlement?.payments.map((payment) => payment.slot)).toEqual([0, 2, 3])
    expect(settlement?.slashes).toEqual([
      {
        slot: 1,
        provider: providers[1]?.account.address,
        amount: expect.any(BigInt),
        toClient: expect.any(BigInt),
        outvoted: true,
      },
    ])
    // Two replicas and the auditor paid 1 GRID each: the outvoted replica's 0.5 GRID collateral pays half of
    // the auditor, its escrow the rest; the other half of that escrow is refunded.
    expect(settlement?.refund).toBe(parseUnits('0.5', 18))
  })

  it('reports the refund of a cancelled task, and refuses unknown tasks', async () => {
    const d = deployment()
    const client = await fundedClient()
    const sourceId = await publishSource(client, d)
    const {
      taskIds: [taskId = 0n],
    } = await submitFixtureTasks(client, d, { sourceId, maxPayment: '4' })
    const { transactionHash } = await cancel(client, d, taskId)
    const cancelled = await result(taskId)
    expect(cancelled).toMatchObject({ status: 'Cancelled', resultCID: undefined, results: [] })
    expect(cancelled.settlement).toMatchObject({
      status: 'Cancelled',
      paid: 0n,
      refund: parseUnits('4', 18),
      payments: [],
      slashes: [],
      hash: transactionHash,
    })
    await expect(result(999_999_996n)).rejects.toBeInstanceOf(TaskNotFoundError)
  })
})
