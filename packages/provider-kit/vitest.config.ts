import { defineProject } from 'vitest/config'

export default defineProject({
  test: {
    name: 'provider-kit',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/globalSetup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
})
