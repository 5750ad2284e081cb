import { type Chain, createClient, defineChain, http } from 'viem'
import { getChainId } from 'viem/actions'
import { ChainMismatchError, RpcUnreachableError } from './errors.js'

/** Where the user said which chain to expect, and what to tell them when the node is another. */
export interface ExpectedChain {
  id: number
  /** What said so: `--chain`, `provider.toml (chain.chainId)`, a deployment file. */
  source: string
}

export interface ChainOfParameters {
  url: string
  /** How often to retry eth_chainId before the node counts as unreachable. */
  retryCount: number
  /** Printed when the node cannot be reached: how to point the CLI at one. */
  rpcHint: string
  /** The chain the user expects, read once the node has answered (so an unreachable node is said first). */
  expected?: (() => ExpectedChain | undefined) | undefined
  /** Printed when the node is another chain than expected: how to fix it. */
  chainHint: (expected: number, actual: number) => string
}

/**
 * The node's chain (eth_chainId), checked against the one the user expects.
 *
 * @example
 * const chain = await chainOf({
 *   url: 'http://127.0.0.1:8545',
 *   retryCount: 0,
 *   rpcHint: 'Start the node, or pass --rpc <url>.',
 *   expected: () => ({ id: 31337, source: '--chain' }),
 *   chainHint: (expected, actual) => `Pass --chain ${actual}.`,
 * })
 */
export async function chainOf({
  url,
  retryCount,
  rpcHint,
  expected,
  chainHint,
}: ChainOfParameters): Promise<Chain> {
  let id: number
  try {
    id = await getChainId(createClient({ transport: http(url, { retryCount, timeout: 10_000 }) }))
  } catch (error) {
    throw new RpcUnreachableError({ url, cause: error, hint: rpcHint })
  }
  checkChainId(id, { url, expected: expected?.(), chainHint })
  return defineChain({
    id,
    name: `chain ${id}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [url] } },
  })
}

/**
 * Throws a {@link ChainMismatchError} when `expected` names another chain than `actual`.
 *
 * @example
 * checkChainId(31337, { url, expected: { id: 1, source: '--chain' }, chainHint: (e, a) => `Pass --chain ${a}.` })
 */
export function checkChainId(
  actual: number,
  {
    url,
    expected,
    chainHint,
  }: { url: string; expected: ExpectedChain | undefined; chainHint: ChainOfParameters['chainHint'] },
): void {
  if (expected === undefined || expected.id === actual) return
  throw new ChainMismatchError({
    expected: expected.id,
    actual,
    url,
    source: expected.source,
    hint: chainHint(expected.id, actual),
  })
}
