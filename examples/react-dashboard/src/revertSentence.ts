import { formatGrid } from './amount'

/**
 * A sentence in GRID for the reverts a client meets with money, to lead an
 * error with (the decoded revert follows it); undefined for any other error.
 */
export function revertSentence(error: unknown): string | undefined {
  // The revert itself, or the first cause that is one.
  let revert = error
  while (typeof revert === 'object' && revert !== null && !('errorName' in revert) && 'cause' in revert)
    revert = revert.cause
  if (typeof revert !== 'object' || revert === null) return undefined
  const { errorName, args } = revert as { errorName?: unknown; args?: unknown }
  if (!Array.isArray(args)) return undefined
  const [, have, need] = args as unknown[]
  if (typeof have !== 'bigint' || typeof need !== 'bigint') return undefined
  switch (errorName) {
    case 'TaskMarketInsufficientBalance':
      return `Your market balance is ${formatGrid(have)}, and this needs ${formatGrid(need)}: deposit ${formatGrid(need - have)} more (Wallet → Deposit), then try again.`
    case 'ERC20InsufficientBalance':
      return `Your account holds ${formatGrid(have)}, and this needs ${formatGrid(need)}.`
    case 'ERC20InsufficientAllowance':
      return `The market may pull ${formatGrid(have)} from your account, and this needs ${formatGrid(need)}: approve it for more (a deposit approves it).`
    default:
      return undefined
  }
}
