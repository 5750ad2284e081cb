import { appendFile, mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { expect, test } from 'vitest'
import { silentLogger } from '../../logger.js'
import type { LeaseExchange } from '../usageMeter.js'
import { followExchangeLog, parseExchangeLine } from './exchangeLog.js'

test('parseExchangeLine reads what nginx logs, and nothing else', () => {
  expect(parseExchangeLine('7 200 - 1234 1795733640.250 0.012')).toEqual({
    leaseId: 7n,
    kind: 'http',
    via: 'data path',
    status: 200,
    bytesIn: 0,
    bytesOut: 1234,
    startedAt: 1795733640238,
    endedAt: 1795733640250,
  })
  expect(parseExchangeLine('7 201 15 0 1795733640.250 0.000')).toMatchObject({ bytesIn: 15, status: 201 })
  expect(parseExchangeLine(' 200 - 1234 1795733640.250 0.012')).toBeUndefined()
  expect(parseExchangeLine('7 200 - 1234 1795733640.250 0.012 extra')).toBeUndefined()
})

test('followExchangeLog: every line once, across unfinished lines and rotations', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'gridforge-exchange-log-'))
  const file = path.join(dir, 'exchanges.log')
  const seen: LeaseExchange[] = []
  let reopened = 0
  const following = followExchangeLog({
    file,
    onExchange: (exchange) => seen.push(exchange),
    reopen: () => reopened++,
    logger: silentLogger,
    intervalMs: 20,
    rotateBytes: 100,
  })
  const line = (leaseId: number) => `${leaseId} 200 - 10 1795733640.250 0.001\n`
  const settle = () => new Promise((resolve) => setTimeout(resolve, 120))
  await appendFile(file, line(1) + line(2).slice(0, 5))
  await settle()
  expect(seen.map((exchange) => exchange.leaseId)).toEqual([1n])
  await appendFile(file, line(2).slice(5) + line(3) + line(4))
  await settle()
  // Past 100 bytes the file was renamed (read to its end, then removed) and nginx asked to reopen its log.
  expect(reopened).toBe(1)
  await appendFile(file, line(5))
  await following.close()
  expect(seen.map((exchange) => exchange.leaseId)).toEqual([1n, 2n, 3n, 4n, 5n])
  expect(await readdir(dir)).toEqual(['exchanges.log'])
  await rm(dir, { recursive: true, force: true })
})
