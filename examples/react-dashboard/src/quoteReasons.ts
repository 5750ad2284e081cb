import type { ClaimRefusal, ClaimRefusalReason, TaskQuote } from '@gridforge/sdk'
import { formatGrid, formatGridPerGpuSecond } from './amount'

/** What each refusal reason is called (the CLI's `gridforge task quote` wording). */
export const reasonLabels: Record<ClaimRefusalReason, string> = {
  paused: 'paused',
  notSubscribed: 'not subscribed',
  gpuCount: 'GPU count',
  vram: 'VRAM',
  computeCapability: 'compute capability',
  reputation: 'reputation',
  collateral: 'collateral',
  priceFloor: 'price floor',
  alreadyClaimed: 'already on the task',
}

/** Every refusal for `reason`, one per provider it holds back. */
export function refusalsOf<reason extends ClaimRefusalReason>(quote: TaskQuote, reason: reason) {
  return quote.ineligible.providers.flatMap((entry) =>
    entry.refusals.filter(
      (refusal): refusal is Extract<ClaimRefusal, { reason: reason }> => refusal.reason === reason,
    ),
  )
}

/**
 * The numbers behind one reason, given its refusals (`refusalsOf`): what the task asks against what
 * the providers it holds back offer, and what would help where the client can do something.
 */
export function describeRefusals(refusals: ClaimRefusal[], sourceId: number): string {
  const distinct = (values: string[]) => [...new Set(values)].join(', ')
  const first = refusals[0]
  if (first === undefined) return ''
  switch (first.reason) {
    case 'gpuCount':
    case 'vram':
    case 'computeCapability': {
      const unit = first.reason === 'gpuCount' ? ' GPUs' : first.reason === 'vram' ? ' MiB per GPU' : ''
      const offers = refusals.flatMap((refusal) => ('offered' in refusal ? [String(refusal.offered)] : []))
      return `the task needs ${first.required}${unit}, they offer ${distinct(offers)}`
    }
    case 'priceFloor': {
      const floors = refusals.flatMap((refusal) =>
        'floor' in refusal ? [formatGridPerGpuSecond(refusal.floor)] : [],
      )
      return `it pays ${formatGridPerGpuSecond(first.price)}, below their floors (${distinct(floors)}): raise the max payment`
    }
    case 'collateral': {
      const stakes = refusals.flatMap((refusal) =>
        'available' in refusal ? [formatGrid(refusal.available)] : [],
      )
      return `a claim locks ${formatGrid(first.required)} of stake, they have ${distinct(stakes)} available: a lower max payment locks less`
    }
    case 'reputation': {
      const records = refusals.flatMap((refusal) =>
        'completed' in refusal ? [`${refusal.completed} completed, ${refusal.successBps / 100} %`] : [],
      )
      return `the task asks for ${first.minCompleted} completed and ${first.minSuccessBps / 100} % success, they have ${distinct(records)}`
    }
    case 'notSubscribed':
      return `not in source #${sourceId}'s pool: providers choose the sources they serve`
    case 'paused':
      return 'paused by their operators: they take no new tasks'
    case 'alreadyClaimed':
      return 'they hold a slot of this task: nobody claims twice'
  }
}
