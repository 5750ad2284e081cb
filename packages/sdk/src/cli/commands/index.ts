import type { CommandGroup } from '../program.js'
import { leaseCommands } from './lease.js'
import { receiptCommands } from './receipt.js'
import { sourceCommands } from './source.js'
import { stakeCommands } from './stake.js'
import { statsCommands } from './stats.js'
import { taskCommands } from './task.js'
import { walletCommands } from './wallet.js'

/** Every command group of `gridforge`, in the order `--help` lists them. */
export const commandGroups: readonly CommandGroup[] = [
  sourceCommands,
  taskCommands,
  leaseCommands,
  receiptCommands,
  walletCommands,
  stakeCommands,
  statsCommands,
]
