import { defineProject } from 'vitest/config'

// Unit tests of the package's TypeScript exports (src/). The Solidity and
// node:test suites run through `hardhat test`.
export default defineProject({
  test: {
    name: 'contracts',
    include: ['src/**/*.test.ts'],
  },
})
