import { erc20Abi, parseUnits } from 'viem'
import { describe, expect, it } from 'vitest'
import { deployment, fundedClient } from '../../test/chain.js'
import { anyCid, marketBalance, publishTestSource, rejection, tokenBalance } from '../../test/fixtures.js'
import { ContractRevertedError } from '../errors/contract.js'
import { InvalidParametersError } from '../errors/validation.js'
import { PermitNotSupportedError } from '../wallet/signPermit.js'
import { cancelTask } from './cancelTask.js'
import { submitTaskWithPermit } from './submitTaskWithPermit.js'

const grid = (amount: string) => parseUnits(amount, 18)

async function allowance(owner: `0x${string}`) {
  return (await fundedClient({ grid: '0' })).readContract({
    address: deployment().contracts.token,
    abi: erc20Abi,
    functionName: 'allowance',
    args: [owner, deployment().contracts.market],
  })
}

describe('submitTaskWithPermit', () => {
  it('pulls only the shortfall with a signed permit, in a single transaction', async () => {
    const sourceId = await publishTestSource()
    const client = await fundedClient({ grid: '10' })
    const first = await submitTaskWithPermit(client, {
      deployment: deployment(),
      sourceId,
      input: anyCid,
      maxPayment: '4',
      deadline: '1d',
    })
    expect(first).toMatchObject({ escrow: grid('4'), pulled: grid('4') })
    expect(await client.getTransactionCount({ address: client.account.address })).toBe(1)
    expect(await tokenBalance(client.account.address)).toBe(grid('6'))
    expect(await allowance(client.account.address)).toBe(0n)

    // The refund sits in the market balance: the next task uses it, and pulls only the rest.
    await cancelTask(client, { deployment: deployment(), taskId: first.taskId })
    expect(await marketBalance(client.account.address)).toBe(grid('4'))
    const covered = await submitTaskWithPermit(client, {
      deployment: deployment(),
      sourceId,
      input: anyCid,
      maxPayment: '3',
    })
    expect(covered.pulled).toBe(0n)
    const topped = await submitTaskWithPermit(client, {
      deployment: deployment(),
      sourceId,
      input: anyCid,
      maxPayment: '2.5',
    })
    expect(topped.pulled).toBe(grid('1.5'))
    expect(await marketBalance(client.account.address)).toBe(0n)
    expect(await tokenBalance(client.account.address)).toBe(grid('4.5'))
  })

  it('permits twice maxPayment for an auditable task (one replica of a deterministic source)', async () => {
    const sourceId = await publishTestSource({ deterministic: true })
    const client = await fundedClient({ grid: '10' })
    const submitted = await submitTaskWithPermit(client, {
      deployment: deployment(),
      sourceId,
      input: anyCid,
      maxPayment: '3',
    })
    expect(submitted).toMatchObject({ escrow: grid('6'), pulled: grid('6') })
    expect(await tokenBalance(client.account.address)).toBe(grid('4'))
  })

  it('turns a wallet too poor for the shortfall into a typed revert', async () => {
    const sourceId = await publishTestSource()
    const client = await fundedClient({ grid: '1' })
    const error = (await rejection(
      submitTaskWithPermit(client, { deployment: deployment(), sourceId, input: anyCid, maxPayment: '5' }),
    )) as ContractRevertedError
    expect(error).toBeInstanceOf(ContractRevertedError)
    expect(error.errorName).toBe('ERC20InsufficientBalance')
    expect(error.hint).toBe('the wallet holds 1 GRID < 5 GRID: get more tokens or pay less')
  })

  it('says so when the token has no EIP-712 domain to sign for', async () => {
    const sourceId = await publishTestSource()
    const client = await fundedClient({ grid: '10' })
    // A deployment whose "token" is a contract without eip712Domain (the source registry).
    const noPermit = {
      ...deployment(),
      contracts: { ...deployment().contracts, token: deployment().contracts.sources },
    }
    const error = await rejection(
      submitTaskWithPermit(client, { deployment: noPermit, sourceId, input: anyCid, maxPayment: '1' }),
    )
    expect(error).toBeInstanceOf(PermitNotSupportedError)
    expect((error as PermitNotSupportedError).metaMessages[0]).toContain('approve the spender instead')
  })

  it('validates like submitTask', async () => {
    const client = await fundedClient({ grid: '0' })
    const error = await rejection(
      submitTaskWithPermit(client, {
        deployment: deployment(),
        sourceId: 1,
        input: anyCid,
        maxPayment: '-1' as never,
      }),
    )
    expect(error).toBeInstanceOf(InvalidParametersError)
    expect((error as InvalidParametersError).fields.map((field) => field.path)).toEqual(['maxPayment'])
  })
})
