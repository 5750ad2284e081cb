import type { DeploymentParameter } from '@gridforge/sdk'
import type { MutationFunctionContext } from '@tanstack/query-core'
import type { Config, GetConnectorClientErrorType } from '@wagmi/core'
import type { Account, Chain, Client, Transport } from 'viem'
import type { WriteVariables } from './types.js'
import {
  type ChainParameters,
  gridforgeQueryKeyPrefix,
  requireDeployment,
  resolveChain,
  walletClient,
} from './utils.js'

/** What getting the wallet can throw besides the action: no wallet connected, wrong chain, unknown account. */
export type WalletErrorType = GetConnectorClientErrorType

/**
 * Runs a write action with the connected wallet's client on the variables'
 * chain (else the options', else the config's current one) and its deployment.
 * A local `Account` in the variables signs in the page; an address picks the
 * connector account.
 */
export async function writeWith<parameters extends DeploymentParameter, data>(
  config: Config,
  options: ChainParameters,
  variables: WriteVariables<parameters>,
  run: (
    client: Client<Transport, Chain | undefined, Account | undefined>,
    parameters: parameters,
  ) => Promise<data>,
): Promise<data> {
  const { chainId, deployment, account, ...rest } = variables
  const chain = resolveChain(config, {
    chainId: chainId ?? options.chainId,
    deployment: deployment ?? options.deployment,
  })
  const client = await walletClient(config, { chainId: chain.chainId, account })
  return run(client, {
    ...rest,
    deployment: requireDeployment(chain),
    account: typeof account === 'object' ? account : undefined,
  } as unknown as parameters)
}

type OnSuccess<data, variables> = (
  data: data,
  variables: variables,
  onMutateResult: unknown,
  context: MutationFunctionContext,
) => unknown

/**
 * An `onSuccess` that invalidates the named queries (on every chain: cheap, and
 * never stale) and waits for the active ones to refetch, so `mutateAsync`
 * resolves once the screen can show the new state; then runs the caller's own.
 */
export function invalidateAfterWrite<data, variables>(
  names: readonly string[],
  onSuccess: OnSuccess<data, variables> | undefined,
): OnSuccess<data, variables> {
  return async (data, variables, onMutateResult, context) => {
    await Promise.all(
      names.map((name) => context.client.invalidateQueries({ queryKey: [gridforgeQueryKeyPrefix, name] })),
    )
    return onSuccess?.(data, variables, onMutateResult, context)
  }
}
