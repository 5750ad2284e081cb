import { defineProject } from 'vitest/config'

export default defineProject({
  test: {
    name: 'indexer',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // test/indexer.test.ts starts its own devnet and indexer (shared by its tests) and restarts the indexer.
    testTimeout: 60_000,
    hookTimeout: 180_000,
  },
})
