import { type Address, type Hex, keccak256, type TypedDataDomain } from 'viem'
import { encodeJson } from '../storage/encodeJson.js'
import type { ReceiptHardware, UnsignedReceipt } from './schema.js'

/**
 * The EIP-712 types of a receipt. Every field of the document is signed:
 * `version`, `chainId` and `market` through the domain, `hardware` through
 * `hardwareHash` (see {@link hardwareHash}), the rest as they are.
 */
export const receiptTypes = {
  Receipt: [
    { name: 'taskId', type: 'uint256' },
    { name: 'slot', type: 'uint8' },
    { name: 'sourceId', type: 'uint32' },
    { name: 'imageDigest', type: 'bytes32' },
    { name: 'inputCID', type: 'string' },
    { name: 'outputCID', type: 'string' },
    { name: 'logsCID', type: 'string' },
    { name: 'provider', type: 'address' },
    { name: 'startedAt', type: 'uint64' },
    { name: 'finishedAt', type: 'uint64' },
    { name: 'runtimeSec', type: 'uint32' },
    { name: 'exitCode', type: 'int32' },
    { name: 'hardwareHash', type: 'bytes32' },
  ],
} as const

/** Name of the EIP-712 domain of receipts. */
export const receiptDomainName = 'Gridforge Receipt'

/**
 * The EIP-712 domain of a receipt: `{ name: 'Gridforge Receipt', version: '1', chainId,
 * verifyingContract: market }`. Binding the market and chain means a receipt
 * cannot be replayed for a task of another deployment.
 *
 * @example
 * import { receiptDomain } from '@gridforge/sdk'
 *
 * receiptDomain({ chainId: 31337, market: '0x5FbDB2315678afecb367f032d93F642f64180aa3' })
 */
export function receiptDomain({
  chainId,
  market,
  version = 1,
}: {
  chainId: number
  market: Address
  version?: number | undefined
}): TypedDataDomain & { name: string; version: string; chainId: number; verifyingContract: Address } {
  return { name: receiptDomainName, version: String(version), chainId, verifyingContract: market }
}

/**
 * keccak256 of the hardware summary's deterministic JSON: the bytes
 * `putJson` stores (object keys sorted, no whitespace, UTF-8, absent optional
 * fields left out), so `hardwareHash(receipt.hardware)` can be recomputed
 * from the document alone.
 *
 * Why a hash and not a nested struct: EIP-712 can express `Gpu[]` inside a
 * `Hardware` struct, but arrays of structs with optional strings make
 * wallets render (and hardware wallets hash on device) a deep, variable-size
 * tree, and optional fields have no EIP-712 form (they would have to become
 * empty strings, so "absent" and "empty" would sign alike). The hardware
 * summary is informational (the chain does not check it), so one bytes32 keeps
 * the signed message flat and the same size for every host, while a changed
 * GPU, driver or CPU still breaks the signature.
 *
 * @example
 * import { hardwareHash } from '@gridforge/sdk'
 *
 * hardwareHash({ gpus: [{ name: 'NVIDIA L4', vramMiB: 23_034, computeCapability: 89 }], cpuCores: 8, memoryMiB: 32_768 })
 */
export function hardwareHash(hardware: ReceiptHardware): Hex {
  return keccak256(encodeJson(hardware))
}

/**
 * The typed data a provider signs for `receipt`, ready for viem's
 * `signTypedData`, `verifyTypedData`, `hashTypedData` or a wallet's
 * `eth_signTypedData_v4`.
 *
 * @example
 * import { receiptTypedData } from '@gridforge/sdk'
 * import { hashTypedData } from 'viem'
 *
 * const digest = hashTypedData(receiptTypedData(receipt))
 */
export function receiptTypedData(receipt: UnsignedReceipt) {
  return {
    domain: receiptDomain({ chainId: receipt.chainId, market: receipt.market, version: receipt.version }),
    types: receiptTypes,
    primaryType: 'Receipt' as const,
    message: {
      taskId: BigInt(receipt.taskId),
      slot: receipt.slot,
      sourceId: receipt.sourceId,
      imageDigest: receipt.imageDigest,
      inputCID: receipt.inputCID,
      outputCID: receipt.outputCID,
      logsCID: receipt.logsCID,
      provider: receipt.provider,
      startedAt: BigInt(receipt.startedAt),
      finishedAt: BigInt(receipt.finishedAt),
      runtimeSec: receipt.runtimeSec,
      exitCode: receipt.exitCode,
      hardwareHash: hardwareHash(receipt.hardware),
    },
  }
}
