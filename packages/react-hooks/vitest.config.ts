import { defineProject } from 'vitest/config'

export default defineProject({
  test: {
    name: 'react-hooks',
    environment: 'jsdom',
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'test/**/*.test.ts', 'test/**/*.test.tsx'],
    globalSetup: ['test/globalSetup.ts'],
    setupFiles: ['test/setup.ts'],
    // Files share one chain; each test uses its own accounts (test/config.ts), so files may run in parallel.
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
})
