import type { CheckItem, CheckStatus } from './doctor.js'

export interface FormatChecklistOptions {
  /** Colour the marks with ANSI codes (default false; pass `process.stdout.isTTY`). */
  color?: boolean | undefined
  /** Also print the detail of checks that passed (default false). */
  verbose?: boolean | undefined
}

const marks: Record<CheckStatus, string> = { ok: '✔', warn: '⚠', fail: '✘' }
const colors: Record<CheckStatus, string> = { ok: '\u001b[32m', warn: '\u001b[33m', fail: '\u001b[31m' }
const reset = '\u001b[39m'

/**
 * The checklist as text, one check per line with its mark (`✔` ok, `⚠` warn,
 * `✘` fail); below a check that did not pass, its detail and `fix:`, indented.
 *
 * @example
 * import { formatChecklist } from '@gridforge/provider-kit'
 *
 * formatChecklist([
 *   { id: 'docker', title: 'Docker engine 20.10.24 reachable', status: 'ok', detail: 'API 1.41' },
 *   { id: 'nvidia-runtime', title: 'NVIDIA container runtime missing', status: 'fail', detail: '…', fix: 'install nvidia-container-toolkit, then: …' },
 * ])
 * // ✔ Docker engine 20.10.24 reachable
 * // ✘ NVIDIA container runtime missing
 * //     …
 * //     fix: install nvidia-container-toolkit, then: …
 */
export function formatChecklist(items: readonly CheckItem[], options: FormatChecklistOptions = {}): string {
  const { color = false, verbose = false } = options
  const lines: string[] = []
  for (const item of items) {
    const mark = color ? `${colors[item.status]}${marks[item.status]}${reset}` : marks[item.status]
    lines.push(`${mark} ${item.title}`)
    if ((item.status !== 'ok' || verbose) && item.detail !== '') lines.push(`    ${item.detail}`)
    if (item.status !== 'ok' && item.fix !== undefined) lines.push(`    fix: ${item.fix}`)
  }
  return lines.join('\n')
}
