import { defineProject } from 'vitest/config'

export default defineProject({
  test: {
    name: 'example-provider',
    include: ['test/**/*.test.ts'],
    environment: 'node',
    // The smoke test starts a local network (chain, store, provider agent), then the example's
    // provider: with the CLI, then with start.ts.
    testTimeout: 180_000,
    hookTimeout: 180_000,
  },
})
