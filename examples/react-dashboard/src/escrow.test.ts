import { describe, expect, it } from 'vitest'
import { describeEscrowPlan, escrowPlan } from './escrow'
import { revertSentence } from './revertSentence'

const grid = (units: number) => BigInt(units) * 10n ** 18n
const wallet = (balance: number, token: number, allowance = 0) => ({
  balance: grid(balance),
  token: grid(token),
  allowance: grid(allowance),
})

describe('escrowPlan', () => {
  const plan = (
    maxPayment: string,
    replicas: string,
    account: ReturnType<typeof wallet>,
    deterministic = false,
  ) => escrowPlan({ maxPayment, replicas, deterministic, wallet: account })

  it('takes the escrow from the market balance when it covers it', () => {
    expect(plan('2', '3', wallet(6, 0))).toEqual({ kind: 'balance', escrow: grid(6) })
    // An audited task (one replica of a deterministic source) escrows twice the payment.
    expect(plan('2', '1', wallet(3, 10), true)).toEqual({
      kind: 'deposit',
      escrow: grid(4),
      shortfall: grid(1),
    })
  })

  it('deposits the shortfall in the same step, or lets the market pull it within the allowance', () => {
    // A new user: 1000 GRID in the account, none in the market.
    expect(plan('5000', '1', wallet(0, 1000))).toMatchObject({ kind: 'short', shortfall: grid(5000) })
    expect(plan('5', '1', wallet(0, 1000))).toEqual({ kind: 'deposit', escrow: grid(5), shortfall: grid(5) })
    expect(plan('5', '1', wallet(1, 1000, 10))).toEqual({
      kind: 'allowance',
      escrow: grid(5),
      shortfall: grid(4),
    })
  })

  it('says nothing until the values are amounts', () => {
    expect(plan('', '1', wallet(1, 1))).toBeUndefined()
    expect(plan('abc', '1', wallet(1, 1))).toBeUndefined()
    expect(plan('1', '0', wallet(1, 1))).toBeUndefined()
    expect(
      escrowPlan({ maxPayment: '1', replicas: '1', deterministic: false, wallet: undefined }),
    ).toBeUndefined()
  })

  it('describes each plan in GRID', () => {
    const short = plan('5000', '1', wallet(0, 1000))
    expect(short && describeEscrowPlan(short, 0n)).toBe(
      'This task escrows up to 5000 GRID, but you hold 1000 GRID in all (market balance and account): lower the max payment or the replicas, or get 4000 GRID more.',
    )
    const deposit = plan('5', '1', wallet(0, 1000))
    expect(deposit && describeEscrowPlan(deposit, 0n)).toBe(
      'This task escrows up to 5 GRID, but your market balance is 0 GRID: submitting deposits 5 GRID from your account first (after approving the market).',
    )
  })
})

describe('revertSentence', () => {
  it('leads TaskMarketInsufficientBalance with the amounts in GRID', () => {
    const error = {
      errorName: 'TaskMarketInsufficientBalance',
      args: ['0x70997970C51812dc3A010C7d01b50e0d17dc79C8', 0n, grid(5000)],
    }
    expect(revertSentence(error)).toBe(
      'Your market balance is 0 GRID, and this needs 5000 GRID: deposit 5000 GRID more (Wallet → Deposit), then try again.',
    )
    expect(revertSentence(new Error('boom'))).toBeUndefined()
  })
})
