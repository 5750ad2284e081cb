import { connect, createServer, type Server, type Socket } from 'node:net'
import { join } from 'node:path'
import { createWalletClient, http, publicActions } from 'viem'
import { hardhat } from 'viem/chains'
import { expect, test } from 'vitest'
import { devnet } from '../../../sdk/test/chain.js'
import { openJournal } from '../../src/agent/journal.js'
import {
  publishTestImageSource,
  resultSubmissions,
  startTestAgent,
  submitTestTask,
  testProviderClient,
  testStore,
  until,
  waitForTaskState,
} from '../harness.js'

/** A TCP proxy to the chain node that can be taken down and brought back on the same port. */
async function nodeProxy(target: URL) {
  const sockets = new Set<Socket>()
  let server: Server | undefined
  let port = 0
  const up = () =>
    new Promise<void>((resolve) => {
      const listening = createServer((socket) => {
        const upstream = connect(Number(target.port), target.hostname)
        sockets.add(socket).add(upstream)
        socket.on('close', () => sockets.delete(socket))
        upstream.on('close', () => sockets.delete(upstream))
        socket.on('error', () => upstream.destroy())
        upstream.on('error', () => socket.destroy())
        socket.pipe(upstream).pipe(socket)
      })
      server = listening
      listening.listen(port, '127.0.0.1', () => {
        port = (listening.address() as { port: number }).port
        resolve()
      })
    })
  const down = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy()
      server?.close(() => resolve())
    })
  await up()
  return { url: `http://127.0.0.1:${port}`, up, down }
}

test('the chain node goes away mid-task: the agent retries, recovers and finishes', async () => {
  const { store } = await testStore()
  const sourceId = await publishTestImageSource({
    store,
    command: ['sh', '-c', 'sleep 3; echo done > "$GRIDFORGE_OUTPUT_DIR"/out'],
  })
  const provider = await testProviderClient([sourceId])
  const proxy = await nodeProxy(new URL(devnet().rpcUrl))
  const client = createWalletClient({
    account: provider.account,
    chain: hardhat,
    transport: http(proxy.url, { retryCount: 0 }),
    pollingInterval: 200,
  }).extend(publicActions)
  // biome-ignore lint/suspicious/noExplicitAny: a plain wallet client is all the agent needs
  const agent = await startTestAgent({ client: client as any, store, sources: [sourceId] })
  try {
    const { taskId } = await submitTestTask({
      sourceId,
      input: await store.put(new TextEncoder().encode('x')),
    })
    const journal = await openJournal(join(agent.dataDir, 'journal'))
    await until(async () => (await journal.get(taskId))?.step === 'running', 60_000, 'the container to start')
    await proxy.down()
    // The container finishes while the node is unreachable; the agent keeps failing to reach it.
    await until(() => agent.lines.some((line) => String(line.msg).includes('retrying')), 30_000, 'a retry')
    await new Promise((resolve) => setTimeout(resolve, 4_000))
    expect(await resultSubmissions(taskId)).toEqual([])
    await proxy.up()
    const task = await waitForTaskState(taskId, (t) => t.status === 'Completed', 60_000)
    expect(task.slots[0]?.provider).toBe(provider.account.address)
    expect(await resultSubmissions(taskId)).toEqual([provider.account.address])
  } finally {
    await agent.stop()
    await proxy.down()
  }
})
