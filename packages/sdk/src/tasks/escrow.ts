import type { Account, Chain, Client, Transport } from 'viem'
import { getSourceTerms, errors as sourceRegistryErrors } from '../abis/sourceRegistry.js'
import { sourceRegistryHints } from '../errors/hints/registries.js'
import { read } from '../internal/write.js'
import type { DeploymentParameter } from '../types/deployment.js'

/**
 * Whether a task is audited with some probability: one replica of a
 * deterministic source (its result can be checked by re-running it).
 * Internal: not exported from the package.
 */
export function isAuditable({
  replicas,
  deterministic,
}: {
  replicas: number
  deterministic: boolean
}): boolean {
  return replicas === 1 && deterministic
}

/**
 * What a task escrows from its client: `replicas × maxPayment`, or
 * `2 × maxPayment` for an auditable task (the second pays its first auditor,
 * and comes back when the draw passes the result).
 */
export function escrowOf({
  maxPayment,
  replicas,
  auditable,
}: {
  maxPayment: bigint
  replicas: number
  auditable: boolean
}): bigint {
  return maxPayment * BigInt(auditable ? 2 : replicas)
}

/** Whether `sourceId` is deterministic, from the source registry (an unknown source reverts with a hint). */
export async function isDeterministicSource(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  { deployment, action, sourceId }: DeploymentParameter & { action: string; sourceId: number },
): Promise<boolean> {
  const [, , requirements] = await read<readonly [boolean, number, { deterministic: boolean }]>(client, {
    action,
    hints: sourceRegistryHints,
    address: deployment.contracts.sources,
    abi: [getSourceTerms, ...sourceRegistryErrors],
    functionName: 'getSourceTerms',
    args: [sourceId],
  })
  return requirements.deterministic
}
