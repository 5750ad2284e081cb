import type { CommandSetup } from '../program.js'
import { benchCommand } from './bench.js'
import { doctorCommand } from './doctor.js'
import { initCommand } from './init.js'
import { leaseCommand } from './lease.js'
import { registerCommand } from './register.js'
import { startCommand } from './start.js'
import { statusCommand } from './status.js'

/** The commands of `gridforge-provider`, in the order a new provider runs them. */
export const commands: readonly CommandSetup[] = [
  doctorCommand,
  initCommand,
  registerCommand,
  benchCommand,
  startCommand,
  statusCommand,
  leaseCommand,
]
