/**
 * The one way the simulation writes to the chain: each transaction is mined in its own block at a time the
 * simulation chooses, its receipt is booked in the ledger (gas to the sender, GRID movements from its
 * events), and a revert is an error, since a strategy never sends a transaction it expects to fail — except
 * through `attempt`, for a race a participant may lose (joining an audit).
 */
import {
  type Abi,
  type Address,
  type ContractFunctionArgs,
  type ContractFunctionName,
  createPublicClient,
  createWalletClient,
  custom,
  type EIP1193Provider,
  encodeFunctionData,
  type Hex,
  type TransactionReceipt,
} from 'viem'
import type { Ledger } from './ledger.js'

/** Gas limit of every simulated transaction: high enough for any Gridforge call, so none is estimated. */
const GAS_LIMIT = 3_000_000n

export class SimulationRevertError extends Error {
  override name = 'SimulationRevertError'
}

/** A contract call: what `send` encodes. */
export interface Call<abi extends Abi, name extends ContractFunctionName<abi, 'nonpayable' | 'payable'>> {
  address: Address
  abi: abi
  functionName: name
  args: ContractFunctionArgs<abi, 'nonpayable' | 'payable', name>
}

/** Every message of an error and of its causes, joined: where the chain's revert reason is written. */
function messages(error: unknown): string {
  const parts: string[] = []
  for (
    let e = error as { message?: unknown; cause?: unknown } | undefined;
    e !== undefined && e !== null;
    e = e.cause as typeof e
  ) {
    if (typeof e.message === 'string') parts.push(e.message)
    if (parts.length > 10) break
  }
  return parts.join('\n')
}

export class Transactor {
  readonly public
  readonly #wallet
  readonly #provider: EIP1193Provider
  readonly #ledger: Ledger
  /** Timestamp of the last block mined. */
  #blockTime: number
  /** Transactions sent since the run started. */
  transactions = 0

  constructor(provider: EIP1193Provider, ledger: Ledger, blockTime: number) {
    this.#provider = provider
    this.#ledger = ledger
    this.#blockTime = blockTime
    this.public = createPublicClient({ transport: custom(provider) })
    this.#wallet = createWalletClient({ transport: custom(provider) })
  }

  /** The time of the last block: the chain's now. */
  get now(): number {
    return this.#blockTime
  }

  /**
   * Sends `functionName(args)` to `address` from `from` in a block at `at` (or one second after the last
   * block, if that is later) and returns the receipt.
   */
  async send<const abi extends Abi, name extends ContractFunctionName<abi, 'nonpayable' | 'payable'>>(
    from: Address,
    at: number,
    call: Call<abi, name>,
  ): Promise<TransactionReceipt> {
    const sent = await this.#send(from, at, call)
    if ('receipt' in sent) return sent.receipt
    throw sent.error
  }

  /**
   * Like `send`, for a transaction that may lose a race it cannot see coming (joining an audit with a ticket
   * that others beat): a revert whose message names one of `expected` errors is mined like any transaction —
   * its gas is booked to the sender — and answers undefined. Any other revert is an error.
   */
  async attempt<const abi extends Abi, name extends ContractFunctionName<abi, 'nonpayable' | 'payable'>>(
    from: Address,
    at: number,
    call: Call<abi, name>,
    expected: readonly string[],
  ): Promise<TransactionReceipt | undefined> {
    const sent = await this.#send(from, at, call)
    if ('receipt' in sent) return sent.receipt
    if (sent.mined && expected.some((name) => messages(sent.error).includes(name))) return undefined
    throw sent.error
  }

  async #send<const abi extends Abi, name extends ContractFunctionName<abi, 'nonpayable' | 'payable'>>(
    from: Address,
    at: number,
    call: Call<abi, name>,
  ): Promise<{ receipt: TransactionReceipt } | { error: SimulationRevertError; mined: boolean }> {
    const time = Math.max(Math.ceil(at), this.#blockTime + 1)
    if (process.env.SIM_DEBUG) console.log('send', call.functionName, from.slice(0, 8), time)
    await this.#provider.request({ method: 'evm_setNextBlockTimestamp' as never, params: [time] as never })
    this.#ledger.advanceTo(time)
    const data = encodeFunctionData({
      abi: call.abi,
      functionName: call.functionName,
      args: call.args,
    } as never)
    let hash: Hex
    try {
      hash = await this.#wallet.sendTransaction({
        account: from,
        chain: null,
        to: call.address,
        data,
        gas: GAS_LIMIT,
      })
    } catch (cause) {
      const error = new SimulationRevertError(
        `${call.functionName} from ${from} reverted: ${(cause as Error).message}`,
        { cause },
      )
      // The chain mines a reverted transaction all the same (automine): book its gas and its block.
      const block = await this.public.getBlock({ blockTag: 'latest' })
      const mined = block.timestamp === BigInt(time) && block.transactions.length === 1
      if (mined) {
        const receipt = await this.public.getTransactionReceipt({ hash: block.transactions[0] as Hex })
        this.#blockTime = time
        this.transactions++
        this.#ledger.book(from, receipt.gasUsed, [])
      }
      return { error, mined }
    }
    const receipt = await this.public.getTransactionReceipt({ hash })
    this.#blockTime = time
    this.transactions++
    if (receipt.status !== 'success') {
      throw new SimulationRevertError(`${call.functionName} from ${from} reverted (${hash})`)
    }
    this.#ledger.book(from, receipt.gasUsed, receipt.logs)
    return { receipt }
  }

  /** The number of the last block mined. */
  async blockNumber(): Promise<bigint> {
    return BigInt((await this.#provider.request({ method: 'eth_blockNumber' })) as Hex)
  }

  /** The chain's EIP-1193 provider, for a measurement that sends its transactions itself (see `mineNextAt`). */
  get provider(): EIP1193Provider {
    return this.#provider
  }

  /**
   * Sets the time of the next block to `at` (or a second after the last, if that is later) for a transaction sent
   * straight to the provider, which is then neither read back nor booked; the time goes on from it.
   */
  async mineNextAt(at: number) {
    const time = Math.max(Math.ceil(at), this.#blockTime + 1)
    await this.#provider.request({ method: 'evm_setNextBlockTimestamp' as never, params: [time] as never })
    this.#ledger.advanceTo(time)
    this.#blockTime = time
    this.transactions++
  }

  /** Moves the chain's clock to `at` with an empty block (for reads that depend on the time). */
  async mineAt(at: number) {
    const time = Math.max(Math.ceil(at), this.#blockTime + 1)
    await this.#provider.request({ method: 'evm_mine' as never, params: [time] as never })
    this.#ledger.advanceTo(time)
    this.#blockTime = time
  }
}
