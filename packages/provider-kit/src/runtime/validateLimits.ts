import type { ResourceLimits } from './ContainerRuntime.js'

/**
 * Why `limits` cannot be enforced, or `undefined` when they can. Checked
 * before anything starts because Docker reads some bad values as "no limit"
 * (a pids limit of 0 or -1, a memory limit of 0) instead of refusing them.
 *
 * @example
 * invalidLimits({ ...limits, pids: 0 }) // 'invalid limits: pids must be a whole number ≥ 1, got 0'
 */
export function invalidLimits(limits: ResourceLimits): string | undefined {
  const problems: string[] = []
  const whole = (name: keyof ResourceLimits, min: number) => {
    const value = limits[name]
    if (!Number.isSafeInteger(value) || value < min)
      problems.push(`${name} must be a whole number ≥ ${min}, got ${value}`)
  }
  whole('memoryBytes', 1)
  whole('pids', 1)
  whole('tmpBytes', 1)
  whole('maxOutputBytes', 0)
  whole('maxLogBytes', 0)
  if (!Number.isFinite(limits.cpus) || limits.cpus <= 0)
    problems.push(`cpus must be more than 0, got ${limits.cpus}`)
  return problems.length === 0 ? undefined : `invalid limits: ${problems.join('; ')}`
}
