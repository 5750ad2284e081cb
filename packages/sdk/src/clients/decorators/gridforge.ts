import type { Account, Chain, Client, Transport } from 'viem'
import { type SubmitTaskParameters, type SubmitTaskReturnType, submitTask } from '../../tasks/submitTask.js'
import type { Deployment } from '../../types/deployment.js'

/** An action's parameters as the decorated client takes them: the deployment is already bound. */
export type Bound<parameters> = Omit<parameters, 'deployment'> & { deployment?: Deployment | undefined }

/** The actions `client.extend(gridforgeActions({ deployment }))` adds. */
export type GridforgeActions = {
  /** {@inheritDoc submitTask} */
  submitTask(parameters: Bound<SubmitTaskParameters>): Promise<SubmitTaskReturnType>
}

/**
 * Binds every Gridforge action to a viem client and a deployment. The methods
 * call the same standalone functions, so importing those directly keeps
 * bundles small.
 *
 * @example
 * import { createWalletClient, http, publicActions } from 'viem'
 * import { hardhat } from 'viem/chains'
 * import { getDeployment } from '@gridforge/contracts'
 * import { gridforgeActions } from '@gridforge/sdk'
 *
 * const client = createWalletClient({ account, chain: hardhat, transport: http() })
 *   .extend(publicActions)
 *   .extend(gridforgeActions({ deployment: getDeployment(31337) }))
 * const { taskId } = await client.submitTask({ sourceId: 1, input: cid, maxPayment: '5' })
 */
export function gridforgeActions({ deployment }: { deployment: Deployment }) {
  return <client extends Client<Transport, Chain | undefined, Account | undefined>>(
    client: client,
  ): GridforgeActions => {
    const bind = <parameters extends { deployment: Deployment }>(parameters: Bound<parameters>) =>
      ({ ...parameters, deployment: parameters.deployment ?? deployment }) as parameters
    return {
      submitTask: (parameters) => submitTask(client, bind(parameters)),
    }
  }
}
