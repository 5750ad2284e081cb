import { DeploymentNotFoundError, type GridforgeDeployment, getDeployment } from '@gridforge/contracts'
import * as z from 'zod'
import { type ChainOfParameters, checkChainId } from './chain.js'
import { DeploymentMissingError, UsageError } from './errors.js'
import { readJsonFile } from './readJsonFile.js'

/** A deployment as the CLIs use it: the SDK's `Deployment`, with the chain id always known. */
export type CliDeployment = Pick<GridforgeDeployment, 'contracts' | 'blockNumber'> & {
  chainId: number
  token?: { symbol: string; decimals: number } | undefined
}

const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'expected an address (0x + 40 hex digits)')

const deploymentFileSchema = z.object({
  chainId: z.number().int().positive().optional(),
  blockNumber: z.number().int().nonnegative().default(0),
  contracts: z.object({
    token: address,
    sources: address,
    staking: address,
    providers: address,
    market: address,
    // Optional: deployment files written before the lease market have none (the lease commands say so).
    leases: address.optional(),
    timelock: address.optional(),
  }),
  token: z.object({ symbol: z.string().min(1), decimals: z.number().int().min(0).max(36) }).optional(),
})

export interface DeploymentOfParameters {
  /** The node's chain id. */
  chainId: number
  /** The node's URL, named when the file is for another chain. */
  url: string
  /** The deployment file the user gave, if any. */
  file: string | undefined
  /** The option or config field the file came from (`--deployment`, `chain.deployment`). */
  label: string
  /** What says the chain when the file's `chainId` is not the node's (`--deployment <file>`). */
  source: string
  /** Printed when no deployment is known for the chain: where to give one. */
  deploymentHint: string
  /** Printed when the file is for another chain than the node's. */
  chainHint: ChainOfParameters['chainHint']
}

/**
 * The deployment file the user gave, else the one `@gridforge/contracts`
 * records for the node's chain.
 *
 * @example
 * const deployment = await deploymentOf({
 *   chainId: 31337,
 *   url: 'http://127.0.0.1:8545',
 *   file: './deployment.json',
 *   label: '--deployment',
 *   source: '--deployment ./deployment.json',
 *   deploymentHint: 'Pass --deployment <file.json> with the addresses:',
 *   chainHint: (expected, actual) => `Pass --chain ${actual}.`,
 * })
 */
export async function deploymentOf({
  chainId,
  url,
  file,
  label,
  source,
  deploymentHint,
  chainHint,
}: DeploymentOfParameters): Promise<CliDeployment> {
  if (file === undefined) {
    try {
      return { ...getDeployment(chainId), chainId }
    } catch (error) {
      if (error instanceof DeploymentNotFoundError)
        throw new DeploymentMissingError({ chainId, hint: deploymentHint })
      throw error
    }
  }
  const result = deploymentFileSchema.safeParse(await readJsonFile(file, label))
  if (!result.success) {
    const issue = result.error.issues[0]
    throw new UsageError(
      `${label} ${file}: ${issue?.path.join('.') || '(file)'}: ${issue?.message ?? 'invalid'}`,
      [
        'The file needs { "contracts": { "token", "sources", "staking", "providers", "market" }, "blockNumber" }.',
      ],
    )
  }
  const deployment = result.data
  checkChainId(chainId, {
    url,
    expected: deployment.chainId === undefined ? undefined : { id: deployment.chainId, source },
    chainHint,
  })
  return {
    chainId,
    blockNumber: deployment.blockNumber,
    contracts: deployment.contracts as GridforgeDeployment['contracts'],
    token: deployment.token,
  }
}
