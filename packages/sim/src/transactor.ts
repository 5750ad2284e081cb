/**
 * The one way the simulation writes to the chain: each transaction is mined in its own block at a time the
 * simulation chooses, its receipt is booked in the ledger (gas to the sender, GRID movements from its
 * events), and a revert is an error, since a strategy never sends a transaction it expects to fail.
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
    call: {
      address: Address
      abi: abi
      functionName: name
      args: ContractFunctionArgs<abi, 'nonpayable' | 'payable', name>
    },
  ): Promise<TransactionReceipt> {
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
    } catch (error) {
      throw new SimulationRevertError(
        `${call.functionName} from ${from} reverted: ${(error as Error).message}`,
        {
          cause: error,
        },
      )
    }
    const receipt = await this.public.getTransactionReceipt({ hash })
    this.#blockTime = time
    this.transactions++
    if (receipt.status !== 'success') {
      throw new SimulationRevertError(`${call.functionName} from ${from} reverted (${hash})`)
    }
    this.#ledger.book(from, receipt.gasUsed, receipt.logs)
    return receipt
  }

  /** Moves the chain's clock to `at` with an empty block (for reads that depend on the time). */
  async mineAt(at: number) {
    const time = Math.max(Math.ceil(at), this.#blockTime + 1)
    await this.#provider.request({ method: 'evm_mine' as never, params: [time] as never })
    this.#ledger.advanceTo(time)
    this.#blockTime = time
  }
}
