import { defineProject } from 'vitest/config'

// The simulator's tests share one in-process chain per file; the market runs are a few seconds each.
export default defineProject({
  test: {
    name: 'sim',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
})
