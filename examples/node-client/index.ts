import { getDeployment } from '@gridforge/contracts'
import { gridforgeActions, imageDigestOf } from '@gridforge/sdk'
import { getBytes, kuboStore } from '@gridforge/sdk/storage'
import { createWalletClient, type Hex, http, publicActions } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { hardhat } from 'viem/chains'

const { GRIDFORGE_RPC_URL, GRIDFORGE_STORE, GRIDFORGE_PRIVATE_KEY, GRIDFORGE_IMAGE: image = '' } = process.env
const store = kuboStore({ url: GRIDFORGE_STORE ?? 'http://127.0.0.1:5050' })
const account = privateKeyToAccount(GRIDFORGE_PRIVATE_KEY as Hex)
const client = createWalletClient({ account, chain: hardhat, transport: http(GRIDFORGE_RPC_URL) })
  .extend(publicActions)
  .extend(gridforgeActions({ deployment: getDeployment(hardhat.id) }))

// A source: an image pinned by digest, and metadata (stored by CID) saying what to run in it.
const command = ['sh', '-c', 'tr a-z A-Z < "$GRIDFORGE_INPUT_DIR"/input > "$GRIDFORGE_OUTPUT_DIR"/upper']
const metadata = await store.putJson({ name: 'Upper case', image, command })
const { sourceId } = await client.publishSource({
  metadata,
  imageDigest: imageDigestOf(image) as Hex,
  requirements: { maxRuntimeSec: '5m' }, // a claim is due 5 min (+ the grace) after it: fits the 1 h deadline
})

// A task: its input's CID and at most 2 GRID, escrowed from the market balance.
const input = await store.put(new TextEncoder().encode('hello gridforge'))
await client.deposit({ amount: '2', approve: true })
const { taskId } = await client.submitTask({ sourceId, input, maxPayment: '2', deadline: '1h' })
const { task, result } = await client.waitForTask({ taskId })
console.log(`source ${sourceId}, task ${taskId}: ${task.status}, output ${result.resultCID}`)
const [receipt] = await client.getReceipt({ taskId, store })
console.log(`receipt ${receipt?.status}, signed by the provider ${receipt?.settlement.provider}`)
const output = await getBytes(store, result.resultCID ?? '', { path: 'upper' })
console.log(`output: ${new TextDecoder().decode(output).trim()}`)
