/**
 * The example as a user runs it: a local network like `pnpm network`'s, then
 * `tsx index.ts` in a child process with the variables `pnpm network` prints.
 * The provider agent runs the task in a Docker container (or, with no engine,
 * the unisolated process runtime the network falls back to).
 */
import { execFile } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { generatePrivateKey } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type LocalNetwork, startLocalNetwork } from '../../../demo/localNetwork.js'

const exampleRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const tsx = path.join(exampleRoot, 'node_modules', '.bin', 'tsx')
const networkLog: string[] = []
let network: LocalNetwork | undefined

beforeAll(async () => {
  network = await startLocalNetwork({
    log: (line) => networkLog.push(line),
    pollingInterval: 100,
    // Its own provider account: a `pnpm network` (account #2) may be running on the same Docker engine.
    providerPrivateKey: generatePrivateKey(),
  })
})

afterAll(async () => {
  await network?.stop()
})

describe('examples/node-client', () => {
  it('publishes a source, runs a task on it and prints the verified receipt and the output', async () => {
    if (network === undefined) throw new Error('the local network did not start')
    const env = {
      ...process.env,
      GRIDFORGE_RPC_URL: network.rpcUrl,
      GRIDFORGE_STORE: network.storeUrl,
      GRIDFORGE_PRIVATE_KEY: network.devPrivateKey,
      GRIDFORGE_IMAGE: network.image,
    }
    const { stdout } = await promisify(execFile)(tsx, ['index.ts'], {
      cwd: exampleRoot,
      env,
      timeout: 120_000,
    }).catch((error: { stdout?: string; stderr?: string; message: string }) => {
      throw new Error(
        `index.ts failed: ${error.message}\nstdout:\n${error.stdout}\nstderr:\n${error.stderr}\nnetwork:\n${networkLog.join('\n')}`,
      )
    })
    const lines = stdout.trim().split('\n')
    // Sources 1 to 3 are the network's own: the example publishes source 4 and submits task 1.
    expect(lines[0]).toMatch(/^source 4, task 1: Completed, output bafy[a-z2-7]+$/)
    expect(lines[1]).toBe(`receipt verified, signed by the provider ${network.providerAddress}`)
    expect(lines[2]).toBe('output: HELLO GRIDFORGE')
    expect(lines).toHaveLength(3)
    // The network's provider joined the new source because it uses the network's image.
    expect(networkLog.some((line) => /joined source 4\b/.test(line))).toBe(true)
  })
})
