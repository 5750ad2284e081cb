/**
 * A lease's main flow on the test chain, through the SDK's actions: request (with a permit) → accept by a
 * registered provider → a usage acknowledgement signed by the renter's session key, redeemed → close (the exact
 * refund) → the provider redeems its last acknowledgement, which settles the lease.
 */
import { erc20Abi, hashTypedData, parseUnits, recoverAddress } from 'viem'
import { describe, expect, it } from 'vitest'
import { usageDigest } from '../src/abis/leaseMarket.js'
import { ContractRevertedError } from '../src/errors/contract.js'
import { InvalidParametersError } from '../src/errors/validation.js'
import { acceptLease } from '../src/leases/acceptLease.js'
import { closeLease } from '../src/leases/closeLease.js'
import { createLeaseSessionKey } from '../src/leases/createLeaseSessionKey.js'
import { getLease } from '../src/leases/getLease.js'
import { getLeaseCost } from '../src/leases/getLeaseCost.js'
import { listLeases } from '../src/leases/listLeases.js'
import { redeemUsage } from '../src/leases/redeemUsage.js'
import { requestLeaseWithPermit } from '../src/leases/requestLeaseWithPermit.js'
import { signUsage } from '../src/leases/signUsage.js'
import { usageDomain, usageTypes } from '../src/leases/usage.js'
import { deployment, fundedClient, testClient } from './chain.js'
import { publishTestSource, rejection, testProvider } from './fixtures.js'

const price = parseUnits('0.001', 18) // 3.6 GRID an hour

describe('a lease, end to end', () => {
  it('requests, accepts, acknowledges, closes with the exact refund, and settles on the last redemption', async () => {
    const gf = deployment()
    const sourceId = await publishTestSource()
    const [renter, provider] = await Promise.all([fundedClient({ grid: '100' }), testProvider([sourceId])])
    const sessionKey = createLeaseSessionKey()
    const chainId = await renter.getChainId()
    const tokenBalance = (address: `0x${string}`) =>
      renter.readContract({
        address: gf.contracts.token,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [address],
      })

    // Validation happens before any transaction, with what to pass instead.
    const invalid = await rejection(
      requestLeaseWithPermit(renter, {
        deployment: gf,
        sourceId,
        maxPricePerSec: '0.001',
        duration: '1d',
        deposit: '0.1',
      }),
    )
    expect(invalid).toBeInstanceOf(InvalidParametersError)
    expect((invalid as InvalidParametersError).fields).toEqual([
      { path: 'deposit', message: 'must cover ackGrace (300s) at the maximum price: at least 0.3 GRID' },
    ])

    const before = await tokenBalance(renter.account.address)
    const { leaseId, request } = await requestLeaseWithPermit(renter, {
      deployment: gf,
      sourceId,
      maxPricePerHour: '3.6',
      duration: '1d',
      deposit: '10',
      penalty: '1h',
      ackSigner: sessionKey.address,
    })
    expect(request).toMatchObject({ maxPricePerSec: price, duration: 86_400, penaltySec: 3_600 })
    expect(await tokenBalance(renter.account.address)).toBe(before - parseUnits('10', 18))
    expect(await getLease(renter, { deployment: gf, leaseId })).toMatchObject({
      status: 'Requested',
      reason: 'None',
      ackSigner: sessionKey.address,
    })

    // The renter cannot accept its own lease: the revert is decoded with its hint.
    const own = await rejection(acceptLease(renter, { deployment: gf, leaseId }))
    expect(own).toBeInstanceOf(ContractRevertedError)
    expect((own as ContractRevertedError).errorName).toBe('LeaseMarketRenterCannotAccept')

    const accepted = await acceptLease(provider, { deployment: gf, leaseId })
    expect(accepted).toMatchObject({ pricePerSec: price, collateral: price * 3_600n })
    const { startedAt } = await getLease(renter, { deployment: gf, leaseId })
    expect(accepted.endsAt).toBe(startedAt + 86_400)

    await testClient().increaseTime({ seconds: 600 })
    await testClient().mine({ blocks: 1 })
    const at = startedAt + 540
    const signature = await signUsage({
      account: sessionKey.account,
      chainId,
      leaseMarket: gf.contracts.leases,
      leaseId,
      servedSec: 500,
      at,
    })
    // The digest the SDK signs is the contract's own.
    const digest = await renter.readContract({
      address: gf.contracts.leases,
      abi: [usageDigest],
      functionName: 'usageDigest',
      args: [leaseId, 500, at],
    })
    const typedData = {
      domain: usageDomain({ chainId, leaseMarket: gf.contracts.leases }),
      types: usageTypes,
      primaryType: 'Usage',
      message: { leaseId, servedSec: 500, at },
    } as const
    expect(hashTypedData(typedData)).toBe(digest)
    expect(await recoverAddress({ hash: digest, signature })).toBe(sessionKey.address)

    const redeemed = await redeemUsage(provider, { deployment: gf, leaseId, servedSec: 500, at, signature })
    expect(redeemed).toMatchObject({ payment: 500n * price, settlement: undefined })

    const cost = await getLeaseCost(renter, { deployment: gf, leaseId })
    expect(cost.paid).toBe(500n * price)
    expect(cost.accrued).toBe(BigInt(cost.now - startedAt) * price)
    expect(cost.depositLeft).toBe(parseUnits('10', 18) - cost.accrued)

    const beforeClose = await tokenBalance(renter.account.address)
    const closed = await closeLease(renter, { deployment: gf, leaseId })
    const closedAt = Number((await renter.getBlock({ blockNumber: closed.blockNumber })).timestamp)
    // Everything but the seconds not yet redeemed (start to close, less the 500 acknowledged) comes back now.
    const held = BigInt(closedAt - startedAt - 500) * price
    const expectedRefund = parseUnits('10', 18) - 500n * price - held
    expect(closed).toMatchObject({
      reason: 'ClosedByRenter',
      endedAt: closedAt,
      refunded: expectedRefund,
      settlement: undefined,
    })
    expect(await tokenBalance(renter.account.address)).toBe(beforeClose + expectedRefund)

    // The provider's last acknowledgement, up to the close, settles the lease at once.
    const lastServed = closedAt - startedAt - 10
    const last = await redeemUsage(provider, {
      deployment: gf,
      leaseId,
      servedSec: lastServed,
      at: closedAt,
      signature: await signUsage({
        account: sessionKey.account,
        chainId,
        leaseMarket: gf.contracts.leases,
        leaseId,
        servedSec: lastServed,
        at: closedAt,
      }),
    })
    expect(last.payment).toBe(BigInt(lastServed - 500) * price)
    expect(last.settlement).toMatchObject({
      reason: 'ClosedByRenter',
      endedAt: closedAt,
      servedSec: lastServed,
      refunded: 10n * price,
      penalty: 0n,
    })
    expect(await getLease(renter, { deployment: gf, leaseId })).toMatchObject({
      status: 'Settled',
      reason: 'ClosedByRenter',
      deposit: 0n,
    })

    const mine = await listLeases(renter, { deployment: gf, renter: renter.account.address })
    expect(mine.map((lease) => [lease.leaseId, lease.status])).toEqual([[leaseId, 'Settled']])
    const served = await listLeases(renter, {
      deployment: gf,
      provider: provider.account.address,
      status: 'Active',
    })
    expect(served).toEqual([])
  })
})
