/**
 * The lease strategies: each is one participant (provider 0 or renter 0 of the lease world) deviating among
 * honest ones, compared with the same participant playing honest in the same leases.
 */
import type { LeaseSimParams } from './params.js'
import type { LeaseDeviation } from './run.js'

export interface LeaseStrategy {
  name: string
  role: 'provider' | 'renter'
  doc: string
  deviation: LeaseDeviation
  /**
   * What the rules let this strategy take at most, per lease, in seconds of the lease's price (0: nothing). The
   * check fails only when the strategy's interval lies above this bound, which the table reports beside it.
   */
  boundSec?: (
    rules: { ackGrace: number },
    params: Pick<LeaseSimParams, 'ackIntervalSec' | 'lastPeriodIntervals' | 'lagToleranceIntervals'>,
  ) => number
}

export const leaseStrategies: readonly LeaseStrategy[] = [
  {
    name: 'honest-lease-provider',
    role: 'provider',
    doc: 'serves every lease to its end, redeems every few hours, at once on a report, and after the end',
    deviation: {},
  },
  {
    name: 'offline-provider',
    role: 'provider',
    doc: 'goes down mid-lease (saving its running cost) but keeps the lease, redeems the acknowledgements it has, never answers a report',
    deviation: { provider: { index: 0, play: 'offline' } },
  },
  {
    name: 'honest-renter',
    role: 'renter',
    doc: 'acknowledges the seconds it was served every interval; reports a provider that stopped serving',
    deviation: {},
  },
  {
    name: 'last-period-renter',
    role: 'renter',
    doc: 'stops acknowledging in the last intervals of each lease and keeps using it until the gateway cuts it off or it ends',
    deviation: { renter: { index: 0, play: 'last-period' } },
    // The gateway serves until the latest acknowledgement is ackGrace / 2 old or lags by the tolerance (the second
    // that passes it is served): the unacknowledged tail is the smallest of those and the intervals left out.
    boundSec: (rules, params) =>
      Math.min(
        rules.ackGrace / 2 + 1,
        params.lagToleranceIntervals * params.ackIntervalSec + 1,
        params.lastPeriodIntervals * params.ackIntervalSec,
      ),
  },
  {
    name: 'underreporting-renter',
    role: 'renter',
    doc: 'acknowledges a fraction (underReportFraction) less than it was served, hoping to pay less or push the provider under its uptime threshold',
    deviation: { renter: { index: 0, play: 'under-reporting' } },
  },
  {
    name: 'reporting-renter',
    role: 'renter',
    doc: 'reports its provider offline whenever the rules allow (offlineAfter after each proof), hoping for the penalty',
    deviation: { renter: { index: 0, play: 'reporting' } },
  },
]
