import { parseUnits } from 'viem'
import { describe, expect, it } from 'vitest'
import { deployment, fundedClient } from '../../test/chain.js'
import { rejection } from '../../test/fixtures.js'
import { InvalidParametersError } from '../errors/validation.js'
import { getCollateral } from './getCollateral.js'

describe('getCollateral', () => {
  it('is maxPayment × collateralBps (50% by default)', async () => {
    const client = await fundedClient({ grid: '0' })
    expect(await getCollateral(client, { deployment: deployment(), maxPayment: '5' })).toBe(
      parseUnits('2.5', 18),
    )
    expect(await getCollateral(client, { deployment: deployment(), maxPayment: 3n })).toBe(1n)
  })

  it('asks more of an audited task: at least (1 − p) / p and 3 × maxPayment', async () => {
    const client = await fundedClient({ grid: '0' })
    const collateral = (auditBps?: number) =>
      getCollateral(client, { deployment: deployment(), maxPayment: '5', auditBps })
    expect(await collateral(0)).toBe(parseUnits('2.5', 18))
    // p = 10 %: 9 × maxPayment; p = 25 %: 3 ×; p = 100 %: the 3 × floor.
    expect(await collateral(1_000)).toBe(parseUnits('45', 18))
    expect(await collateral(2_500)).toBe(parseUnits('15', 18))
    expect(await collateral(10_000)).toBe(parseUnits('15', 18))
    const error = await rejection(collateral(10_001))
    expect((error as InvalidParametersError).fields[0]!.path).toBe('auditBps')
  })

  it('refuses amounts the contract cannot take', async () => {
    const client = await fundedClient({ grid: '0' })
    for (const maxPayment of [2n ** 96n, '1.5e3', -1n]) {
      const error = await rejection(
        getCollateral(client, { deployment: deployment(), maxPayment: maxPayment as never }),
      )
      expect(error).toBeInstanceOf(InvalidParametersError)
      expect((error as InvalidParametersError).fields[0]!.path).toBe('maxPayment')
    }
  })
})
