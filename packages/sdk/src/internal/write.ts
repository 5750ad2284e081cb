import type {
  Abi,
  AbiEvent,
  Account,
  Address,
  Chain,
  Client,
  ContractEventName,
  Hash,
  Log,
  ParseEventLogsReturnType,
  TransactionReceipt,
  Transport,
} from 'viem'
import { parseEventLogs } from 'viem'
import { readContract, waitForTransactionReceipt, writeContract } from 'viem/actions'
import { getAction } from 'viem/utils'
import { type RevertHints, toContractError } from '../errors/contract.js'
import { EventNotFoundError, TransactionRevertedError } from '../errors/transaction.js'
import { InvalidParametersError } from '../errors/validation.js'
import type { TokenInfo } from '../utils/amount.js'

/** The options every write action accepts besides its own. */
export interface WriteOptions {
  /** The sender; defaults to the client's account. */
  account?: Account | Address | undefined
  /** Blocks to wait for after inclusion (default 1). */
  confirmations?: number | undefined
  /**
   * Gas limit (default: the node's estimate). Set it when what lands before the
   * transaction can change its cost: a reveal estimated while others are still
   * to reveal costs far more if it lands last and settles the task.
   */
  gas?: bigint | undefined
  /** EIP-1559 fee cap per gas, in wei (default: from the chain's fee estimate). */
  maxFeePerGas?: bigint | undefined
  /** EIP-1559 priority fee per gas, in wei. */
  maxPriorityFeePerGas?: bigint | undefined
  /** Legacy gas price, in wei (chains without EIP-1559); not together with the EIP-1559 fees. */
  gasPrice?: bigint | undefined
  /** The sender's nonce (default: the account's nonce manager or the node). */
  nonce?: number | undefined
}

const writeOptionKeys = [
  'account',
  'confirmations',
  'gas',
  'maxFeePerGas',
  'maxPriorityFeePerGas',
  'gasPrice',
  'nonce',
] as const satisfies readonly (keyof WriteOptions)[]

/** The {@link WriteOptions} among an action's parameters (the rest are the action's own). */
export function writeOptions(parameters: WriteOptions): WriteOptions {
  const options: Record<string, unknown> = {}
  for (const key of writeOptionKeys) if (parameters[key] !== undefined) options[key] = parameters[key]
  return options as WriteOptions
}

/** What every write action returns besides its decoded result. */
export interface WriteResult {
  /** The transaction hash. */
  hash: Hash
  /** The block the transaction was included in. */
  blockNumber: bigint
}

interface WriteRequest extends WriteOptions {
  action: string
  hints: RevertHints
  token?: TokenInfo | undefined
  address: Address
  abi: Abi
  functionName: string
  args: readonly unknown[]
}

/**
 * Sends a contract write and waits for its receipt. Reverts (at estimation or
 * on chain) become typed errors with a hint.
 */
export async function writeAndWait(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  { action, hints, token, confirmations, account, ...request }: WriteRequest,
): Promise<TransactionReceipt> {
  checkOverrides(action, request)
  let hash: Hash
  try {
    hash = await getAction(
      client,
      writeContract,
      'writeContract',
    )({
      ...request,
      account: account ?? client.account,
      chain: client.chain,
    } as never)
  } catch (error) {
    throw toContractError(error, { action, hints, token })
  }
  const receipt = await getAction(
    client,
    waitForTransactionReceipt,
    'waitForTransactionReceipt',
  )({ hash, confirmations })
  if (receipt.status === 'reverted') throw new TransactionRevertedError({ action, hash })
  return receipt
}

/** The first `event` the contract at `address` emitted in `receipt`. */
export function findEvent<const event extends AbiEvent>(
  action: string,
  receipt: TransactionReceipt,
  address: Address,
  event: event,
): ParseEventLogsReturnType<[event], ContractEventName<[event]>, true>[number] {
  const logs = parseEventLogs({
    abi: [event] as [AbiEvent],
    logs: receipt.logs.filter((log: Log) => log.address.toLowerCase() === address.toLowerCase()),
  })
  const found = logs[0]
  if (found === undefined)
    throw new EventNotFoundError({ action, event: event.name, hash: receipt.transactionHash })
  return found as never
}

/** A contract read whose reverts become typed errors with a hint. */
export async function read<result>(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  request: {
    action: string
    hints: RevertHints
    token?: TokenInfo | undefined
    address: Address
    abi: Abi
    functionName: string
    args?: readonly unknown[]
    blockNumber?: bigint | undefined
  },
): Promise<result> {
  const { action, hints, token, ...call } = request
  try {
    return (await getAction(client, readContract, 'readContract')(call as never)) as result
  } catch (error) {
    throw toContractError(error, { action, hints, token })
  }
}

/** Refuses gas and fee overrides no transaction could carry, before anything is signed. */
function checkOverrides(action: string, overrides: WriteOptions): void {
  const fields: { path: string; message: string }[] = []
  for (const key of ['gas', 'maxFeePerGas', 'maxPriorityFeePerGas', 'gasPrice'] as const) {
    const value = overrides[key]
    if (value !== undefined && (typeof value !== 'bigint' || value <= 0n))
      fields.push({
        path: key,
        message: `must be a positive bigint (wei or gas units), got ${String(value)}`,
      })
  }
  if (
    overrides.gasPrice !== undefined &&
    (overrides.maxFeePerGas ?? overrides.maxPriorityFeePerGas) !== undefined
  )
    fields.push({
      path: 'gasPrice',
      message: 'pass either gasPrice (legacy) or maxFeePerGas/maxPriorityFeePerGas, not both',
    })
  if (overrides.nonce !== undefined && !(Number.isSafeInteger(overrides.nonce) && overrides.nonce >= 0))
    fields.push({ path: 'nonce', message: `must be a whole number ≥ 0, got ${String(overrides.nonce)}` })
  if (fields.length > 0) throw new InvalidParametersError({ action, fields })
}
