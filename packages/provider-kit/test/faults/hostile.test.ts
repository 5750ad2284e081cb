import { readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { openJournal } from '../../src/agent/journal.js'
import {
  publishTestImageSource,
  resultSubmissions,
  startTestAgent,
  submitTestTask,
  testImage,
  testProviderClient,
  testStore,
  until,
  waitForTaskState,
} from '../harness.js'

/** Overwrites the block file holding `bytes` in an fsStore: the store now serves bytes that do not match their CID. */
async function corruptBlock(root: string, bytes: Uint8Array) {
  const dir = join(root, 'blocks')
  for (const shard of await readdir(dir)) {
    for (const name of await readdir(join(dir, shard))) {
      const file = join(dir, shard, name)
      if (Buffer.from(await readFile(file)).equals(Buffer.from(bytes))) {
        await writeFile(file, Buffer.from('tampered input'))
        return
      }
    }
  }
  throw new Error('block not found')
}

test('hostile sources and inputs are refused, failed or reported with a logged reason, and the agent goes on working', async () => {
  const { store, root } = await testStore()
  const { digest } = await testImage()
  const otherDigest = `0x${'ab'.repeat(32)}` as const
  const sources = {
    notJson: await publishTestImageSource({ store, metadata: '{ "name": "broken", ' }),
    oversized: await publishTestImageSource({
      store,
      metadata: JSON.stringify({
        name: 'huge',
        description: 'x'.repeat(70 * 1024),
        image: `a/b@sha256:${digest.slice(2)}`,
      }),
    }),
    badSchema: await publishTestImageSource({ store, metadata: { outputpath: '/out' } as never }),
    digestDiffers: await publishTestImageSource({
      store,
      metadata: { image: `gridforge-test/agent@sha256:${otherDigest.slice(2)}` },
    }),
    noSuchImage: await publishTestImageSource({ store, imageDigest: otherDigest }),
    outputBomb: await publishTestImageSource({
      store,
      command: ['sh', '-c', 'dd if=/dev/zero of="$GRIDFORGE_OUTPUT_DIR"/bomb bs=1048576 count=64; sleep 5'],
    }),
    // A FIFO left in the output: reading it would block for ever; it is a reason, not a retry.
    fifo: await publishTestImageSource({
      store,
      command: [
        'sh',
        '-c',
        'echo partial > "$GRIDFORGE_OUTPUT_DIR"/out; mkfifo "$GRIDFORGE_OUTPUT_DIR"/pipe',
      ],
    }),
    // A link pointing out of the output folder.
    escapingLink: await publishTestImageSource({
      store,
      command: ['sh', '-c', 'ln -s /etc/passwd "$GRIDFORGE_OUTPUT_DIR"/passwd'],
    }),
    good: await publishTestImageSource({
      store,
      command: ['sh', '-c', 'echo fine > "$GRIDFORGE_OUTPUT_DIR"/out'],
    }),
  }
  const ids = Object.values(sources)
  const provider = await testProviderClient(ids)
  const agent = await startTestAgent({
    client: provider,
    store,
    sources: ids,
    limits: { maxOutputBytes: 4 * 1024 * 1024 },
  })
  try {
    const input = () => store.put(new TextEncoder().encode(`input ${Math.random()}`))
    const submitted: Record<string, bigint> = {}
    for (const [name, sourceId] of Object.entries(sources)) {
      if (name === 'good') continue
      submitted[name] = (await submitTestTask({ sourceId, input: await input() })).taskId
    }
    const badBytes = new TextEncoder().encode('input whose block will be tampered with')
    const badInput = await store.put(badBytes)
    await corruptBlock(root, badBytes)
    submitted.badInput = (await submitTestTask({ sourceId: sources.good, input: badInput })).taskId

    const refusals: Record<string, RegExp> = {
      notJson: /unusable metadata: .*not JSON/,
      oversized: /unusable metadata/,
      badSchema: /unusable metadata: .*outputpath/,
      digestDiffers: /not the image digest published on chain/,
      noSuchImage: /not on this host and could not be pulled/,
      badInput: /input .* is invalid/,
    }
    for (const [name, pattern] of Object.entries(refusals)) {
      const taskId = String(submitted[name])
      await until(
        () => agent.lines.some((line) => line.msg === 'task refused' && line.taskId === taskId),
        60_000,
        `the ${name} task to be refused`,
      )
      const line = agent.lines.find((l) => l.msg === 'task refused' && l.taskId === taskId)
      expect(line?.reason, name).toMatch(pattern)
    }

    // The output bomb is claimed (nothing looked wrong before it ran), killed, and handed in as a failure
    // with its logs: output over the cap is a result, paid the source's failure terms, never slashed.
    const journal = await openJournal(join(agent.dataDir, 'journal'))
    const bomb = submitted.outputBomb as bigint
    await until(
      async () => (await journal.get(bomb))?.step === 'done',
      60_000,
      'the output bomb to be killed and reported',
    )
    expect(await journal.get(bomb)).toMatchObject({
      run: { outcome: 'outputTooLarge' },
      failure: { kind: 'outputTooLarge' },
    })
    expect(await resultSubmissions(bomb)).toEqual([provider.account.address])
    const bombTask = await waitForTaskState(bomb, (t) => t.status === 'Completed')
    expect(bombTask).toMatchObject({ failed: true, failure: { kind: 'outputTooLarge' } })
    expect(bombTask.slots[0]?.status).toBe('Submitted')

    // Outputs the importer cannot take end the task once, with the entry named: no retry loop.
    for (const [name, reason] of [
      ['fifo', /"pipe" is a FIFO/],
      ['escapingLink', /"passwd" is a link out of the output folder/],
    ] as const) {
      const taskId = submitted[name] as bigint
      await until(
        async () => (await journal.get(taskId))?.step === 'abandoned',
        60_000,
        `the ${name} task to end`,
      )
      expect((await journal.get(taskId))?.reason, name).toMatch(reason)
      expect(await resultSubmissions(taskId)).toEqual([])
      const retries = agent.lines.filter(
        (line) => line.taskId === String(taskId) && /retrying/.test(String(line.msg)),
      )
      expect(retries, name).toEqual([])
    }

    // Still alive and working.
    const { taskId } = await submitTestTask({ sourceId: sources.good, input: await input() })
    const task = await waitForTaskState(taskId, (t) => t.status === 'Completed', 60_000)
    expect(task.slots[0]?.provider).toBe(provider.account.address)
    for (const name of Object.keys(refusals))
      expect(await resultSubmissions(submitted[name] as bigint)).toEqual([])
    // Every line about a task names it: only the agent's own lines have no task id.
    const agentLines = new Set(['agent started', 'stopping', 'stopped'])
    const unnamed = agent.lines.filter(
      (line) => line.taskId === undefined && !agentLines.has(String(line.msg)),
    )
    expect(unnamed).toEqual([])
  } finally {
    await agent.stop()
  }
})
