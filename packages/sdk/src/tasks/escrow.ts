import type { Account, Chain, Client, Transport } from 'viem'
import { getSourceTerms, errors as sourceRegistryErrors } from '../abis/sourceRegistry.js'
import { sourceRegistryHints } from '../errors/hints/registries.js'
import { read } from '../internal/write.js'
import type { DeploymentParameter } from '../types/deployment.js'

/**
 * Whether a task is audited with some probability: one replica of a source
 * whose results can be checked (deterministic, re-run and compared; or with a
 * validator that auditors run). Internal: not exported from the package.
 */
export function isAuditable({ replicas, checkable }: { replicas: number; checkable: boolean }): boolean {
  return replicas === 1 && checkable
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

/**
 * Whether results of `sourceId` can be checked: it is deterministic or names a
 * validator (from the source registry; an unknown source reverts with a hint).
 */
export async function isCheckableSource(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  { deployment, action, sourceId }: DeploymentParameter & { action: string; sourceId: number },
): Promise<boolean> {
  const terms = await read<{ validator: number; requirements: { deterministic: boolean } }>(client, {
    action,
    hints: sourceRegistryHints,
    address: deployment.contracts.sources,
    abi: [getSourceTerms, ...sourceRegistryErrors],
    functionName: 'getSourceTerms',
    args: [sourceId],
  })
  return terms.requirements.deterministic || terms.validator !== 0
}
