import { describe, expect, it } from 'vitest'
import { deployment, fundedClient } from '../../test/chain.js'
import { ContractRevertedError } from '../errors/contract.js'
import type { InvalidParametersError } from '../errors/validation.js'
import { deactivateSource } from './deactivateSource.js'
import { getSource } from './getSource.js'
import { publishSource } from './publishSource.js'

const metadata = 'bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku'

describe('deactivateSource', () => {
  it('stops a source taking tasks', async () => {
    const client = await fundedClient({ grid: '0' })
    const { sourceId } = await publishSource(client, {
      deployment: deployment(),
      imageDigest: `0x${'11'.repeat(32)}`,
      metadata,
    })
    const result = await deactivateSource(client, { deployment: deployment(), sourceId })
    expect(result.sourceId).toBe(sourceId)
    expect(result.blockNumber).toBeGreaterThan(0n)
    expect((await getSource(client, { deployment: deployment(), sourceId })).active).toBe(false)
  })

  it("refuses a second deactivation, someone else's source and bad ids", async () => {
    const owner = await fundedClient({ grid: '0' })
    const other = await fundedClient({ grid: '0' })
    const { sourceId } = await publishSource(owner, {
      deployment: deployment(),
      imageDigest: `0x${'11'.repeat(32)}`,
      metadata,
    })
    const notOwner = await deactivateSource(other, { deployment: deployment(), sourceId }).catch(
      (error: unknown) => error,
    )
    expect(notOwner).toBeInstanceOf(ContractRevertedError)
    expect((notOwner as ContractRevertedError).errorName).toBe('SourceRegistryNotSourceOwner')
    await deactivateSource(owner, { deployment: deployment(), sourceId })
    const again = await deactivateSource(owner, { deployment: deployment(), sourceId }).catch(
      (error: unknown) => error,
    )
    expect((again as ContractRevertedError).errorName).toBe('SourceRegistryActiveUnchanged')
    expect((again as ContractRevertedError).hint).toBe(`source ${sourceId} is already inactive`)
    const bad = await deactivateSource(owner, { deployment: deployment(), sourceId: 'one' as never }).catch(
      (error: unknown) => error,
    )
    expect((bad as InvalidParametersError).fields.map((field) => field.path)).toEqual(['sourceId'])
  })
})
