import type { TestProject } from 'vitest/node'
import { startDevnet } from '../../contracts/scripts/devnet.js'
import { dockerClient } from '../src/runtime/docker/dockerClient.js'

declare module 'vitest' {
  export interface ProvidedContext {
    devnet: {
      rpcUrl: string
      deployment: import('@gridforge/contracts').GridforgeDeployment
      privateKeys: `0x${string}`[]
    }
  }
}

/**
 * A Hardhat node on 127.0.0.1 with Gridforge deployed (mining a block every
 * second, like a real chain, besides the blocks of transactions), and a check that a
 * Docker engine answers: the provider kit is tested on real containers
 * (DESIGN §7), so a missing engine fails the run instead of skipping tests.
 */
export default async function setup(project: TestProject) {
  try {
    await dockerClient().ping()
  } catch (error) {
    throw new Error(
      `The provider-kit tests need a Docker engine at ${process.env.DOCKER_HOST ?? '/var/run/docker.sock'}: ${(error as Error).message}. Start dockerd (.ci/run shows how) and run the tests again.`,
    )
  }
  // A block a second, as on a real chain: held results are released two blocks after their submission.
  const devnet = await startDevnet({ intervalMiningMs: 1_000 })
  project.provide('devnet', {
    rpcUrl: devnet.rpcUrl,
    deployment: devnet.deployment,
    privateKeys: [...devnet.privateKeys],
  })
  return () => devnet.stop()
}
