import { defineProject } from 'vitest/config'

export default defineProject({
  test: {
    name: 'react-dashboard',
    include: ['test/**/*.test.ts', 'src/**/*.test.{ts,tsx}'],
    environment: 'node',
    // The end-to-end test starts a chain, a provider agent, a Vite build and Chromium.
    testTimeout: 240_000,
    hookTimeout: 240_000,
  },
})
