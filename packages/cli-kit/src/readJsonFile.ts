import { readFile } from 'node:fs/promises'
import { UsageError } from './errors.js'

/**
 * Reads and parses a JSON file; errors name the option or config field it
 * came from and never quote the contents (a keystore is a secret).
 *
 * @example
 * const json = await readJsonFile('./deployment.json', '--deployment')
 */
export async function readJsonFile(file: string, label: string): Promise<unknown> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    throw new UsageError(
      `${label}: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    )
  }
  try {
    return JSON.parse(text)
  } catch {
    throw new UsageError(`${label}: ${file} is not valid JSON`)
  }
}
