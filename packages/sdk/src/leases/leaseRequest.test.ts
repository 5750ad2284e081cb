import { zeroAddress } from 'viem'
import { describe, expect, it } from 'vitest'
import { InvalidParametersError } from '../errors/validation.js'
import { validateFields } from '../internal/validate.js'
import { gridToken } from '../utils/amount.js'
import { leaseRequestFields, toLeaseRequest } from './leaseRequest.js'

const now = 1_800_000_000
const check = (input: Record<string, unknown>) =>
  toLeaseRequest(validateFields('requestLease', leaseRequestFields(18), input), {
    now,
    ackGrace: 300,
    token: gridToken,
  })
const valid = { sourceId: 3, maxPricePerSec: '0.001', duration: '2h', deposit: '8' }

describe('toLeaseRequest', () => {
  it('turns token units, durations and defaults into the contract request', () => {
    expect(check({ ...valid, penalty: '1h', minUptimeBps: 9_500 })).toEqual({
      request: {
        sourceId: 3,
        maxPricePerSec: 10n ** 15n,
        duration: 7_200,
        deposit: 8n * 10n ** 18n,
        penaltySec: 3_600,
        minUptimeBps: 9_500,
        ackSigner: zeroAddress,
        acceptBy: now + 3_600,
      },
    })
  })

  it('takes a price per hour, divided by 3600', () => {
    const { maxPricePerSec: _, ...rest } = valid
    const result = check({ ...rest, maxPricePerHour: '3.6' })
    expect('request' in result && result.request.maxPricePerSec).toBe(10n ** 15n)
  })

  it('says every rule the contract would revert on, with what to pass', () => {
    expect(
      check({
        ...valid,
        maxPricePerHour: '1',
        duration: '400d',
        penalty: '8d',
        deposit: '0.1',
        acceptBy: '31d',
      }),
    ).toEqual({
      invalid: [
        { path: 'maxPricePerSec', message: 'pass either maxPricePerSec or maxPricePerHour' },
        { path: 'duration', message: 'must be from 1s to 365d (extensions included)' },
        { path: 'penalty', message: 'must be at most 7d of the price' },
        { path: 'deposit', message: 'must cover ackGrace (300s) at the maximum price: at least 0.3 GRID' },
        { path: 'acceptBy', message: 'must be in the future and at most 30 days away (e.g. 1h, 2d)' },
      ],
    })
  })

  it('refuses malformed fields before any rule', () => {
    expect(() => check({ sourceId: -1, maxPricePerSec: 1, duration: 'soon', deposit: '0' })).toThrow(
      InvalidParametersError,
    )
  })
})
