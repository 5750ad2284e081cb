import { parseUnits } from 'viem'
import { describe, expect, it } from 'vitest'
import { deployment, fundedClient } from '../../test/chain.js'
import { ContractRevertedError } from '../errors/contract.js'
import { InvalidParametersError } from '../errors/validation.js'
import { signPermit } from '../wallet/signPermit.js'
import { getStake } from './getStake.js'
import { stake } from './stake.js'

describe('stake', () => {
  it('stakes with permit: true in one transaction', async () => {
    const client = await fundedClient({ grid: '300' })
    const result = await stake(client, { deployment: deployment(), amount: '250', permit: true })
    expect(result.amount).toBe(parseUnits('250', 18))
    expect(result.approveHash).toBeUndefined()
    expect(await client.getTransactionCount({ address: client.account.address })).toBe(1)
    expect(await getStake(client, { deployment: deployment() })).toEqual({
      staked: parseUnits('250', 18),
      locked: 0n,
      available: parseUnits('250', 18),
      unbonding: 0n,
      unbondingReadyAt: undefined,
    })
  })

  it('approves first with approve: true, and adds to an existing stake', async () => {
    const client = await fundedClient({ grid: '300' })
    const first = await stake(client, { deployment: deployment(), amount: '100', approve: true })
    expect(first.approveHash).toMatch(/^0x[0-9a-f]{64}$/)
    const second = await stake(client, { deployment: deployment(), amount: 50n * 10n ** 18n, approve: true })
    expect(second.approveHash).toMatch(/^0x[0-9a-f]{64}$/)
    expect((await getStake(client, { deployment: deployment() })).staked).toBe(parseUnits('150', 18))
  })

  it('uses a permit signed earlier', async () => {
    const client = await fundedClient({ grid: '10' })
    const permit = await signPermit(client, {
      deployment: deployment(),
      spender: deployment().contracts.staking,
      amount: '10',
      deadline: '5m',
    })
    const result = await stake(client, { deployment: deployment(), amount: '10', permit })
    expect(result.amount).toBe(parseUnits('10', 18))
  })

  it('turns a permit from the wrong signer into a typed revert with a hint', async () => {
    const client = await fundedClient({ grid: '10' })
    const stranger = await fundedClient({ grid: '0' })
    // Signed by the stranger but claiming to be the client's: the token refuses it, so the pull finds no allowance.
    const forged = {
      ...(await signPermit(stranger, {
        deployment: deployment(),
        spender: deployment().contracts.staking,
        amount: '10',
      })),
      owner: client.account.address,
    }
    const error = await stake(client, { deployment: deployment(), amount: '10', permit: forged }).catch(
      (error: unknown) => error,
    )
    expect(error).toBeInstanceOf(ContractRevertedError)
    const reverted = error as ContractRevertedError
    expect(reverted.errorName).toBe('ERC20InsufficientAllowance')
    expect(reverted.args).toEqual([deployment().contracts.staking, 0n, parseUnits('10', 18)])
    expect(reverted.hint).toContain('a permit the token refused (wrong signer, expired, nonce used)')
  })

  it('turns a stake without allowance or beyond 128 bits into typed reverts', async () => {
    const client = await fundedClient({ grid: '10' })
    const noAllowance = await stake(client, { deployment: deployment(), amount: '1' }).catch(
      (error: unknown) => error,
    )
    expect((noAllowance as ContractRevertedError).errorName).toBe('ERC20InsufficientAllowance')
    const huge = await stake(client, { deployment: deployment(), amount: 2n ** 128n }).catch(
      (error: unknown) => error,
    )
    expect((huge as ContractRevertedError).errorName).toBe('StakingAmountTooLarge')
    expect((huge as ContractRevertedError).hint).toContain('128 bits')
  })

  it('names bad parameters before sending anything', async () => {
    const client = await fundedClient({ grid: '10' })
    const error = await stake(client, {
      deployment: deployment(),
      amount: '-5' as never,
      approve: 'yes' as never,
    }).catch((error: unknown) => error)
    expect(error).toBeInstanceOf(InvalidParametersError)
    expect((error as InvalidParametersError).fields.map((field) => field.path)).toEqual(['amount', 'approve'])
    const both = await stake(client, {
      deployment: deployment(),
      amount: '1',
      permit: true,
      approve: true,
    }).catch((error: unknown) => error)
    expect((both as InvalidParametersError).message).toContain('either permit or approve')
    expect(await client.getTransactionCount({ address: client.account.address })).toBe(0)
  })
})
