import { acceptLease, requestLeaseWithPermit } from '@gridforge/sdk'
import { waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { deployment } from '../../../sdk/test/chain.js'
import { publishTestSource, testProvider } from '../../../sdk/test/fixtures.js'
import { testConfig } from '../../test/config.js'
import { renderWithConfig } from '../../test/render.js'
import { useCloseLease } from './useCloseLease.js'
import { useLease } from './useLease.js'
import { useLeaseCost } from './useLeaseCost.js'

describe('useLease', () => {
  it('follows a lease from request to acceptance to close by itself, with its cost meter', async () => {
    const { config, client } = await testConfig()
    const sourceId = await publishTestSource()
    const provider = await testProvider([sourceId])
    const { leaseId } = await requestLeaseWithPermit(client, {
      deployment: deployment(),
      sourceId,
      maxPricePerHour: '3.6',
      duration: '1h',
      deposit: '5',
    })

    const { result } = renderWithConfig(
      () => ({ lease: useLease({ leaseId }), cost: useLeaseCost({ leaseId }), close: useCloseLease() }),
      { config },
    )
    await waitFor(() => expect(result.current.lease.data?.status).toBe('Requested'))

    await acceptLease(provider, { deployment: deployment(), leaseId })
    await waitFor(() => expect(result.current.lease.data?.status).toBe('Active'))
    await waitFor(() => expect(result.current.cost.data?.lease.status).toBe('Active'))
    expect(result.current.cost.data).toMatchObject({ lowDeposit: false, ended: false })

    const closed = await result.current.close.mutateAsync({ leaseId })
    expect(closed.reason).toBe('ClosedByRenter')
    await waitFor(() => expect(result.current.lease.data?.reason).toBe('ClosedByRenter'))
  })
})
