import { parseUnits, stringToHex, zeroHash } from 'viem'
import { describe, expect, it } from 'vitest'
import { deployerClient, deployment, fundedClient } from '../../test/chain.js'
import { publish, errors as sourceErrors } from '../abis/sourceRegistry.js'
import { ContractRevertedError } from '../errors/contract.js'
import { InvalidParametersError } from '../errors/validation.js'
import { submitTask } from './submitTask.js'

const input = 'bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku'

async function publishSource(deterministic = false) {
  const client = deployerClient()
  const { result, request } = await client.simulateContract({
    address: deployment().contracts.sources,
    abi: [publish, ...sourceErrors],
    functionName: 'publish',
    args: [
      stringToHex('image', { size: 32 }),
      input,
      { minGpus: 0, minVramMiB: 0, minComputeCapability: 0, maxRuntimeSec: 600, deterministic },
      0,
      0,
      0,
      0,
    ],
  })
  await client.waitForTransactionReceipt({ hash: await client.writeContract(request) })
  return result
}

describe('submitTask', () => {
  it('escrows from an approved allowance and returns the task id', async () => {
    const sourceId = await publishSource()
    const client = await fundedClient()
    await client.waitForTransactionReceipt({
      hash: await client.writeContract({
        address: deployment().contracts.token,
        abi: (await import('viem')).erc20Abi,
        functionName: 'approve',
        args: [deployment().contracts.market, parseUnits('10', 18)],
      }),
    })
    const result = await client.submitTask({ sourceId, input, maxPayment: '5', deadline: '2h' })
    expect(result.taskId).toBeGreaterThan(0n)
    expect(result.escrow).toBe(parseUnits('5', 18))
    // No result key: the output is published in the clear.
    expect(result.resultKey).toBe(zeroHash)
    expect(result.hash).toMatch(/^0x[0-9a-f]{64}$/)
    const block = await client.getBlock({ blockNumber: result.blockNumber })
    expect(result.deadline).toBeGreaterThan(Number(block.timestamp) + 7_000)
  })

  it("names the client's result key in the task", async () => {
    const sourceId = await publishSource()
    const client = await fundedClient()
    await client.waitForTransactionReceipt({
      hash: await client.writeContract({
        address: deployment().contracts.token,
        abi: (await import('viem')).erc20Abi,
        functionName: 'approve',
        args: [deployment().contracts.market, parseUnits('1', 18)],
      }),
    })
    const resultKey = `0x${'5a'.repeat(32)}` as const
    const submitted = await client.submitTask({ sourceId, input, maxPayment: '1', resultKey })
    expect(submitted.resultKey).toBe(resultKey)
    expect(await client.getTask({ taskId: submitted.taskId, includeInput: true })).toMatchObject({
      inputCID: input,
      resultKey,
    })
    const error = await submitTask(client, {
      deployment: deployment(),
      sourceId,
      input,
      maxPayment: '1',
      resultKey: '0x1234',
    }).catch((error: unknown) => error)
    expect((error as InvalidParametersError).fields).toEqual([
      { path: 'resultKey', message: 'expected 32 bytes as hex: 0x followed by 64 hex digits' },
    ])
  })

  it('names every bad field before sending anything', async () => {
    const client = await fundedClient({ grid: '0' })
    const error = await submitTask(client, {
      deployment: deployment(),
      sourceId: 1,
      input: 'not-a-cid',
      maxPayment: 5 as never,
      replicas: 9,
      deadline: '3 weeks' as never,
    }).catch((error: unknown) => error)
    expect(error).toBeInstanceOf(InvalidParametersError)
    const fields = (error as InvalidParametersError).fields.map((field) => field.path)
    expect(fields).toEqual(['input', 'maxPayment', 'replicas', 'deadline'])
    expect((error as InvalidParametersError).message).toContain("pass the string '5'")
    expect(await client.getTransactionCount({ address: client.account.address })).toBe(0)
  })

  it('refuses 0 replicas before sending anything', async () => {
    const client = await fundedClient({ grid: '0' })
    const error = await submitTask(client, {
      deployment: deployment(),
      sourceId: 1,
      input,
      maxPayment: '1',
      replicas: 0,
    }).catch((error: unknown) => error)
    expect(error).toBeInstanceOf(InvalidParametersError)
    expect((error as InvalidParametersError).fields).toEqual([
      expect.objectContaining({ path: 'replicas', message: 'expected a whole number from 1 to 7' }),
    ])
  })

  it('turns an unfunded submission into a typed revert with a hint', async () => {
    const sourceId = await publishSource()
    const client = await fundedClient({ grid: '0' })
    const error = await client
      .submitTask({ sourceId, input, maxPayment: '5' })
      .catch((error: unknown) => error)
    expect(error).toBeInstanceOf(ContractRevertedError)
    const reverted = error as ContractRevertedError
    expect(reverted.errorName).toBe('TaskMarketInsufficientBalance')
    expect(reverted.args).toEqual([client.account.address, 0n, parseUnits('5', 18)])
    expect(reverted.hint).toBe(
      'balance 0 GRID < 5 GRID needed: deposit, or approve the market to pull the rest',
    )
  })

  it('escrows twice maxPayment for an auditable task, and takes a higher audit probability', async () => {
    const sourceId = await publishSource(true)
    const client = await fundedClient()
    await client.approveMarket({ amount: '100' })
    // One replica of a deterministic source: the second maxPayment pays the first auditor if drawn.
    const audited = await client.submitTask({ sourceId, input, maxPayment: '5', auditBps: 2_500 })
    expect(audited.escrow).toBe(parseUnits('10', 18))
    const task = await client.getTask({ taskId: audited.taskId })
    expect(task.auditBps).toBe(2_500)
    expect(task.collateral).toBe(parseUnits('15', 18))
    // Left out: the market's default (10 %), 9 × maxPayment of collateral.
    const byDefault = await client.getTask({
      taskId: (await client.submitTask({ sourceId, input, maxPayment: '1' })).taskId,
    })
    expect(byDefault).toMatchObject({ auditBps: 1_000, collateral: parseUnits('9', 18) })
    // Replicas are not audited: they check each other.
    const replicated = await client.submitTask({
      sourceId,
      input,
      maxPayment: '1',
      replicas: 2,
      auditBps: 5_000,
    })
    expect(replicated.escrow).toBe(parseUnits('2', 18))
  })

  it('refuses an audit probability out of range', async () => {
    const sourceId = await publishSource(true)
    const client = await fundedClient()
    const invalid = await client
      .submitTask({ sourceId, input, maxPayment: '1', auditBps: 10_001 })
      .catch((error: unknown) => error)
    expect((invalid as InvalidParametersError).fields.map((field) => field.path)).toEqual(['auditBps'])
    const low = await client
      .submitTask({ sourceId, input, maxPayment: '1', auditBps: 500 })
      .catch((error: unknown) => error)
    expect((low as ContractRevertedError).errorName).toBe('TaskMarketInvalidAuditBps')
    expect((low as ContractRevertedError).hint).toBe(
      "auditBps 500 is below the market's audit probability (1000): leave it out for the default, or ask for 1000 to 10000",
    )
  })

  it('refuses replicas on a non-deterministic source with the contract error', async () => {
    const sourceId = await publishSource(false)
    const client = await fundedClient()
    const error = await client
      .submitTask({ sourceId, input, maxPayment: '1', replicas: 3 })
      .catch((error: unknown) => error)
    expect((error as ContractRevertedError).errorName).toBe('TaskMarketSourceNotDeterministic')
    expect((error as ContractRevertedError).hint).toContain('replicas: 1')
  })
})
