import type { Account, Chain, Client, Transport } from 'viem'
import * as z from 'zod/mini'
import { creatorFeesOf } from '../abis/taskMarket.js'
import type { InvalidParametersErrorType } from '../errors/validation.js'
import * as s from '../internal/schemas.js'
import { validate } from '../internal/validate.js'
import { read } from '../internal/write.js'
import type { DeploymentParameter } from '../types/deployment.js'

export type GetCreatorFeesParameters = DeploymentParameter & {
  sourceId: number | bigint
  /** Read at this block (default: the latest). */
  blockNumber?: bigint | undefined
}

/** Creator fees accrued to the source and not yet claimed, in base units. */
export type GetCreatorFeesReturnType = bigint

export type GetCreatorFeesErrorType = InvalidParametersErrorType | Error

const schema = /* @__PURE__ */ z.object({ sourceId: s.uint(32) })

/**
 * Reads the creator fees a source has accrued and its owner has not claimed
 * yet (see {@link claimCreatorFees}).
 *
 * @example
 * import { getCreatorFees } from '@gridforge/sdk'
 *
 * const fees = await getCreatorFees(client, { deployment, sourceId: 3 })
 */
export async function getCreatorFees(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: GetCreatorFeesParameters,
): Promise<GetCreatorFeesReturnType> {
  const { deployment, blockNumber } = parameters
  const action = 'getCreatorFees'
  const { sourceId } = validate(action, schema, parameters)
  return read<bigint>(client, {
    action,
    hints: {},
    address: deployment.contracts.market,
    abi: [creatorFeesOf],
    functionName: 'creatorFeesOf',
    args: [sourceId],
    blockNumber,
  })
}
