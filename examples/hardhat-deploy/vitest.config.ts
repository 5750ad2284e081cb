import { defineProject } from 'vitest/config'

export default defineProject({
  test: {
    name: 'example-hardhat-deploy',
    include: ['test/**/*.test.ts'],
    environment: 'node',
    // The first deployment compiles the contracts with solcjs (WebAssembly), isolated per contract.
    testTimeout: 600_000,
    hookTimeout: 120_000,
  },
})
