import type { CommandGroup } from '../program.js'
import { receiptCommands } from './receipt.js'

/** Every command group of `gridforge`, in the order `--help` lists them. */
export const commandGroups: readonly CommandGroup[] = [receiptCommands]
