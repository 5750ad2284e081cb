/** What the simulator's tests share: one chain per test file and small markets that run in a second. */
import { Session } from '../src/experiment.js'
import { resolveParams, type SimParams } from '../src/params.js'

/** A small market: few tasks, so that a run takes a fraction of a second. */
export function smallParams(overrides: Record<string, number> = {}): SimParams {
  return resolveParams({ tasks: 16, ...overrides })
}

export async function openSession(): Promise<Session> {
  return Session.open()
}
