/**
 * The tasks a run's clients need, drawn from the seed: arrival times, replicas, pricing, gates, runtime,
 * inputs. The same seed gives the same workload whatever the strategies do.
 */
import { type Address, type Hex, keccak256, toHex } from 'viem'
import type { SimParams } from '../params.js'
import { draw, drawBetween, drawExponential } from '../random.js'
import { grid } from '../units.js'

/** One task as its client means it, before submission. */
export interface TaskDraft {
  /** Position in the workload. */
  index: number
  client: Address
  arrival: number
  replicas: 1 | 2 | 3
  metered: boolean
  /** Valuable and gated on reputation. */
  gated: boolean
  /** Seconds an honest run takes (it may exceed the limit: such a run times out). */
  runtimeSec: number
  maxRuntimeSec: number
  maxPayment: bigint
  pricePerSecond: bigint
  /** Seconds from submission to deadline. */
  deadlineAfter: number
  minCompleted: number
  minSuccessBps: number
  /** Tasks with the same input have the same correct result. */
  inputKey: string
  /**
   * The digest of a correct run's output. A run that cannot succeed (`runtimeSec` over the limit) hands in the
   * failure report instead (`honestResult`).
   */
  correct: Hex
  /** Seen by its own client's accounts only (a self-dealt task). */
  private: boolean
}

/** The run's workload: `params.tasks` tasks from `clients`, arriving after `start`. */
export function drawWorkload(params: SimParams, seed: number, clients: readonly Address[], start: number) {
  const drafts: TaskDraft[] = []
  let arrival = start + 600
  for (let index = 0; index < params.tasks; index++) {
    arrival += Math.max(1, Math.round(drawExponential(params.arrivalSpacingSec, seed, 'arrival', index)))
    const client = clients[Math.floor(draw(seed, 'client', index) * clients.length)] as Address
    const kDraw = draw(seed, 'replicas', index)
    const replicas = kDraw < params.k3Share ? 3 : kDraw < params.k3Share + params.k2Share ? 2 : 1
    const metered = draw(seed, 'metered', index) < params.meteredShare
    const gated = draw(seed, 'gated', index) < params.gatedShare
    const duplicate = index > 0 && draw(seed, 'duplicate', index) < params.duplicateInputShare
    // A repeated input is the input of an earlier task: same work, same result.
    const input = duplicate ? Math.floor(draw(seed, 'duplicateOf', index) * index) : index
    const inputKey = `input-${input}`
    const limit = params.sourceMaxRuntimeSec
    const runtimeSec = Math.round(
      drawBetween(params.runtimeMin, params.runtimeMax, seed, 'runtime', input) * limit,
    )
    const multiple = gated ? params.gatedPriceMultiple : 1
    const perSecond = (params.pricePerGpuHour * multiple) / 3600
    // A fixed price is quoted from the runtime the client expects; a metered task caps the bill at the limit.
    const maxPayment = metered
      ? grid(perSecond * limit * params.meteredHeadroom)
      : grid(perSecond * runtimeSec)
    drafts.push({
      index,
      client,
      arrival,
      replicas,
      metered,
      gated,
      runtimeSec,
      maxRuntimeSec: limit,
      maxPayment,
      pricePerSecond: metered ? grid(perSecond) : 0n,
      deadlineAfter: params.deadlineSec,
      minCompleted: gated ? params.gateMinCompleted : 0,
      minSuccessBps: gated ? params.gateMinSuccessBps : 0,
      inputKey,
      correct: keccak256(toHex(`${seed}|${inputKey}|correct`)),
      private: false,
    })
  }
  return drafts
}
