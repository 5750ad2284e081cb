/**
 * What the races for the seats of k > 1 tasks did over a set of runs: the claims whose stake-weighted ticket took
 * a seat (some of them from a worse ticket, ClaimReplaced), the claims that lost (TaskMarketClaimTicketTooHigh),
 * and how many of the seats were held when the race ended (the others are first come after it).
 */
import type { SimTask } from '../market/engine.js'

export interface RaceSample {
  races: number
  claims: number
  replaced: number
  lost: number
  /** Seats held when the races ended, and seats raced for. */
  seated: number
  seats: number
}

export function emptyRaceSample(): RaceSample {
  return { races: 0, claims: 0, replaced: 0, lost: 0, seated: 0, seats: 0 }
}

/** Adds the seat races of a run's tasks to `into`. */
export function addRaces(into: RaceSample, tasks: readonly SimTask[]): RaceSample {
  for (const task of tasks) {
    const race = task.race
    if (race === undefined) continue
    into.races++
    into.claims += race.claims
    into.replaced += race.replaced
    into.lost += race.lost
    into.seated += race.seated
    into.seats += task.replicas
  }
  return into
}

/** The figures written to `measures.seat_races` of the results file. */
export function raceMeasures(sample: RaceSample): Record<string, number> {
  return {
    races: sample.races,
    claims_seated: sample.claims,
    replacements: sample.replaced,
    claims_lost: sample.lost,
    claims_per_race: Math.round((100 * (sample.claims + sample.lost)) / Math.max(1, sample.races)) / 100,
    seats_filled_by_race_end: Math.round((10_000 * sample.seated) / Math.max(1, sample.seats)) / 10_000,
  }
}

/** The seat races in a line for the terminal. */
export function raceLine(measures: Readonly<Record<string, number>>): string {
  const m = (name: string) => measures[name] ?? 0
  return `seat races (k > 1): ${m('races')} races, ${m('claims_per_race')} claims each; ${m('claims_seated')} took a seat (${m('replacements')} of them from a worse ticket: ClaimReplaced), ${m('claims_lost')} lost the ticket race; ${(m('seats_filled_by_race_end') * 100).toFixed(1)}% of the seats held when the race ended`
}
