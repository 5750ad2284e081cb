import { createWalletClient, hashTypedData, http, recoverTypedDataAddress } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { cids } from '../../test/fixtures.js'
import { InvalidParametersError } from '../errors/validation.js'
import { getBytes } from '../storage/getBytes.js'
import { memoryStore } from '../storage/memoryStore.js'
import { isCid } from '../utils/cid.js'
import { InvalidReceiptError, ReceiptSignerMismatchError } from './errors.js'
import { parseReceipt, type UnsignedReceipt } from './schema.js'
import { signReceipt } from './signReceipt.js'
import { hardwareHash, receiptDomain, receiptTypedData } from './typedData.js'
import { verifyReceipt } from './verifyReceipt.js'

const provider = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d')
const stranger = privateKeyToAccount('0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a')

const unsigned: UnsignedReceipt = {
  version: 1,
  chainId: 31337,
  market: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
  taskId: '42',
  slot: 0,
  sourceId: 7,
  imageDigest: '0x9b2e3d1c5a7f00112233445566778899aabbccddeeff00112233445566778899',
  inputCID: cids.input,
  outputCID: cids.output,
  logsCID: cids.logs,
  provider: provider.address,
  startedAt: 1_700_000_000,
  finishedAt: 1_700_000_095,
  runtimeSec: 90,
  exitCode: 0,
  hardware: {
    gpus: [{ name: 'NVIDIA L4', vramMiB: 23_034, computeCapability: 89 }],
    cpuModel: 'AMD EPYC 7R13',
    cpuCores: 8,
    memoryMiB: 32_768,
    driver: '550.54.15',
    cuda: '12.4',
  },
}

describe('signReceipt + verifyReceipt', () => {
  it('signs with a local account and verifies the stored document', async () => {
    const receipt = await signReceipt(provider, { receipt: unsigned })
    expect(receipt).toEqual({ ...unsigned, signature: expect.stringMatching(/^0x[0-9a-f]{130}$/) })
    expect(
      await recoverTypedDataAddress({ ...receiptTypedData(receipt), signature: receipt.signature }),
    ).toBe(provider.address)

    const store = memoryStore()
    const cid = await store.putJson(receipt)
    const bytes = await getBytes(store, cid)
    const result = await verifyReceipt({ document: bytes })
    expect(result).toEqual({ valid: true, signer: provider.address, receipt, failed: false, mismatches: [] })
    // The same document as text and as a parsed value.
    expect((await verifyReceipt({ document: new TextDecoder().decode(bytes) })).valid).toBe(true)
    expect((await verifyReceipt({ document: JSON.parse(new TextDecoder().decode(bytes)) })).valid).toBe(true)
  })

  it('signs through a wallet client the same way (eth_signTypedData_v4 shape)', async () => {
    const client = createWalletClient({ account: provider, transport: http('http://127.0.0.1:9') })
    const viaClient = await signReceipt(client, { receipt: unsigned })
    const direct = await signReceipt(provider, { receipt: unsigned })
    expect(viaClient.signature).toBe(direct.signature)
    // A signature already on the receipt is replaced, not signed over.
    const resigned = await signReceipt(provider, { receipt: { ...unsigned, signature: '0xdead' } })
    expect(resigned.signature).toBe(direct.signature)
  })

  it('names the signature when any signed field was changed after signing', async () => {
    const receipt = await signReceipt(provider, { receipt: unsigned })
    for (const tampered of [
      { ...receipt, outputCID: cids.otherOutput },
      { ...receipt, taskId: '43' },
      { ...receipt, chainId: 1 },
      {
        ...receipt,
        hardware: {
          ...receipt.hardware,
          gpus: [{ name: 'NVIDIA H100', vramMiB: 81_559, computeCapability: 90 }],
        },
      },
    ]) {
      const result = await verifyReceipt({ document: tampered })
      expect(result.valid).toBe(false)
      expect(result.signer).not.toBe(provider.address)
      expect(result.mismatches).toEqual([
        {
          field: 'signature',
          expected: `signed by ${provider.address}`,
          actual: `signed by ${result.signer}`,
        },
      ])
    }
  })

  it('lists every broken rule: a runtime longer than the run and a forged signature', async () => {
    const receipt = await signReceipt(provider, { receipt: unsigned })
    const result = await verifyReceipt({ document: { ...receipt, runtimeSec: 600 } })
    expect(result.mismatches).toEqual([
      { field: 'signature', expected: `signed by ${provider.address}`, actual: `signed by ${result.signer}` },
      { field: 'runtimeSec', expected: '≤ 95 (finishedAt − startedAt)', actual: '600' },
    ])
  })

  it('flags a validly signed receipt whose times are inconsistent', async () => {
    const receipt = await signReceipt(provider, {
      receipt: { ...unsigned, startedAt: 1_700_000_100, finishedAt: 1_700_000_000 },
    })
    const result = await verifyReceipt({ document: receipt })
    expect(result.signer).toBe(provider.address)
    expect(result.mismatches).toEqual([
      { field: 'finishedAt', expected: '≥ 1700000100 (startedAt)', actual: '1700000000' },
    ])
  })

  it('rejects a receipt signed by someone other than its provider', async () => {
    const error = await signReceipt(stranger, { receipt: unsigned }).catch((error: unknown) => error)
    expect(error).toBeInstanceOf(ReceiptSignerMismatchError)
    expect((error as ReceiptSignerMismatchError).signer).toBe(stranger.address)

    // Signed by the stranger behind signReceipt's back.
    const signature = await stranger.signTypedData(receiptTypedData(unsigned))
    const result = await verifyReceipt({ document: { ...unsigned, signature } })
    expect(result).toEqual({
      valid: false,
      signer: stranger.address,
      receipt: { ...unsigned, signature },
      failed: false,
      mismatches: [
        {
          field: 'signature',
          expected: `signed by ${provider.address}`,
          actual: `signed by ${stranger.address}`,
        },
      ],
    })
  })

  it('finds the receipt of a failed run valid, and says that the run failed', async () => {
    const failedRun = { ...unsigned, outputCID: unsigned.logsCID, exitCode: 2 }
    const receipt = await signReceipt(provider, { receipt: failedRun })
    expect(await verifyReceipt({ document: receipt })).toEqual({
      valid: true,
      signer: provider.address,
      receipt,
      failed: true,
      mismatches: [],
    })
    // A document that is no receipt says nothing of a run.
    expect((await verifyReceipt({ document: 'not json' })).failed).toBe(false)
  })

  it('reports an unrecoverable signature', async () => {
    const result = await verifyReceipt({ document: { ...unsigned, signature: `0x${'00'.repeat(65)}` } })
    expect(result.signer).toBeUndefined()
    expect(result.mismatches).toEqual([
      { field: 'signature', expected: `signed by ${provider.address}`, actual: '(unrecoverable)' },
    ])
  })

  it('reports malformed JSON and bytes that are not UTF-8 without throwing', async () => {
    const malformed = await verifyReceipt({ document: '{"version": 1, "taskId": ' })
    expect(malformed.valid).toBe(false)
    expect(malformed.receipt).toBeUndefined()
    expect(malformed.mismatches).toEqual([
      { field: '(document)', expected: 'a JSON receipt', actual: expect.stringMatching(/^malformed JSON/) },
    ])
    const binary = await verifyReceipt({ document: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]) })
    expect(binary.mismatches).toEqual([
      { field: '(document)', expected: 'a JSON receipt', actual: 'bytes that are not UTF-8' },
    ])
    const notAnObject = await verifyReceipt({ document: '[1, 2]' })
    expect(notAnObject.mismatches).toEqual([
      { field: '(document)', expected: 'expected a receipt: a JSON object', actual: '[1,2]' },
    ])
  })

  it('names unknown, missing and out-of-range fields of a malformed receipt', async () => {
    const receipt = await signReceipt(provider, { receipt: unsigned })
    const { logsCID: _, ...withoutLogs } = receipt
    const document = {
      ...withoutLogs,
      runtimeSec: -1,
      paidTo: '0xabc',
      hardware: {
        ...receipt.hardware,
        gpus: [{ name: 'NVIDIA L4', vramMiB: 23_034, computeCapability: 89, tflops: 121 }],
      },
    }
    const result = await verifyReceipt({ document })
    expect(result.valid).toBe(false)
    expect(result.signer).toBeUndefined()
    expect(result.mismatches).toEqual([
      { field: 'logsCID', expected: 'a CID must be a string like bafy…', actual: '(missing)' },
      { field: 'runtimeSec', expected: 'expected a whole number from 0 to 4294967295', actual: '-1' },
      { field: 'hardware.gpus.0.tflops', expected: '(absent: receipts have no such field)', actual: '121' },
      { field: 'paidTo', expected: '(absent: receipts have no such field)', actual: '0xabc' },
    ])

    const error = (() => {
      try {
        parseReceipt(document)
      } catch (error) {
        return error
      }
    })()
    expect(error).toBeInstanceOf(InvalidReceiptError)
    expect((error as InvalidReceiptError).fields.map((field) => field.path)).toEqual([
      'logsCID',
      'runtimeSec',
      'hardware.gpus.0.tflops',
      'paidTo',
    ])
  })

  it('refuses to sign a receipt that does not match the schema', async () => {
    const error = await signReceipt(provider, {
      receipt: { ...unsigned, taskId: '0x2a', imageDigest: '0x1234', slot: 9 } as never,
    }).catch((error: unknown) => error)
    expect(error).toBeInstanceOf(InvalidReceiptError)
    expect((error as InvalidReceiptError).fields.map((field) => field.path)).toEqual([
      'taskId',
      'slot',
      'imageDigest',
    ])
  })

  it('asks for an account when the client has none', async () => {
    const client = createWalletClient({ transport: http('http://127.0.0.1:9') })
    const error = await signReceipt(client, { receipt: unsigned }).catch((error: unknown) => error)
    expect(error).toBeInstanceOf(InvalidParametersError)
    expect((error as InvalidParametersError).fields[0]?.path).toBe('account')
  })
})

describe('receipt typed data', () => {
  it('binds the market and chain in the domain', () => {
    expect(receiptDomain({ chainId: 31337, market: unsigned.market })).toEqual({
      name: 'Gridforge Receipt',
      version: '1',
      chainId: 31337,
      verifyingContract: unsigned.market,
    })
    const digest = hashTypedData(receiptTypedData(unsigned))
    expect(hashTypedData(receiptTypedData({ ...unsigned, market: stranger.address }))).not.toBe(digest)
    expect(hashTypedData(receiptTypedData({ ...unsigned, chainId: 1 }))).not.toBe(digest)
  })

  it('hashes the hardware summary as deterministic JSON, whatever the key order', () => {
    const { gpus, cpuCores, memoryMiB, cpuModel, driver, cuda } = unsigned.hardware
    const reordered = { memoryMiB, cuda, driver, cpuModel, cpuCores, gpus }
    expect(hardwareHash(reordered)).toBe(hardwareHash(unsigned.hardware))
    expect(hardwareHash({ ...unsigned.hardware, cuda: undefined })).not.toBe(hardwareHash(unsigned.hardware))
  })

  it('uses valid fixture CIDs', () => {
    for (const cid of Object.values(cids)) expect(isCid(cid)).toBe(true)
  })
})
