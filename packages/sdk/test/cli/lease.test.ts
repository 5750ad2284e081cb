/**
 * `gridforge lease` on the devnet: open a lease (a provider driven by this test accepts it while the CLI
 * waits), its journaled session key is the lease's ack signer, then status, logs and close.
 */
import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { acceptLease } from '../../src/leases/acceptLease.js'
import { getLease } from '../../src/leases/getLease.js'
import { listLeases } from '../../src/leases/listLeases.js'
import { deployment } from '../chain.js'
import { publishTestSource, testProvider } from '../fixtures.js'
import { ensureBuilt, newAccount, runCli, startCli, workspace } from './run.js'

describe('gridforge lease', () => {
  let space: Awaited<ReturnType<typeof workspace>>
  let env: Record<string, string>
  let renter: `0x${string}`
  let journal: string
  let globals: string[]

  beforeAll(async () => {
    const [created, client] = await Promise.all([workspace(), newAccount({ grid: '100' }), ensureBuilt()])
    space = created
    // The lease market from @gridforge/contracts' deployment of chain 31337 (the devnet's, deployed the same
    // way): the deployment file of workspace() goes through the installed CLI toolkit, which drops
    // `contracts.leases` until it has this branch's cli-kit change.
    globals = ['--store', space.store]
    journal = path.join(space.root, 'leases')
    env = { GRIDFORGE_PRIVATE_KEY: client.key, GRIDFORGE_LEASES: journal }
    renter = privateKeyToAccount(client.key).address
  }, 240_000)
  afterAll(() => space?.cleanup())

  it('opens a lease, waits for acceptance, journals the session key, shows status and history, closes', async () => {
    const sourceId = await publishTestSource()
    const provider = await testProvider([sourceId])
    const open = startCli(
      [
        ...globals,
        '--json',
        'lease',
        'open',
        '--source',
        String(sourceId),
        '--max-price-per-hour',
        '3.6',
        '--duration',
        '1h',
        '--deposit',
        '5',
        '--permit',
        '--timeout',
        '2m',
      ],
      { env },
    )
    await open.waitForStderr(/waiting for a provider to accept/)
    const [requested] = await listLeases(provider, { deployment: deployment(), renter, status: 'Requested' })
    const leaseId = requested!.leaseId
    await acceptLease(provider, { deployment: deployment(), leaseId })
    const opened = await open.done
    expect(opened.code, opened.stderr).toBe(0)
    const result = JSON.parse(opened.stdout)
    expect(result).toMatchObject({ leaseId: leaseId.toString(), provider: provider.account.address })

    // The journal holds the session key named as the lease's ack signer, and nothing is left pending.
    const files = await readdir(journal)
    expect(files).toEqual([path.basename(result.journal)])
    const entry = JSON.parse(await readFile(result.journal, 'utf8'))
    const lease = await getLease(provider, { deployment: deployment(), leaseId })
    expect(privateKeyToAccount(entry.sessionKey).address).toBe(lease.ackSigner)
    expect(opened.stdout + opened.stderr).not.toContain(entry.sessionKey.slice(2))

    const status = await runCli([...globals, 'lease', 'status', leaseId.toString()], { env })
    expect(status.code, status.stderr).toBe(0)
    expect(status.stdout).toMatch(/status:\s+Active/)
    expect(status.stdout).toMatch(/price:\s+3\.6 GRID\/h/)
    expect(status.stdout).toContain('deposit left')

    const logs = await runCli([...globals, 'lease', 'logs', leaseId.toString()], { env })
    expect(logs.code, logs.stderr).toBe(0)
    expect(logs.stdout).toContain("the provider's lease gateway has no logs endpoint")
    expect(logs.stdout).toMatch(/LeaseRequested[\s\S]*LeaseAccepted/)

    const closed = await runCli([...globals, 'lease', 'close', leaseId.toString()], { env })
    expect(closed.code, closed.stderr).toBe(0)
    expect(closed.stdout).toMatch(new RegExp(`lease ${leaseId} ended \\(ClosedByRenter\\)`))

    const url = await runCli([...globals, 'lease', 'url', leaseId.toString()], { env })
    expect(url.code).toBe(2)
    expect(url.stderr).toContain('pass --gateway <url>')
  })
})
