import { type Amount, ContractRevertedError, InvalidParametersError, type Task } from '@gridforge/sdk'
import { waitFor } from '@testing-library/react'
import { ConnectorNotConnectedError } from '@wagmi/core'
import { parseUnits, zeroHash } from 'viem'
import { describe, expect, it } from 'vitest'
import { cids, publishTestSource } from '../../../sdk/test/fixtures.js'
import { testConfig } from '../../test/config.js'
import { renderWithConfig } from '../../test/render.js'
import { useProtocolParams } from './useProtocolParams.js'
import { useSubmitTask } from './useSubmitTask.js'
import { useTasks } from './useTasks.js'
import { useWalletBalance } from './useWalletBalance.js'

const grid = (amount: string) => parseUnits(amount, 18)
const summary = (tasks: Task[] | undefined) => tasks?.map((task) => [task.taskId, task.status])

describe('useSubmitTask', () => {
  it('submits from the connected wallet and returns the task id; the mounted lists and balance update', async () => {
    const { config, client, address } = await testConfig({ grid: '100' })
    const sourceId = await publishTestSource({ owner: client })
    await client.deposit({ amount: '10', approve: true })
    const { result, queryClient } = renderWithConfig(
      () => ({
        tasks: useTasks({ client: address }),
        wallet: useWalletBalance(),
        params: useProtocolParams(),
        submit: useSubmitTask(),
      }),
      { config },
    )
    await waitFor(() => {
      expect(result.current.tasks.data).toEqual([])
      expect(result.current.wallet.data?.balance).toBe(grid('10'))
      expect(result.current.params.isSuccess).toBe(true)
    })

    const submitted = await result.current.submit.mutateAsync({
      sourceId,
      input: cids.input,
      maxPayment: '4',
      replicas: 1,
      deadline: '1h',
    })
    expect(submitted).toEqual({
      taskId: expect.any(BigInt),
      escrow: grid('4'),
      deadline: expect.any(Number),
      // No result key given: the output will be in the clear.
      resultKey: zeroHash,
      hash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      blockNumber: expect.any(BigInt),
    })
    const { taskId } = submitted
    // The escrow came from the market balance; the list, the balance and the task count were refetched
    // before `mutateAsync` resolved.
    const cached = (queryKey: readonly unknown[]) =>
      queryClient.getQueryCache().find({ queryKey, exact: true })?.state.data
    expect(summary(cached(result.current.tasks.queryKey) as Task[])).toEqual([[taskId, 'Open']])
    expect(cached(result.current.wallet.queryKey)).toMatchObject({ balance: grid('6') })
    expect(cached(result.current.params.queryKey)).toMatchObject({ taskCount: taskId })
    await waitFor(() => {
      expect(summary(result.current.tasks.data)).toEqual([[taskId, 'Open']])
      expect(result.current.wallet.data).toEqual({ balance: grid('6'), token: grid('90'), allowance: 0n })
    })
    expect(result.current.tasks.data?.[0]).toMatchObject({
      client: address,
      sourceId,
      maxPayment: grid('4'),
      inputCID: cids.input,
    })
    expect(result.current.tasks.data?.[0]?.deadline.getTime()).toBe(submitted.deadline * 1000)
  })

  it('reports invalid parameters as the SDK’s InvalidParametersError, before any transaction', async () => {
    const { config, client } = await testConfig({ grid: '10' })
    const sourceId = await publishTestSource({ owner: client })
    const { result } = renderWithConfig(() => useSubmitTask(), { config })
    const nonce = await client.getTransactionCount({ address: client.account.address })

    const error = await result.current
      .mutateAsync({ sourceId, input: cids.input, maxPayment: 'abc' as Amount })
      .catch((error: unknown) => error)
    expect(error).toBeInstanceOf(InvalidParametersError)
    const invalid = error as InvalidParametersError
    expect(invalid.name).toBe('InvalidParametersError')
    expect(invalid.shortMessage).toMatch(/^submitTask: invalid `maxPayment`: /)
    expect(invalid.fields.map((field) => field.path)).toEqual(['maxPayment'])
    expect(invalid.metaMessages?.[0]).toMatch(/^- maxPayment: /)
    await waitFor(() => expect(result.current.error).toBe(error))
    expect(result.current.status).toBe('error')
    expect(await client.getTransactionCount({ address: client.account.address })).toBe(nonce)
  })

  it("reports the market's revert for a source that does not exist, decoded", async () => {
    const { config, client } = await testConfig({ grid: '10' })
    await client.deposit({ amount: '10', approve: true })
    const { result } = renderWithConfig(() => useSubmitTask(), { config })
    const error = await result.current
      .mutateAsync({ sourceId: 999_999_999, input: cids.input, maxPayment: '1' })
      .catch((error: unknown) => error)
    expect(error).toBeInstanceOf(ContractRevertedError)
    expect(error).toMatchObject({
      name: 'ContractRevertedError',
      errorName: 'SourceRegistryUnknownSource',
      contract: 'SourceRegistry',
      args: [999_999_999],
    })
    expect((error as ContractRevertedError).shortMessage).toBe(
      'submitTask reverted with SourceRegistryUnknownSource(999999999)',
    )
  })

  it("reports a missing wallet as wagmi's ConnectorNotConnectedError", async () => {
    const { config, client } = await testConfig({ grid: '10', connected: false })
    const sourceId = await publishTestSource({ owner: client })
    const { result } = renderWithConfig(() => useSubmitTask(), { config })
    const error = await result.current
      .mutateAsync({ sourceId, input: cids.input, maxPayment: '1' })
      .catch((error: unknown) => error)
    expect(error).toBeInstanceOf(ConnectorNotConnectedError)
    expect(error).toMatchObject({
      name: 'ConnectorNotConnectedError',
      shortMessage: 'Connector not connected.',
    })
    await waitFor(() => expect(result.current.error).toBe(error))
  })
})
