import { examples, UsageError } from '@gridforge/cli-kit'
import { parseInterval } from '../../config/units.js'
import { detectHost } from '../../detect/detectHost.js'
import { benchmarkHost, type HostBenchmark } from '../../hostBench/benchmarkHost.js'
import { dockerOf } from '../context.js'
import type { CommandSetup } from '../program.js'

/** The benchmark as lines: the score, then per GPU or the CPU's threads. */
export function describeBenchmark(benchmark: HostBenchmark): string[] {
  const lines = [`${benchmark.kind.toUpperCase()} score: ${benchmark.score} ${benchmark.unit}`]
  if (benchmark.kind === 'gpu') {
    for (const gpu of benchmark.details.gpus) lines.push(`  ${JSON.stringify(gpu)}`)
  } else {
    lines.push(
      `  SHA-256 on ${benchmark.details.threads} threads for ${benchmark.details.durationMs} ms`,
      ...(benchmark.details.gpuSkipped === undefined
        ? []
        : [`  GPUs not measured: ${benchmark.details.gpuSkipped}`]),
    )
  }
  return lines
}

export const benchCommand: CommandSetup = (program, contextOf) => {
  program
    .command('bench')
    .description(
      'benchmark this host as `register` does: CUDA n-body on each GPU, else SHA-256 on every CPU core',
    )
    .option(
      '--duration <interval>',
      'how long the CPU benchmark runs, e.g. 500ms or 5s (default 1s; GPUs run a fixed n-body)',
    )
    .addHelpText(
      'after',
      examples('gridforge-provider bench', 'gridforge-provider bench --json --duration 5s'),
    )
    .action(async (options: { duration?: string }, command) => {
      const durationMs = options.duration === undefined ? undefined : parseInterval(options.duration)
      if (options.duration !== undefined && (durationMs === undefined || durationMs < 1)) {
        throw new UsageError(`--duration: '${options.duration}' is not an interval`, [
          'Pass e.g. --duration 500ms or --duration 5s.',
        ])
      }
      const context = contextOf(command)
      const config = await context.configIfAny()
      const docker = config === undefined ? undefined : dockerOf(config.runtime)
      context.terminal.progress('detecting this host…')
      const report = await detectHost({ docker })
      context.terminal.progress('benchmarking…')
      const benchmark = await benchmarkHost({ report, docker, cpu: { durationMs } })
      context.terminal.result(benchmark, () => describeBenchmark(benchmark))
    })
}
