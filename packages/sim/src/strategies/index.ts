/** Every strategy the simulator plays, in the order of the table. */
import { claimAndAbandonStrategy } from './claimAndAbandon.js'
import { colludingAuditorStrategy, honestAuditorBaseline } from './colludingAuditor.js'
import { colludingPairStrategy } from './colludingPair.js'
import { copycatStrategy } from './copycat.js'
import { failureLiarStrategy } from './failureLiar.js'
import { feeDiscountGamerStrategy, honestStakerBaseline } from './feeDiscountGamer.js'
import { honestClientStrategy } from './honestClient.js'
import { honestProviderStrategy } from './honestProvider.js'
import { honeypotClientStrategy } from './honeypotClient.js'
import { lazyAuditorStrategy } from './lazyAuditor.js'
import { lazyProviderStrategy } from './lazyProvider.js'
import { meteringInflaterStrategy } from './meteringInflater.js'
import { meteringSkimmerStrategy } from './meteringSkimmer.js'
import { reputationFarmerStrategy } from './reputationFarmer.js'
import { sybilOperatorStrategy } from './sybilOperator.js'
import type { Strategy } from './types.js'
import { vetoingClientStrategy } from './vetoingClient.js'

export const strategies: readonly Strategy[] = [
  honestProviderStrategy,
  lazyProviderStrategy,
  failureLiarStrategy,
  copycatStrategy,
  sybilOperatorStrategy,
  colludingPairStrategy,
  claimAndAbandonStrategy,
  reputationFarmerStrategy,
  meteringInflaterStrategy,
  meteringSkimmerStrategy,
  lazyAuditorStrategy,
  colludingAuditorStrategy,
  honestClientStrategy,
  vetoingClientStrategy,
  honeypotClientStrategy,
  feeDiscountGamerStrategy,
]

/** Honest behaviours other strategies are compared with, by name. */
export const baselines: Readonly<Record<string, Strategy | undefined>> = {
  honest: undefined,
  'honest-staker': honestStakerBaseline,
  'honest-auditor': honestAuditorBaseline,
}
