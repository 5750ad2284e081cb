import { parseUnits } from 'viem'
import { formatGrid } from './amount'

/** Where a task's escrow comes from, decided before anything is sent. */
export type EscrowPlan =
  /** The market balance covers it. */
  | { kind: 'balance'; escrow: bigint }
  /** The market pulls the shortfall from the account, within the allowance already given. */
  | { kind: 'allowance'; escrow: bigint; shortfall: bigint }
  /** The account holds the shortfall: deposit it (approving the market first) in the same step. */
  | { kind: 'deposit'; escrow: bigint; shortfall: bigint }
  /** Market balance and account together fall short. */
  | { kind: 'short'; escrow: bigint; shortfall: bigint; available: bigint }

/**
 * What a task escrows (`replicas × maxPayment`, or twice `maxPayment` for an
 * audited one: a single replica of a deterministic source) against what the
 * account has; undefined while the form's values are not amounts yet (the
 * SDK names what is wrong when the task is sent).
 */
export function escrowPlan({
  maxPayment,
  replicas,
  deterministic,
  wallet,
}: {
  maxPayment: string
  replicas: string
  deterministic: boolean | undefined
  wallet: { balance: bigint; token: bigint; allowance: bigint } | undefined
}): EscrowPlan | undefined {
  const count = replicas.trim() === '' ? 1 : Number(replicas)
  if (wallet === undefined || !Number.isInteger(count) || count < 1) return undefined
  let payment: bigint
  try {
    payment = parseUnits(maxPayment.trim(), 18)
  } catch {
    return undefined
  }
  if (payment <= 0n) return undefined
  const escrow = payment * BigInt(count === 1 && deterministic === true ? 2 : count)
  const shortfall = escrow - wallet.balance
  if (shortfall <= 0n) return { kind: 'balance', escrow }
  if (wallet.allowance >= shortfall && wallet.token >= shortfall)
    return { kind: 'allowance', escrow, shortfall }
  if (wallet.token >= shortfall) return { kind: 'deposit', escrow, shortfall }
  return { kind: 'short', escrow, shortfall, available: wallet.balance + wallet.token }
}

/** The plan as one sentence in GRID. */
export function describeEscrowPlan(plan: EscrowPlan, balance: bigint): string {
  const escrow = formatGrid(plan.escrow)
  switch (plan.kind) {
    case 'balance':
      return `This task escrows up to ${escrow} from your market balance (${formatGrid(balance)}).`
    case 'allowance':
      return `This task escrows up to ${escrow}: ${formatGrid(balance)} from your market balance, and the market pulls the other ${formatGrid(plan.shortfall)} from your account.`
    case 'deposit':
      return `This task escrows up to ${escrow}, but your market balance is ${formatGrid(balance)}: submitting deposits ${formatGrid(plan.shortfall)} from your account first (after approving the market).`
    case 'short':
      return `This task escrows up to ${escrow}, but you hold ${formatGrid(plan.available)} in all (market balance and account): lower the max payment or the replicas, or get ${formatGrid(plan.shortfall - (plan.available - balance))} more.`
  }
}
