import { waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { publishTestSource, testProvider } from '../../../sdk/test/fixtures.js'
import { testConfig } from '../../test/config.js'
import { renderWithConfig } from '../../test/render.js'
import { type UseQuoteTaskParameters, useQuoteTask } from './useQuoteTask.js'

describe('useQuoteTask', () => {
  it('waits for complete terms, then counts the providers that could take the task', async () => {
    const { config, client } = await testConfig()
    const sourceId = await publishTestSource({ owner: client })
    const provider = await testProvider([sourceId])

    const { result, rerender } = renderWithConfig(
      (parameters: UseQuoteTaskParameters) => useQuoteTask(parameters),
      { config, initialProps: { sourceId } as UseQuoteTaskParameters },
    )
    // No price yet: nothing to quote.
    expect(result.current.fetchStatus).toBe('idle')

    rerender({ sourceId, maxPayment: '5' })
    await waitFor(() => expect(result.current.isSuccess).toBe(true))
    expect(result.current.data?.eligible.providers).toContain(provider.account.address)
    expect(result.current.data?.terms.sourceId).toBe(sourceId)

    // More GPUs than the provider has: it is held back, and the quote says why.
    rerender({ sourceId, maxPayment: '5', requirements: { minGpus: 4 } })
    await waitFor(() => expect(result.current.data?.terms.requirements.minGpus).toBe(4))
    expect(result.current.data?.ineligible.byReason.gpuCount).toContain(provider.account.address)
  })
})
