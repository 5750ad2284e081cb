import { getDeployment } from '@gridforge/contracts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { deployment } from '../chain.js'
import { ensureBuilt, newAccount, runCli, workspace } from './run.js'

describe('gridforge stake and wallet', () => {
  let space: Awaited<ReturnType<typeof workspace>>

  beforeAll(async () => {
    ;[space] = await Promise.all([workspace(), ensureBuilt()])
  }, 180_000)
  afterAll(() => space.cleanup())

  it('stakes, shows the position, unbonds and refuses an early withdrawal with a hint', async () => {
    const { key, address } = await newAccount({ grid: '300' })
    const env = { GRIDFORGE_PRIVATE_KEY: key }
    const added = await runCli([...space.globals, 'stake', 'add', '150'], { env })
    expect(added.code).toBe(0)
    expect(added.stdout).toMatch(/^staked 150 GRID: tx 0x[0-9a-f]{64}/)

    const position = await runCli([...space.globals, '--json', 'stake', 'rewards'], { env })
    expect(position.code).toBe(0)
    expect(JSON.parse(position.stdout)).toMatchObject({
      account: address,
      staked: '150000000000000000000',
      available: '150000000000000000000',
      unbonding: '0',
      rewards: '0',
    })

    const unbond = await runCli([...space.globals, 'stake', 'unbond', '50'], { env })
    expect(unbond.code).toBe(0)
    expect(unbond.stdout).toContain('unbonding 50 GRID (50 GRID in all)')
    expect(unbond.stdout).toContain('withdraw it with `gridforge stake withdraw` after')

    const early = await runCli([...space.globals, 'stake', 'withdraw'], { env })
    expect(early.code).toBe(3)
    expect(early.stderr).toContain('contract error: StakingUnbondingNotReady')
    expect(early.stderr).toContain('hint: the unbonded stake can be withdrawn after')

    const claim = await runCli([...space.globals, 'stake', 'claim'], { env })
    expect(claim.code).toBe(3)
    expect(claim.stderr).toContain('contract error: StakingNoRewards')
  })

  it('reads any account without a key, and uses the packaged deployment when none is given', async () => {
    expect(getDeployment(31337).contracts).toEqual(deployment().contracts)
    const { address } = await newAccount({ grid: '7' })
    const { code, stdout } = await runCli(['--store', space.store, 'wallet', 'balance', address])
    expect(code).toBe(0)
    expect(stdout).toContain('market balance: 0 GRID')
    expect(stdout).toContain('wallet:         7 GRID')
    const missing = await runCli(['--store', space.store, 'stake', 'rewards'])
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain('pass an address, or configure a key')
  })

  it('deposits, withdraws to another address and shows the balance', async () => {
    const { key } = await newAccount({ grid: '30' })
    const { address: other } = await newAccount({ grid: '0' })
    const env = { GRIDFORGE_PRIVATE_KEY: key }
    expect((await runCli([...space.globals, 'wallet', 'deposit', '12.5'], { env })).code).toBe(0)
    const withdrawn = await runCli([...space.globals, 'wallet', 'withdraw', '2.5', '--to', other], { env })
    expect(withdrawn.code).toBe(0)
    expect(withdrawn.stdout).toContain(`withdrew 2.5 GRID to ${other}`)
    const balance = await runCli([...space.globals, 'wallet', 'balance'], { env })
    expect(balance.stdout).toContain('market balance: 10 GRID')
    expect(balance.stdout).toContain('wallet:         17.5 GRID')
    const theirs = await runCli([...space.globals, '--json', 'wallet', 'balance', other])
    expect(JSON.parse(theirs.stdout).token).toBe('2500000000000000000')
  })
})
