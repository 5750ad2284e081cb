import { parseEventLogs } from 'viem'
import { describe, expect, it } from 'vitest'
import { deployment, fundedClient } from '../../test/chain.js'
import { claimTask, submitResult, TaskClaimed, errors as taskMarketErrors } from '../abis/taskMarket.js'
import { ContractRevertedError } from '../errors/contract.js'
import { getReputation } from '../providers/getReputation.js'
import { registerProvider } from '../providers/registerProvider.js'
import { subscribeSources } from '../providers/subscribeSources.js'
import { publishSource } from '../sources/publishSource.js'
import { resultDigest } from '../tasks/commitment.js'
import { submitTask } from '../tasks/submitTask.js'
import { approveMarket } from '../wallet/approveMarket.js'
import { getWalletBalance } from '../wallet/getWalletBalance.js'
import { claimRewards } from './claimRewards.js'
import { getRewards } from './getRewards.js'
import { getStake } from './getStake.js'
import { stake } from './stake.js'

const cid = 'bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku'

describe('claimRewards', () => {
  it('pays the share of protocol fees a settled task brought to stakers', async () => {
    // A provider stakes, registers and runs one task; 12% of its 5% fee goes to stakers, the provider among them.
    const provider = await fundedClient({ grid: '1000' })
    const client = await fundedClient({ grid: '100' })
    await stake(provider, { deployment: deployment(), amount: '300', permit: true })
    await registerProvider(provider, {
      deployment: deployment(),
      capabilities: { gpuCount: 0, vramMiB: 0, computeCapability: 0, cpuCores: 4, memoryMiB: 8_192 },
      profile: cid,
    })
    const { sourceId } = await publishSource(provider, {
      deployment: deployment(),
      imageDigest: `0x${'ee'.repeat(32)}`,
      metadata: cid,
      // The longest runtime and deadline, so that other test files moving the shared clock cannot make the claim overdue.
      requirements: { maxRuntimeSec: '7d' },
    })
    await subscribeSources(provider, { deployment: deployment(), sourceIds: [sourceId] })
    await approveMarket(client, { deployment: deployment(), amount: '100' })
    const { taskId } = await submitTask(client, {
      deployment: deployment(),
      sourceId,
      input: cid,
      maxPayment: '100',
      deadline: '30d',
    })
    const send = async (functionName: 'claimTask' | 'submitResult', args: readonly unknown[]) => {
      const hash = await provider.writeContract({
        address: deployment().contracts.market,
        abi: [claimTask, submitResult, ...taskMarketErrors],
        functionName,
        args: args as never,
      })
      const receipt = await provider.waitForTransactionReceipt({ hash })
      expect(receipt.status).toBe('success')
      return receipt
    }
    const claimed = parseEventLogs({ abi: [TaskClaimed], logs: (await send('claimTask', [taskId])).logs })[0]
    expect(claimed?.args.collateral).toBeGreaterThan(0n)
    expect((await getStake(provider, { deployment: deployment() })).locked).toBe(claimed?.args.collateral)
    await send('submitResult', [taskId, resultDigest(cid), cid, cid, 60])
    expect((await getStake(provider, { deployment: deployment() })).locked).toBe(0n)
    const reputation = await getReputation(client, {
      deployment: deployment(),
      provider: provider.account.address,
    })
    expect(reputation).toMatchObject({
      claimed: 1,
      completed: 1,
      failed: 0,
      outvoted: 0,
      slashedAmount: 0n,
      successBps: 10_000,
    })
    // The market caps the runtime at the time between the claim and the result on chain.
    expect(reputation.totalRuntimeSec).toBeGreaterThan(0)
    expect(reputation.totalRuntimeSec).toBeLessThanOrEqual(60)

    const earned = await getRewards(provider, { deployment: deployment() })
    expect(earned).toBeGreaterThan(0n)
    const { token: before } = await getWalletBalance(provider, { deployment: deployment() })
    const result = await claimRewards(provider, { deployment: deployment() })
    // Other test files may settle tasks in between: rewards only grow.
    expect(result.amount).toBeGreaterThanOrEqual(earned)
    const { token: after } = await getWalletBalance(provider, { deployment: deployment() })
    expect(after - before).toBe(result.amount)
  })

  it('turns a claim with nothing earned into a typed revert with a hint', async () => {
    const client = await fundedClient({ grid: '0' })
    const error = await claimRewards(client, { deployment: deployment() }).catch((error: unknown) => error)
    expect(error).toBeInstanceOf(ContractRevertedError)
    expect((error as ContractRevertedError).errorName).toBe('StakingNoRewards')
    expect((error as ContractRevertedError).args).toEqual([client.account.address])
    expect((error as ContractRevertedError).hint).toContain('no rewards to claim yet')
  })
})
