import { getDeployment } from '@gridforge/contracts'
import { createPublicClient, createWalletClient, http } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { hardhat } from 'viem/chains'
import { describe, expect, expectTypeOf, it } from 'vitest'
import * as sdk from './index.js'

describe('@gridforge/sdk exports', () => {
  // A change to this list is an API change: review it (and add a changeset).
  it('exports exactly these names', () => {
    expect(Object.keys(sdk).sort()).toMatchSnapshot()
  })

  it('has a decorator entry for every standalone action', () => {
    const client = createPublicClient({ chain: hardhat, transport: http('http://127.0.0.1:1') })
    const actions = client.extend(sdk.gridforgeActions({ deployment: getDeployment(31337) }))
    for (const [name, value] of Object.entries(sdk)) {
      if (typeof value !== 'function' || !`${name[0]}`.match(/[a-z]/)) continue
      if (name in actions) expect(typeof (actions as Record<string, unknown>)[name]).toBe('function')
    }
    expect(Object.keys(sdk.gridforgeActions({ deployment: getDeployment(31337) })(client)).length).toBe(97)
  })
})

describe('type inference', () => {
  const account = privateKeyToAccount('0x0123456789012345678901234567890123456789012345678901234567890123')
  const client = createWalletClient({ account, chain: hardhat, transport: http() }).extend(
    sdk.gridforgeActions({ deployment: getDeployment(31337) }),
  )

  it('infers write results', () => {
    type Submitted = Awaited<ReturnType<typeof client.submitTask>>
    expectTypeOf<Submitted['taskId']>().toEqualTypeOf<bigint>()
    expectTypeOf<Submitted['escrow']>().toEqualTypeOf<bigint>()
    expectTypeOf<Submitted['hash']>().toEqualTypeOf<`0x${string}`>()
    expectTypeOf(sdk.submitTask).parameter(1).toHaveProperty('deployment')
    // The decorated client binds the deployment: it is optional there.
    expectTypeOf<Parameters<typeof client.submitTask>[0]['deployment']>().toEqualTypeOf<
      sdk.Deployment | undefined
    >()
  })

  it('infers task reads with status names', () => {
    expectTypeOf<Awaited<ReturnType<typeof client.getTask>>['status']>().toEqualTypeOf<sdk.TaskStatus>()
    expectTypeOf<sdk.TaskStatus>().toEqualTypeOf<
      | 'Open'
      | 'Claimed'
      | 'Revealing'
      | 'Completed'
      | 'Failed'
      | 'Cancelled'
      | 'Expired'
      | 'Held'
      | 'Auditing'
    >()
  })

  it('takes amounts as bigints or decimal strings, never numbers', () => {
    expectTypeOf<'1.5'>().toExtend<sdk.Amount>()
    expectTypeOf<1_000n>().toExtend<sdk.Amount>()
    expectTypeOf<1.5>().not.toExtend<sdk.Amount>()
  })

  it('makes parameters optional only where nothing is required', () => {
    expectTypeOf(client.getProtocolParams).parameters.toEqualTypeOf<
      [parameters?: sdk.Bound<sdk.GetProtocolParamsParameters>]
    >()
    expectTypeOf(client.getTask).parameters.toEqualTypeOf<[parameters: sdk.Bound<sdk.GetTaskParameters>]>()
  })
})
