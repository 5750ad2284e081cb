import { zeroAddress } from 'viem'
import { describe, expect, it } from 'vitest'
import { deployment, fundedClient } from '../../test/chain.js'
import { ContractRevertedError } from '../errors/contract.js'
import { InvalidParametersError } from '../errors/validation.js'
import { deactivateSource } from './deactivateSource.js'
import { getSource } from './getSource.js'
import { publishSource } from './publishSource.js'
import { transferSource } from './transferSource.js'

const metadata = 'bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku'

describe('transferSource', () => {
  it('hands the source and its control to the new owner', async () => {
    const owner = await fundedClient({ grid: '0' })
    const next = await fundedClient({ grid: '0' })
    const { sourceId } = await publishSource(owner, {
      deployment: deployment(),
      imageDigest: `0x${'33'.repeat(32)}`,
      metadata,
    })
    const result = await transferSource(owner, {
      deployment: deployment(),
      sourceId,
      to: next.account.address,
    })
    expect(result).toMatchObject({ sourceId, from: owner.account.address, to: next.account.address })
    expect((await getSource(owner, { deployment: deployment(), sourceId })).owner).toBe(next.account.address)
    // The new owner controls it; the old one no longer does.
    await deactivateSource(next, { deployment: deployment(), sourceId })
    const old = await transferSource(owner, {
      deployment: deployment(),
      sourceId,
      to: owner.account.address,
    }).catch((error: unknown) => error)
    expect(old).toBeInstanceOf(ContractRevertedError)
    expect((old as ContractRevertedError).errorName).toBe('SourceRegistryNotSourceOwner')
  })

  it('refuses the zero address and malformed addresses before sending', async () => {
    const owner = await fundedClient({ grid: '0' })
    const zero = await transferSource(owner, {
      deployment: deployment(),
      sourceId: 1,
      to: zeroAddress,
    }).catch((error: unknown) => error)
    expect(zero).toBeInstanceOf(InvalidParametersError)
    expect((zero as InvalidParametersError).fields[0]?.message).toContain('zero address')
    const malformed = await transferSource(owner, {
      deployment: deployment(),
      sourceId: 1,
      to: '0x1234',
    }).catch((error: unknown) => error)
    expect((malformed as InvalidParametersError).fields).toEqual([
      { path: 'to', message: 'expected an address: 0x followed by 40 hex digits' },
    ])
    expect(await owner.getTransactionCount({ address: owner.account.address })).toBe(0)
  })
})
