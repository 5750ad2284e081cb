import { defineProject } from 'vitest/config'

export default defineProject({
  test: {
    name: 'example-node-client',
    include: ['test/**/*.test.ts'],
    environment: 'node',
    // The smoke test starts a local network (chain, store, provider agent) and runs the example.
    testTimeout: 180_000,
    hookTimeout: 180_000,
  },
})
