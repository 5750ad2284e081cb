import type { Account, Address, Chain, Client, Hex, Transport } from 'viem'
import { concat, hexToBigInt, numberToHex, size, slice } from 'viem'
import { call } from 'viem/actions'
import { getAction } from 'viem/utils'

/**
 * Runtime code of a read-only aggregator (82 bytes, hand-assembled; source in
 * the comment below). Calldata: for each call, `target (20 bytes) ‖ length
 * (2 bytes) ‖ data`; it STATICCALLs each target in turn and returns, for each,
 * a 32-byte word `success << 255 | returnLength` followed by the return data.
 *
 *     push 0, push 0                 ; output offset o, input offset i
 *   loop:
 *     if i >= calldatasize: return(0, o)
 *     target = calldataload(i) >> 96; len = calldataload(i + 20) >> 240
 *     calldatacopy(o + 32, i + 22, len)
 *     success = staticcall(gas, target, o + 32, len, 0, 0)
 *     mstore(o, success << 255 | returndatasize)
 *     returndatacopy(o + 32, 0, returndatasize)
 *     i += 22 + len; o += 32 + returndatasize; jump loop
 */
export const aggregatorCode: Hex =
  '0x600060005b368110600f57506000f35b803560601c816014013560f01c80836016018560200137600060008286602001855afa60ff1b3d1784523d6000856020013e905060160101903d0160200190600456'

/** Where the aggregator is placed for the call (any address without code of its own would do). */
export const aggregatorAddress: Address = '0x00000000000000000000000000000000006c656e'

/** What one call of an {@link aggregate} did: its return data, or its revert data (`0x` when it ran out of gas). */
export interface AggregatedResult {
  success: boolean
  data: Hex
}

/**
 * Makes `calls` to `target` in one `eth_call`, with the aggregator placed at
 * {@link aggregatorAddress} by a state override, and returns what each did.
 * `getTasks` reads through it on chains without Multicall3 (its docstring
 * gives the figures against viem's deployless multicall).
 */
export async function aggregate(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  {
    target,
    calls,
    blockNumber,
  }: { target: Address; calls: readonly Hex[]; blockNumber?: bigint | undefined },
): Promise<AggregatedResult[]> {
  const { data } = await getAction(
    client,
    call,
    'call',
  )({
    to: aggregatorAddress,
    data: concat(calls.flatMap((callData) => [target, numberToHex(size(callData), { size: 2 }), callData])),
    blockNumber,
    stateOverride: [{ address: aggregatorAddress, code: aggregatorCode }],
  })
  const output = data ?? '0x'
  const results: AggregatedResult[] = []
  for (let offset = 0; offset < size(output); ) {
    const header = hexToBigInt(slice(output, offset, offset + 32))
    const length = Number(header & ((1n << 255n) - 1n))
    const start = offset + 32
    results.push({
      success: header >> 255n === 1n,
      data: length === 0 ? '0x' : slice(output, start, start + length),
    })
    offset = start + length
  }
  if (results.length !== calls.length) {
    throw new Error(`the aggregator returned ${results.length} results for ${calls.length} calls`)
  }
  return results
}
