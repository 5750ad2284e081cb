import { parseUnits, zeroHash } from 'viem'
import { describe, expect, it } from 'vitest'
import { deployment, fundedClient } from '../../test/chain.js'
import { anyCid, approvedClient, publishTestSource, rejection, tokenBalance } from '../../test/fixtures.js'
import { ContractRevertedError } from '../errors/contract.js'
import { InvalidParametersError } from '../errors/validation.js'
import { submitTasks } from './submitTasks.js'

const grid = (amount: string) => parseUnits(amount, 18)

describe('submitTasks', () => {
  it('submits a batch in one transaction and returns the ids in order', async () => {
    const sourceId = await publishTestSource({ deterministic: true })
    const client = await approvedClient({ grid: '20' })
    const resultKey = `0x${'77'.repeat(32)}` as const
    const result = await submitTasks(client, {
      deployment: deployment(),
      tasks: [
        { sourceId, input: anyCid, maxPayment: '1', auditBps: 5_000 },
        { sourceId, input: anyCid, maxPayment: '2', replicas: 3, deadline: '2h', resultKey },
        {
          sourceId,
          input: anyCid,
          maxPayment: 500_000_000_000_000_000n,
          deadline: new Date(Date.now() + 86_400_000),
        },
      ],
    })
    const [first] = result.taskIds
    expect(result.taskIds).toEqual([first!, first! + 1n, first! + 2n])
    // A single replica of a deterministic source is auditable: it escrows twice its maxPayment.
    expect(result.tasks.map((task) => task.escrow)).toEqual([grid('2'), grid('6'), grid('1')])
    expect(result.escrow).toBe(grid('9'))
    // Each task names its own result key (none: the zero hash).
    expect(result.tasks.map((task) => task.resultKey)).toEqual([zeroHash, resultKey, zeroHash])
    expect(result.tasks[1]!.deadline - result.tasks[0]!.deadline).toBe(2 * 3600 - 86_400)
    expect(await tokenBalance(client.account.address)).toBe(grid('11'))
    // Two transactions: the approval and the whole batch.
    expect(await client.getTransactionCount({ address: client.account.address })).toBe(2)
  })

  it('names every bad field by its place in the batch', async () => {
    const client = await fundedClient({ grid: '0' })
    const error = await rejection(
      submitTasks(client, {
        deployment: deployment(),
        tasks: [
          { sourceId: 1, input: anyCid, maxPayment: '1' },
          { sourceId: 1, input: anyCid, maxPayment: 1 as never },
          { sourceId: 1, input: 'bafy-nope', maxPayment: '1', replicas: 8 },
        ],
      }),
    )
    expect(error).toBeInstanceOf(InvalidParametersError)
    expect((error as InvalidParametersError).fields.map((field) => field.path)).toEqual([
      'tasks.1.maxPayment',
      'tasks.2.input',
      'tasks.2.replicas',
    ])

    const late = await rejection(
      submitTasks(client, {
        deployment: deployment(),
        tasks: [
          { sourceId: 1, input: anyCid, maxPayment: '1', deadline: '31d' },
          { sourceId: 1, input: anyCid, maxPayment: '1', deadline: '1h' },
          { sourceId: 1, input: anyCid, maxPayment: '1', deadline: new Date(0) },
        ],
      }),
    )
    expect((late as InvalidParametersError).fields.map((field) => field.path)).toEqual([
      'tasks.0.deadline',
      'tasks.2.deadline',
    ])

    const empty = await rejection(submitTasks(client, { deployment: deployment(), tasks: [] }))
    expect((empty as InvalidParametersError).fields).toEqual([
      { path: 'tasks', message: 'pass at least one task' },
    ])
    expect(await client.getTransactionCount({ address: client.account.address })).toBe(0)
  })

  it('reverts the whole batch when one task is refused', async () => {
    const deterministic = await publishTestSource({ deterministic: true })
    const plain = await publishTestSource()
    const client = await approvedClient({ grid: '20' })
    const error = (await rejection(
      submitTasks(client, {
        deployment: deployment(),
        tasks: [
          { sourceId: deterministic, input: anyCid, maxPayment: '1', replicas: 2 },
          { sourceId: plain, input: anyCid, maxPayment: '1', replicas: 2 },
        ],
      }),
    )) as ContractRevertedError
    expect(error).toBeInstanceOf(ContractRevertedError)
    expect(error.errorName).toBe('TaskMarketSourceNotDeterministic')
    expect(error.args).toEqual([plain])
    expect(error.hint).toContain('use replicas: 1')
    expect(await tokenBalance(client.account.address)).toBe(grid('20'))
  })
})
