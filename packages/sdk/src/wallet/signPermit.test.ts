import { parseUnits, recoverTypedDataAddress } from 'viem'
import { describe, expect, it } from 'vitest'
import { deployment, fundedClient } from '../../test/chain.js'
import { InvalidParametersError } from '../errors/validation.js'
import { PermitNotSupportedError, signPermit } from './signPermit.js'

describe('signPermit', () => {
  it("signs the token's EIP-2612 permit with its ERC-5267 domain and the holder's nonce", async () => {
    const client = await fundedClient()
    const { contracts } = deployment()
    const permit = await signPermit(client, {
      deployment: deployment(),
      spender: contracts.staking,
      amount: '12.5',
    })
    expect(permit).toMatchObject({
      owner: client.account.address,
      spender: contracts.staking,
      value: parseUnits('12.5', 18),
      nonce: 0n,
    })
    const { timestamp } = await client.getBlock()
    expect(permit.deadline).toBeGreaterThan(timestamp + 3_500n)
    expect(permit.deadline).toBeLessThanOrEqual(timestamp + 3_600n)
    expect([27, 28]).toContain(permit.v)
    const signer = await recoverTypedDataAddress({
      domain: { name: 'Gridforge Token', version: '1', chainId: 31337, verifyingContract: contracts.token },
      types: {
        Permit: [
          { name: 'owner', type: 'address' },
          { name: 'spender', type: 'address' },
          { name: 'value', type: 'uint256' },
          { name: 'nonce', type: 'uint256' },
          { name: 'deadline', type: 'uint256' },
        ],
      },
      primaryType: 'Permit',
      message: {
        owner: permit.owner,
        spender: permit.spender,
        value: permit.value,
        nonce: permit.nonce,
        deadline: permit.deadline,
      },
      signature: permit.signature,
    })
    expect(signer).toBe(client.account.address)
  })

  it('takes a deadline as a Date and refuses one in the past', async () => {
    const client = await fundedClient()
    const { timestamp } = await client.getBlock()
    const at = new Date((Number(timestamp) + 600) * 1000)
    const permit = await signPermit(client, {
      deployment: deployment(),
      spender: deployment().contracts.market,
      amount: 1n,
      deadline: at,
    })
    expect(permit.deadline).toBe(timestamp + 600n)
    const past = await signPermit(client, {
      deployment: deployment(),
      spender: deployment().contracts.market,
      amount: 1n,
      deadline: new Date(0),
    }).catch((error: unknown) => error)
    expect(past).toBeInstanceOf(InvalidParametersError)
    expect((past as InvalidParametersError).fields[0]?.path).toBe('deadline')
  })

  it('names bad parameters and says when the token has no permits', async () => {
    const client = await fundedClient()
    const bad = await signPermit(client, {
      deployment: deployment(),
      spender: '0xnope' as never,
      amount: 1.5 as never,
    }).catch((error: unknown) => error)
    expect((bad as InvalidParametersError).fields.map((field) => field.path)).toEqual(['spender', 'amount'])
    // The market is not a token: it has neither nonces nor an EIP-712 domain.
    const notToken = {
      ...deployment(),
      contracts: { ...deployment().contracts, token: deployment().contracts.market },
    }
    const unsupported = await signPermit(client, {
      deployment: notToken,
      spender: deployment().contracts.staking,
      amount: 1n,
    }).catch((error: unknown) => error)
    expect(unsupported).toBeInstanceOf(PermitNotSupportedError)
    expect((unsupported as PermitNotSupportedError).token).toBe(deployment().contracts.market)
  })
})
