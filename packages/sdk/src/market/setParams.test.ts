import { describe, expect, it } from 'vitest'
import { deployerClient, deployment, fundedClient } from '../../test/chain.js'
import { rejection } from '../../test/fixtures.js'
import { ContractRevertedError } from '../errors/contract.js'
import { InvalidParametersError } from '../errors/validation.js'
import { getProtocolParams } from './getProtocolParams.js'
import { setParams } from './setParams.js'

// Other test files run tasks on the same chain at the same time: these tests
// only ever write the parameters the chain already has.
describe('setParams', () => {
  it('keeps the parameters left out and returns the new set', async () => {
    const owner = deployerClient()
    const {
      treasury: _,
      taskCount: __,
      ...current
    } = await getProtocolParams(owner, { deployment: deployment() })
    const updated = await setParams(owner, {
      deployment: deployment(),
      revealWindow: `${current.revealWindow / 60}m` as const,
      protocolFeeBps: current.protocolFeeBps,
    })
    expect(updated).toMatchObject(current)
    expect(updated.hash).toMatch(/^0x[0-9a-f]{64}$/)
    const all = await setParams(owner, { deployment: deployment(), ...current })
    expect(all).toMatchObject(current)
  })

  it('refuses an account that does not own the market, with a hint', async () => {
    const stranger = await fundedClient({ grid: '0' })
    const error = (await rejection(
      setParams(stranger, { deployment: deployment(), protocolFeeBps: 0 }),
    )) as ContractRevertedError
    expect(error).toBeInstanceOf(ContractRevertedError)
    expect(error.errorName).toBe('OwnableUnauthorizedAccount')
    expect(error.args).toEqual([stranger.account.address])
    expect(error.hint).toBe(
      `${stranger.account.address} is not the owner of this contract: send it from the owner (in real deployments, a timelock proposal)`,
    )
  })

  it('checks every documented bound before sending', async () => {
    const owner = deployerClient()
    const error = await rejection(
      setParams(owner, {
        deployment: deployment(),
        protocolFeeBps: 2_001,
        stakerShareBps: 5_001,
        collateralBps: 999,
        slashToClientBps: 10_001,
        revealWindow: '30s',
        claimGrace: '2d',
        minCollateral: 10n ** 24n + 1n,
        auditBps: 99,
        auditJoinWindow: '59s',
      }),
    )
    expect(error).toBeInstanceOf(InvalidParametersError)
    expect((error as InvalidParametersError).fields).toEqual([
      { path: 'protocolFeeBps', message: 'expected a whole number from 0 to 2000' },
      { path: 'stakerShareBps', message: 'expected a whole number from 0 to 5000' },
      { path: 'collateralBps', message: 'expected a whole number from 1000 to 20000' },
      { path: 'slashToClientBps', message: 'expected a whole number from 0 to 10000' },
      { path: 'revealWindow', message: 'must be 1 minute to 1 day (60 to 86400 seconds)' },
      { path: 'claimGrace', message: 'must be 1 minute to 1 day (60 to 86400 seconds)' },
      { path: 'minCollateral', message: 'must be at most 1e24 base units' },
      { path: 'auditBps', message: 'expected a whole number from 100 to 10000' },
      { path: 'auditJoinWindow', message: 'must be 1 minute to 1 day (60 to 86400 seconds)' },
    ])
    const empty = await rejection(setParams(owner, { deployment: deployment() }))
    expect((empty as InvalidParametersError).fields[0]!.path).toBe('(parameters)')
  })
})
