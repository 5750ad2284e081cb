import type { Hex } from 'viem'
import { describe, expect, it } from 'vitest'
import { deployerClient, deployment, fundedClient } from '../../test/chain.js'
import { cids } from '../../test/fixtures.js'
import { InvalidParametersError } from '../errors/validation.js'
import { computeCid } from '../storage/computeCid.js'
import { encodeJson } from '../storage/encodeJson.js'
import { memoryStore } from '../storage/memoryStore.js'
import { createReceipt } from './createReceipt.js'
import { InvalidReceiptError } from './errors.js'
import type { ReceiptHardware } from './schema.js'
import { verifyReceipt } from './verifyReceipt.js'

const run = {
  taskId: 12n as bigint,
  slot: 1,
  sourceId: 3,
  imageDigest: `0x${'ab'.repeat(32)}` as Hex,
  inputCID: cids.input,
  outputCID: cids.output,
  logsCID: cids.logs,
  startedAt: new Date('2025-01-01T00:00:00.900Z'),
  finishedAt: new Date('2025-01-01T00:02:00Z'),
  exitCode: 0,
  hardware: { gpus: [], cpuCores: 4, memoryMiB: 8_192 } as ReceiptHardware,
}

describe('createReceipt', () => {
  it('fills the chain, market and provider, signs with a local key and stores the document', async () => {
    const client = await fundedClient({ grid: '0' })
    const store = memoryStore()
    const { receipt, cid } = await createReceipt(client, { deployment: deployment(), store, ...run })
    expect(receipt).toEqual({
      version: 1,
      chainId: 31337,
      market: deployment().contracts.market,
      taskId: '12',
      slot: 1,
      sourceId: 3,
      imageDigest: run.imageDigest,
      inputCID: cids.input,
      outputCID: cids.output,
      logsCID: cids.logs,
      provider: client.account.address,
      startedAt: 1_735_689_600,
      finishedAt: 1_735_689_720,
      runtimeSec: 120,
      exitCode: 0,
      hardware: run.hardware,
      signature: expect.stringMatching(/^0x[0-9a-f]{130}$/),
    })
    expect(cid).toBe(await computeCid(encodeJson(receipt)))
    expect(await store.has(cid)).toBe(true)
    expect(await verifyReceipt({ document: receipt })).toMatchObject({
      valid: true,
      signer: client.account.address,
    })
  })

  it("signs through the node's eth_signTypedData_v4 for a JSON-RPC account", async () => {
    const client = deployerClient()
    const { receipt } = await createReceipt(client, {
      deployment: deployment(),
      store: memoryStore(),
      ...run,
      runtimeSec: 100,
    })
    expect(receipt.runtimeSec).toBe(100)
    const result = await verifyReceipt({ document: receipt })
    expect(result.mismatches).toEqual([])
    expect(result.signer).toBe(client.account.address)
  })

  it('names bad fields before signing, and asks for an account', async () => {
    const client = await fundedClient({ grid: '0' })
    const error = await createReceipt(client, {
      deployment: deployment(),
      store: memoryStore(),
      ...run,
      outputCID: 'not-a-cid',
      startedAt: new Date(Number.NaN),
    }).catch((error: unknown) => error)
    expect(error).toBeInstanceOf(InvalidReceiptError)
    expect((error as InvalidReceiptError).fields.map((field) => field.path)).toEqual([
      'outputCID',
      'startedAt',
      'runtimeSec',
    ])

    const { account: _, ...noAccount } = client
    const missing = await createReceipt({ ...noAccount, account: undefined } as never, {
      deployment: deployment(),
      store: memoryStore(),
      ...run,
    }).catch((error: unknown) => error)
    expect(missing).toBeInstanceOf(InvalidParametersError)
  })
})
