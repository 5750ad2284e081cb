import type { Address } from 'viem'
import * as z from 'zod/mini'
import type { Deployment } from '../types/deployment.js'

/** The Gridforge contracts that have an owner (OpenZeppelin `Ownable2Step`), by their key in `deployment.contracts`. */
export const ownableContracts = ['market', 'staking', 'providers'] as const

/** A Gridforge contract that has an owner: `market` (TaskMarket), `staking` (Staking) or `providers` (ProviderRegistry). */
export type OwnableContract = (typeof ownableContracts)[number]

/** The `contract` parameter: one of {@link ownableContracts}, with a message saying which are. */
export const contractSchema = /* @__PURE__ */ z.enum(ownableContracts, {
  error: "expected one of 'market', 'staking', 'providers' (sources, token and timelock have no owner)",
})

/** The address of `contract` in `deployment`. */
export function contractAddress(deployment: Deployment, contract: OwnableContract): Address {
  return deployment.contracts[contract]
}
