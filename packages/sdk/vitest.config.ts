import { defineProject } from 'vitest/config'

export default defineProject({
  test: {
    name: 'sdk',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/globalSetup.ts'],
    // Files share one chain; each test uses its own accounts (test/chain.ts), so files may run in parallel.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
})
