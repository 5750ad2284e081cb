import type { ClientBehaviour, Strategy } from './types.js'

/**
 * Honest client: submits each task when it needs it, uses the result when it is right, and ends what it
 * must (reopens overdue slots, finalizes, expires) to get its money back.
 */
export function honestClient(): ClientBehaviour {
  return {}
}

export const honestClientStrategy = {
  name: 'honest-client',
  role: 'client',
  doc: 'Submits each task when it needs it and uses correct results.',
  deviate: (cast) => ({ identity: [cast.clients[0] as `0x${string}`] }),
} satisfies Strategy
