import { describe, expect, it } from 'vitest'
import { deployment, fundedClient } from '../../test/chain.js'
import { ContractRevertedError } from '../errors/contract.js'
import { deactivateSource } from './deactivateSource.js'
import { getSource } from './getSource.js'
import { publishSource } from './publishSource.js'
import { reactivateSource } from './reactivateSource.js'

const metadata = 'bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku'

describe('reactivateSource', () => {
  it('lets a deactivated source take tasks again', async () => {
    const client = await fundedClient({ grid: '0' })
    const { sourceId } = await publishSource(client, {
      deployment: deployment(),
      imageDigest: `0x${'22'.repeat(32)}`,
      metadata,
    })
    await deactivateSource(client, { deployment: deployment(), sourceId })
    const result = await reactivateSource(client, { deployment: deployment(), sourceId })
    expect(result.sourceId).toBe(sourceId)
    expect((await getSource(client, { deployment: deployment(), sourceId })).active).toBe(true)
  })

  it('refuses an active source and a non-owner with hints', async () => {
    const owner = await fundedClient({ grid: '0' })
    const other = await fundedClient({ grid: '0' })
    const { sourceId } = await publishSource(owner, {
      deployment: deployment(),
      imageDigest: `0x${'22'.repeat(32)}`,
      metadata,
    })
    const active = await reactivateSource(owner, { deployment: deployment(), sourceId }).catch(
      (error: unknown) => error,
    )
    expect(active).toBeInstanceOf(ContractRevertedError)
    expect((active as ContractRevertedError).hint).toBe(`source ${sourceId} is already active`)
    await deactivateSource(owner, { deployment: deployment(), sourceId })
    const notOwner = await reactivateSource(other, { deployment: deployment(), sourceId }).catch(
      (error: unknown) => error,
    )
    expect((notOwner as ContractRevertedError).errorName).toBe('SourceRegistryNotSourceOwner')
    expect((notOwner as ContractRevertedError).args).toEqual([sourceId, other.account.address])
  })
})
