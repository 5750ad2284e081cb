import { stat } from 'node:fs/promises'
import path from 'node:path'
import { examples } from '@gridforge/cli-kit'
import { detectHost } from '../../detect/detectHost.js'
import { type CheckItem, runDoctor } from '../../doctor/doctor.js'
import { formatChecklist } from '../../doctor/formatChecklist.js'
import { dockerOf } from '../context.js'
import { exitCodes } from '../errors.js'
import type { CommandSetup } from '../program.js'

/** The directory itself if it exists, else its nearest existing ancestor: where its disk space will come from. */
export async function existingAncestor(directory: string): Promise<string> {
  let current = path.resolve(directory)
  for (;;) {
    if (
      await stat(current).then(
        (stats) => stats.isDirectory(),
        () => false,
      )
    )
      return current
    const parent = path.dirname(current)
    if (parent === current) return current
    current = parent
  }
}

export const doctorCommand: CommandSetup = (program, contextOf) => {
  program
    .command('doctor')
    .description(
      'check this host (Node.js, Docker, NVIDIA driver and GPUs, container runtime, disk, memory) and say how to fix what fails',
    )
    .addHelpText('after', examples('gridforge-provider doctor', 'gridforge-provider doctor --json'))
    .action(async (_options: object, command) => {
      const context = contextOf(command)
      // Doctor runs before `init` too: without a config it checks the defaults.
      const config = await context.configIfAny()
      const dataDir = config?.agent.dataDir
      context.terminal.progress('checking this host…')
      const host = await detectHost({
        dataDir: dataDir === undefined ? undefined : await existingAncestor(dataDir),
        docker: config === undefined ? undefined : dockerOf(config.runtime),
      })
      let checks: CheckItem[] = runDoctor(host, { dataDir })
      if (config?.runtime.kind === 'process') {
        // The process runtime does not need an engine: its own warning replaces Docker's failure.
        checks = checks.map((check) =>
          check.id === 'docker' && check.status === 'fail'
            ? {
                id: 'docker',
                title: 'Docker engine not reachable (not needed: [runtime] kind = "process")',
                status: 'warn',
                detail: 'tasks run as plain processes on this host, NOT isolated',
                fix: 'use kind = "docker" for anything but a demo',
              }
            : check,
        )
      }
      const failed = checks.filter((check) => check.status === 'fail')
      context.terminal.result({ ok: failed.length === 0, checks, host }, () => [
        formatChecklist(checks, { color: context.terminal.stdout.isTTY === true }),
        '',
        failed.length === 0
          ? 'this host is ready to run tasks'
          : `${failed.length} check${failed.length === 1 ? '' : 's'} failed: fix ${failed.length === 1 ? 'it' : 'them'}, then run doctor again`,
      ])
      if (failed.length > 0) context.state.exitCode = exitCodes.hostNotReady
    })
}
