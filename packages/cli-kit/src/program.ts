/**
 * The commander program both CLIs are built on: output through the
 * {@link Terminal} (so secrets are redacted even in help and usage errors),
 * `--json`, the help's environment, exit-code and example sections, and the
 * run loop that turns every outcome into an exit code.
 */
import { Command, CommanderError, type Option } from 'commander'
import { type ErrorReporting, exitCodes } from './exitCodes.js'
import type { PromptInput } from './prompt.js'
import { reportError } from './reportError.js'
import type { Terminal } from './terminal.js'

/** What a program is built with: where to write, the environment, stdin for password prompts. */
export interface ProgramOptions {
  terminal: Terminal
  env: Readonly<Record<string, string | undefined>>
  stdin: PromptInput
  version: string
}

/** What `--help` says about a CLI and the options every command takes. */
export interface ProgramDescription {
  name: string
  description: string
  version: string
  /** The global options, in the order `--help` lists them; `--json` comes after them. */
  options: readonly Option[]
  /** The `Environment:` section of `--help`. */
  environmentHelp: string
  /** The `Exit codes:` section of `--help`. */
  exitCodeHelp: string
  /** Command lines for the `Examples:` section. */
  examples: readonly string[]
}

/**
 * `Example:` lines for a command's help.
 *
 * @example
 * command.addHelpText('after', examples('gridforge task status 42'))
 */
export function examples(...lines: readonly string[]): string {
  return `\nExample${lines.length > 1 ? 's' : ''}:\n${lines.map((line) => `  $ ${line}`).join('\n')}\n`
}

/**
 * A program with the CLI's global options and `--json`; commands are added
 * with `program.command()`, so they inherit its output and error settings.
 * Commander's own errors (unknown option, missing argument) are thrown, not
 * exited on, so that {@link runProgram} maps them to exit code 2.
 *
 * @example
 * const program = createProgram(terminal, {
 *   name: 'gridforge',
 *   description: 'The Gridforge job CLI',
 *   version: '0.1.0',
 *   options: [new Option('--rpc <url>', 'JSON-RPC endpoint').env('GRIDFORGE_RPC_URL')],
 *   environmentHelp: 'Environment:\n  GRIDFORGE_RPC_URL  default for --rpc',
 *   exitCodeHelp: 'Exit codes:\n  0  ok',
 *   examples: ['gridforge task status 42'],
 * })
 */
export function createProgram(terminal: Terminal, description: ProgramDescription): Command {
  const program = new Command(description.name)
    .description(description.description)
    .version(description.version, '-V, --version')
  for (const option of description.options) program.addOption(option)
  return program
    .option('--json', 'print the result as one JSON document on stdout (amounts in base units, as strings)')
    .showHelpAfterError('(run with --help for usage)')
    .configureHelp({ showGlobalOptions: true })
    .exitOverride()
    .configureOutput({
      writeOut: (text) => terminal.stdout.write(terminal.redact(text)),
      writeErr: (text) => terminal.stderr.write(terminal.redact(text)),
      outputError: (text, write) => write(text),
    })
    .addHelpText(
      'after',
      `\n${description.environmentHelp}\n\n${description.exitCodeHelp}\n${examples(...description.examples)}`,
    )
}

/**
 * The global options of the command being run (its own and the program's);
 * `--json` switches the terminal to one JSON document on stdout.
 *
 * @example
 * const globals = globalsOf<{ rpc: string; json?: boolean }>(command, terminal)
 */
export function globalsOf<options extends { json?: boolean | undefined }>(
  command: Command,
  terminal: Terminal,
): options {
  const globals = command.optsWithGlobals<options>()
  terminal.json = globals.json === true
  return globals
}

export interface RunProgramOptions {
  terminal: Terminal
  reporting: ErrorReporting
  /** The RPC URL in use, named when the node cannot be reached (read after the command failed). */
  rpcUrl: () => string
  /** The exit code of a command that ended without an error (default 0). */
  exitCode?: (() => number) | undefined
}

/**
 * Runs `program` with `argv` (without `node` and the script) and returns the
 * exit code: never throws and never exits the process.
 *
 * @example
 * const code = await runProgram(program, process.argv.slice(2), { terminal, reporting, rpcUrl: () => url })
 * process.exit(code)
 */
export async function runProgram(
  program: Command,
  argv: readonly string[],
  { terminal, reporting, rpcUrl, exitCode = () => exitCodes.ok }: RunProgramOptions,
): Promise<number> {
  try {
    await program.parseAsync([...argv], { from: 'user' })
    return exitCode()
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version "fail" with exit code 0; everything else commander reports is usage.
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return exitCodes.ok
      return exitCodes.usage
    }
    return reportError(terminal, error, { ...reporting, rpcUrl: rpcUrl() })
  }
}
