import { zeroHash } from 'viem'
import { describe, expect, it } from 'vitest'
import { decodeSettlement, type SettlementLog } from './settlement.js'

const client = '0x00000000000000000000000000000000000000c1'
const provider = '0x00000000000000000000000000000000000000a1'
const auditor = '0x00000000000000000000000000000000000000a2'
const seal = `0x${'5e'.repeat(32)}` as const

/** The logs of an audit that upheld a metered result billed 1,500 s where its auditors measured 600 s. */
const overstatedLogs: SettlementLog[] = [
  { eventName: 'AuditResolved', args: { taskId: 7n, verdict: 3, resultDigest: seal } },
  { eventName: 'ReplicaPaid', args: { taskId: 7n, provider, slot: 0, payment: 3n, fee: 0n } },
  {
    eventName: 'ProviderSlashed',
    args: { taskId: 7n, provider, slot: 0, amount: 90n, toClient: 0n, outvoted: true },
  },
  {
    eventName: 'RuntimeOverstated',
    args: { taskId: 7n, provider, billedSec: 1_500, measuredSec: 600, forfeit: 90n },
  },
  { eventName: 'ReplicaPaid', args: { taskId: 7n, provider: auditor, slot: 1, payment: 3n, fee: 0n } },
  {
    eventName: 'TaskFinalized',
    args: { taskId: 7n, client, status: 4, resultDigest: zeroHash, paid: 6n, refund: 14n },
  },
]

describe('decodeSettlement', () => {
  it('names the runtime an audit found overstated in the audit', () => {
    const settlement = decodeSettlement(overstatedLogs, 7n)
    expect(settlement?.audit).toEqual({
      verdict: 'upheld',
      resultDigest: seal,
      overstated: { provider, billedSec: 1_500, measuredSec: 600, forfeit: 90n },
    })
    expect(settlement?.slashes).toEqual([{ slot: 0, provider, amount: 90n, toClient: 0n, outvoted: true }])
    expect(settlement?.payments.map((p) => p.slot)).toEqual([0, 1])
  })

  it('leaves it undefined when the runtime held, and ignores the logs of other tasks', () => {
    const held = overstatedLogs.filter((log) => log.eventName !== 'RuntimeOverstated')
    expect(decodeSettlement(held, 7n)?.audit?.overstated).toBeUndefined()
    expect(decodeSettlement(overstatedLogs, 8n)).toBeUndefined()
  })
})
