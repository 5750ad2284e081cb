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
import type { TokenInfo } from '../utils/amount.js'

/** The options every write action accepts besides its own. */
export interface WriteOptions {
  /** The sender; defaults to the client's account. */
  account?: Account | Address | undefined
  /** Blocks to wait for after inclusion (default 1). */
  confirmations?: number | undefined
}

/** What every write action returns besides its decoded result. */
export interface WriteResult {
  /** The transaction hash. */
  hash: Hash
  /** The block the transaction was included in. */
  blockNumber: bigint
}

interface WriteRequest {
  action: string
  hints: RevertHints
  token?: TokenInfo | undefined
  address: Address
  abi: Abi
  functionName: string
  args: readonly unknown[]
  account?: Account | Address | undefined
  confirmations?: number | undefined
}

/**
 * Sends a contract write and waits for its receipt. Reverts (at estimation or
 * on chain) become typed errors with a hint.
 */
export async function writeAndWait(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  { action, hints, token, confirmations, account, ...request }: WriteRequest,
): Promise<TransactionReceipt> {
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
