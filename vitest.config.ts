import { defineConfig } from 'vitest/config'

// One vitest run for every TypeScript package and example; each brings its own
// `vitest.config.ts` as a project. Hardhat's own test runner (Solidity and
// node:test suites) is run separately by the contracts package.
export default defineConfig({
  test: {
    projects: ['packages/*/vitest.config.ts', 'examples/*/vitest.config.ts'],
  },
})
