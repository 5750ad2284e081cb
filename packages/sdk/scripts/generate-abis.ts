/**
 * Splits the ABIs of @gridforge/contracts into one constant per function and
 * event (and one array of errors per contract) in src/abis/<contract>.ts, so
 * that an action bundles only the ABI items it uses.
 *
 * Run `pnpm --filter @gridforge/sdk generate` after changing the contracts;
 * src/abis/abis.test.ts fails while the files are out of date.
 */
import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { renderAbiModules } from './renderAbis.js'

const outDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'src', 'abis')
for (const [file, source] of Object.entries(await renderAbiModules())) {
  await writeFile(path.join(outDir, file), source)
  console.log(`wrote src/abis/${file}`)
}
