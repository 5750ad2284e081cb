import type { Account, Chain, Client, Transport } from 'viem'
import * as z from 'zod/mini'
import {
  ParamsUpdated,
  setParams as setParamsFunction,
  errors as taskMarketErrors,
} from '../abis/taskMarket.js'
import type { ContractRevertedErrorType } from '../errors/contract.js'
import { taskMarketHints } from '../errors/hints/taskMarket.js'
import type { TransactionRevertedErrorType } from '../errors/transaction.js'
import { InvalidParametersError, type InvalidParametersErrorType } from '../errors/validation.js'
import * as s from '../internal/schemas.js'
import { validate } from '../internal/validate.js'
import {
  findEvent,
  type WriteOptions,
  type WriteResult,
  writeAndWait,
  writeOptions,
} from '../internal/write.js'
import type { DeploymentParameter } from '../types/deployment.js'
import { type Amount, gridToken } from '../utils/amount.js'
import type { Duration } from '../utils/duration.js'
import { getProtocolParams, type ProtocolParams } from './getProtocolParams.js'

export type SetParamsParameters = DeploymentParameter &
  WriteOptions & {
    /** Protocol fee on each payment, in basis points: at most 2000 (20%). */
    protocolFeeBps?: number | undefined
    /** Share of the fee paid to stakers, in basis points of the fee: at most 5000. */
    stakerShareBps?: number | undefined
    /** Collateral per replica as basis points of maxPayment: 1000 to 20000. */
    collateralBps?: number | undefined
    /** Share of slashed collateral paid to the client, in basis points: at most 10000. */
    slashToClientBps?: number | undefined
    /** Length of the reveal phase: 1 minute to 1 day (e.g. `'10m'`). */
    revealWindow?: Duration | undefined
    /** Time allowed past maxRuntimeSec before a claim is a no-show: 1 minute to 1 day. */
    claimGrace?: Duration | undefined
    /** Least collateral per replica: at most 1e24 base units. */
    minCollateral?: Amount | undefined
    /** Least and default audit probability of auditable results, in basis points: 100 to 10000. */
    auditBps?: number | undefined
    /** Time eligible providers have to join an audit round: 1 minute to 1 day. */
    auditJoinWindow?: Duration | undefined
  }

export type SetParamsReturnType = WriteResult & ProtocolParams

export type SetParamsErrorType =
  | InvalidParametersErrorType
  | ContractRevertedErrorType
  | TransactionRevertedErrorType
  | Error

const minute = 60
const day = 86_400
/** The contract's MAX_MIN_COLLATERAL, in base units. */
const maxMinCollateral = 10n ** 24n

/** A whole number from `min` to `max`. */
const bounded = (min: number, max: number) =>
  z.transform((input: unknown, context) => {
    const value = typeof input === 'bigint' ? Number(input) : input
    if (typeof value === 'number' && Number.isSafeInteger(value) && value >= min && value <= max) return value
    context.issues.push({ code: 'custom', message: `expected a whole number from ${min} to ${max}`, input })
    return z.NEVER
  })

/** A duration of 1 minute to 1 day, in seconds. */
const window = /* @__PURE__ */ z.pipe(
  s.duration,
  z.transform((seconds: number, context) => {
    if (seconds >= minute && seconds <= day) return seconds
    context.issues.push({
      code: 'custom',
      message: 'must be 1 minute to 1 day (60 to 86400 seconds)',
      input: seconds,
    })
    return z.NEVER
  }),
)

const schema = (decimals: number) =>
  z.object({
    protocolFeeBps: z.optional(bounded(0, 2_000)),
    stakerShareBps: z.optional(bounded(0, 5_000)),
    collateralBps: z.optional(bounded(1_000, 20_000)),
    slashToClientBps: z.optional(bounded(0, 10_000)),
    revealWindow: z.optional(window),
    claimGrace: z.optional(window),
    minCollateral: z.optional(
      z.pipe(
        s.amount(decimals),
        z.transform((value: bigint, context) => {
          if (value <= maxMinCollateral) return value
          context.issues.push({ code: 'custom', message: 'must be at most 1e24 base units', input: value })
          return z.NEVER
        }),
      ),
    ),
    auditBps: z.optional(bounded(100, 10_000)),
    auditJoinWindow: z.optional(window),
  })

const names = [
  'protocolFeeBps',
  'stakerShareBps',
  'collateralBps',
  'slashToClientBps',
  'revealWindow',
  'claimGrace',
  'minCollateral',
  'auditBps',
  'auditJoinWindow',
] as const

/**
 * Changes the market's parameters (owner only; in real deployments the owner
 * is a timelock, so this is what its proposal executes). Parameters left out
 * keep their current values, read first. Every bound the contract enforces is
 * checked before sending.
 *
 * @example
 * import { setParams } from '@gridforge/sdk'
 *
 * const params = await setParams(ownerClient, { deployment, protocolFeeBps: 400, revealWindow: '15m' })
 */
export async function setParams(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: SetParamsParameters,
): Promise<SetParamsReturnType> {
  const { deployment } = parameters
  const token = deployment.token ?? gridToken
  const action = 'setParams'
  const changes = validate(action, schema(token.decimals), parameters)
  const given = names.filter((name) => changes[name] !== undefined)
  if (given.length === 0) {
    throw new InvalidParametersError({
      action,
      fields: [{ path: '(parameters)', message: `pass at least one of ${names.join(', ')}` }],
    })
  }
  const current: ProtocolParams =
    given.length === names.length
      ? (changes as ProtocolParams)
      : await getProtocolParams(client, { deployment }).then(
          ({ treasury: _, taskCount: __, ...params }) => params,
        )
  const next: ProtocolParams = {
    protocolFeeBps: changes.protocolFeeBps ?? current.protocolFeeBps,
    stakerShareBps: changes.stakerShareBps ?? current.stakerShareBps,
    collateralBps: changes.collateralBps ?? current.collateralBps,
    slashToClientBps: changes.slashToClientBps ?? current.slashToClientBps,
    revealWindow: changes.revealWindow ?? current.revealWindow,
    claimGrace: changes.claimGrace ?? current.claimGrace,
    minCollateral: changes.minCollateral ?? current.minCollateral,
    auditBps: changes.auditBps ?? current.auditBps,
    auditJoinWindow: changes.auditJoinWindow ?? current.auditJoinWindow,
  }
  const market = deployment.contracts.market
  const receipt = await writeAndWait(client, {
    action,
    hints: taskMarketHints,
    token,
    address: market,
    abi: [setParamsFunction, ...taskMarketErrors],
    functionName: 'setParams',
    args: [next],
    ...writeOptions(parameters),
  })
  const { args } = findEvent(action, receipt, market, ParamsUpdated)
  return { ...args.params, hash: receipt.transactionHash, blockNumber: receipt.blockNumber }
}
