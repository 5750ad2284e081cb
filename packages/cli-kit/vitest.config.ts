import { defineProject } from 'vitest/config'

export default defineProject({
  test: {
    name: 'cli-kit',
    include: ['src/**/*.test.ts'],
  },
})
