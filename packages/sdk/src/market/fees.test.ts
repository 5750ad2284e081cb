import { parseUnits } from 'viem'
import { describe, expect, it } from 'vitest'
import { deployerClient, deployment, fundedClient } from '../../test/chain.js'
import {
  anyCid,
  approvedClient,
  marketBalance,
  publishTestSource,
  rejection,
  testProvider,
} from '../../test/fixtures.js'
import { ContractRevertedError } from '../errors/contract.js'
import { InvalidParametersError } from '../errors/validation.js'
import { claimTask } from '../tasks/claimTask.js'
import { submitResult } from '../tasks/submitResult.js'
import { submitTask } from '../tasks/submitTask.js'
import { claimCreatorFees } from './claimCreatorFees.js'
import { getCreatorFees } from './getCreatorFees.js'
import { getPendingStakerFees } from './getPendingStakerFees.js'
import { getProtocolParams } from './getProtocolParams.js'
import { getTreasuryAccrued } from './getTreasuryAccrued.js'
import { withdrawTreasury } from './withdrawTreasury.js'

const grid = (amount: string) => parseUnits(amount, 18)

/** A settled 5 GRID task on a source with a 10% creator fee: a fee of 0.25 GRID to split. */
async function settledTask() {
  const creator = await fundedClient({ grid: '0' })
  const sourceId = await publishTestSource({ owner: creator, creatorFeeBps: 1_000 })
  const client = await approvedClient({ grid: '5' })
  const provider = await testProvider([sourceId])
  const { taskId } = await submitTask(client, {
    deployment: deployment(),
    sourceId,
    input: anyCid,
    maxPayment: '5',
    // Room for the test source's runtime limit (7 days) and the claim grace.
    deadline: '29d',
  })
  await claimTask(provider, { deployment: deployment(), taskId })
  const { blockNumber } = await submitResult(provider, {
    deployment: deployment(),
    taskId,
    result: anyCid,
    receipt: anyCid,
    runtimeSec: 1,
  })
  return { creator, sourceId, blockNumber }
}

describe('creator fees', () => {
  it('accrue to the source and move to its owner on claim, once', async () => {
    const { creator, sourceId } = await settledTask()
    // 10% of the 0.25 GRID fee.
    expect(await getCreatorFees(creator, { deployment: deployment(), sourceId })).toBe(grid('0.025'))
    const claimed = await claimCreatorFees(creator, { deployment: deployment(), sourceId })
    expect(claimed).toMatchObject({ sourceId, owner: creator.account.address, amount: grid('0.025') })
    expect(await marketBalance(creator.account.address)).toBe(grid('0.025'))
    expect(await getCreatorFees(creator, { deployment: deployment(), sourceId })).toBe(0n)

    const again = (await rejection(
      claimCreatorFees(creator, { deployment: deployment(), sourceId }),
    )) as ContractRevertedError
    expect(again).toBeInstanceOf(ContractRevertedError)
    expect(again.errorName).toBe('TaskMarketNothingToWithdraw')
    expect(again.hint).toBe('nothing has accrued yet: there is nothing to withdraw or claim')
  })

  it("refuse anyone but the source's owner", async () => {
    const sourceId = await publishTestSource()
    const stranger = await fundedClient({ grid: '0' })
    const error = (await rejection(
      claimCreatorFees(stranger, { deployment: deployment(), sourceId }),
    )) as ContractRevertedError
    expect(error.errorName).toBe('TaskMarketNotSourceOwner')
    expect(error.hint).toBe(
      `${stranger.account.address} does not own source ${sourceId}: only its current owner can claim its creator fees`,
    )
    const invalid = await rejection(getCreatorFees(stranger, { deployment: deployment(), sourceId: -1 }))
    expect(invalid).toBeInstanceOf(InvalidParametersError)
  })
})

describe('treasury and staker fees', () => {
  it('accrue at settlement; withdrawTreasury pays the treasury all of it', async () => {
    const { blockNumber } = await settledTask()
    const client = deployerClient()
    // Other files settle tasks at the same time: read at the settlement's own block (one transaction per block).
    const before = await getTreasuryAccrued(client, {
      deployment: deployment(),
      blockNumber: blockNumber - 1n,
    })
    const after = await getTreasuryAccrued(client, { deployment: deployment(), blockNumber })
    // The 0.25 GRID fee − 10% of it to the creator − 12% of it to stakers.
    expect(after - before).toBe(grid('0.195'))
    const pendingBefore = await getPendingStakerFees(client, {
      deployment: deployment(),
      blockNumber: blockNumber - 1n,
    })
    const pendingAfter = await getPendingStakerFees(client, { deployment: deployment(), blockNumber })
    expect(pendingAfter - pendingBefore).toBe(grid('0.03'))

    const withdrawn = await withdrawTreasury(await fundedClient({ grid: '0' }), { deployment: deployment() })
    // setTreasury's test may have moved the treasury for a moment: compare with the one at that block.
    const { treasury } = await getProtocolParams(client, {
      deployment: deployment(),
      blockNumber: withdrawn.blockNumber,
    })
    expect(withdrawn.treasury).toBe(treasury)
    expect(withdrawn.amount).toBeGreaterThanOrEqual(after)
    expect(
      await getTreasuryAccrued(client, { deployment: deployment(), blockNumber: withdrawn.blockNumber }),
    ).toBe(0n)
  })
})
