import { describe, expect, it } from 'vitest'
import { deployerClient, deployment } from '../../test/chain.js'
import { anyCid, approvedClient, publishTestSource } from '../../test/fixtures.js'
import { submitTask } from '../tasks/submitTask.js'
import { getProtocolParams } from './getProtocolParams.js'

describe('getProtocolParams', () => {
  it('reads the parameters by name, the treasury and the task count in one call', async () => {
    const sourceId = await publishTestSource()
    const client = await approvedClient({ grid: '1' })
    const { taskId, blockNumber } = await submitTask(client, {
      deployment: deployment(),
      sourceId,
      input: anyCid,
      maxPayment: '1',
    })
    const params = await getProtocolParams(client, { deployment: deployment(), blockNumber })
    expect(params).toEqual({
      protocolFeeBps: 500,
      stakerShareBps: 1200,
      collateralBps: 5000,
      slashToClientBps: 5000,
      revealWindow: 600,
      claimGrace: 300,
      minCollateral: 0n,
      auditBps: 1000,
      auditJoinWindow: 120,
      treasury: deployerClient().account.address,
      taskCount: taskId,
    })
  })
})
