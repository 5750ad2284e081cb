import { describe, expect, test } from 'vitest'
import type { ResourceLimits } from './ContainerRuntime.js'
import { invalidLimits } from './validateLimits.js'

const limits: ResourceLimits = {
  memoryBytes: 1 << 30,
  cpus: 1.5,
  pids: 256,
  tmpBytes: 1 << 26,
  maxOutputBytes: 1 << 30,
  maxLogBytes: 1 << 20,
}

describe('invalidLimits', () => {
  test('accepts sound limits', () => {
    expect(invalidLimits(limits)).toBeUndefined()
  })

  test.each<[Partial<ResourceLimits>, string]>([
    [{ pids: 0 }, 'pids'],
    [{ pids: -1 }, 'pids'],
    [{ memoryBytes: 0 }, 'memoryBytes'],
    [{ cpus: 0 }, 'cpus'],
    [{ cpus: Number.NaN }, 'cpus'],
    [{ tmpBytes: 1.5 }, 'tmpBytes'],
    [{ maxLogBytes: -1 }, 'maxLogBytes'],
  ])('refuses %j (Docker would read some as "unlimited")', (bad, name) => {
    expect(invalidLimits({ ...limits, ...bad })).toContain(name)
  })
})
