import type { TestProject } from 'vitest/node'
import { startDevnet } from '../../contracts/scripts/devnet.js'

// The same `devnet` key as the SDK's set-up, so the SDK's test helpers (`../../sdk/test/chain.js`,
// `fixtures.js`) work here unchanged.
declare module 'vitest' {
  export interface ProvidedContext {
    devnet: {
      rpcUrl: string
      deployment: import('@gridforge/contracts').GridforgeDeployment
      privateKeys: `0x${string}`[]
    }
  }
}

/** One Hardhat node on 127.0.0.1 with Gridforge deployed by Ignition, for every react-hooks test file. */
export default async function setup(project: TestProject) {
  const devnet = await startDevnet()
  project.provide('devnet', {
    rpcUrl: devnet.rpcUrl,
    deployment: devnet.deployment,
    privateKeys: [...devnet.privateKeys],
  })
  return () => devnet.stop()
}
