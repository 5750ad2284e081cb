import { describe, expect, it } from 'vitest'
import { parseRoute, providerHref } from './route'

describe('parseRoute', () => {
  it("reads a provider's page from its href, and nothing that is not an address", () => {
    const provider = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
    expect(parseRoute(providerHref(provider))).toEqual({ page: 'provider', provider })
    expect(parseRoute(`#/providers/${provider}/`)).toEqual({ page: 'provider', provider })
    expect(parseRoute('#/providers/0x1234')).toEqual({ page: 'overview' })
    expect(parseRoute('#/tasks/7')).toEqual({ page: 'task', taskId: 7n })
  })
})
