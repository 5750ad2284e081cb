import { describe, expect, test } from 'vitest'
import { commandExitCode } from './engineResponse.js'

describe('commandExitCode: a command the engine could not start, as a shell reports it', () => {
  test('no such command in the image: 127', () => {
    expect(
      commandExitCode(
        'failed to create task for container: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: exec: "/no/such/executable": stat /no/such/executable: no such file or directory: unknown',
      ),
    ).toBe(127)
    expect(
      commandExitCode(
        'OCI runtime create failed: runc create failed: unable to start container process: exec: "nosuch": executable file not found in $PATH: unknown',
      ),
    ).toBe(127)
    expect(
      commandExitCode(
        'crun: executable file `nosuch` not found in $PATH: No such file or directory: OCI runtime attempted to invoke a command that was not found',
      ),
    ).toBe(127)
  })

  test('a command that is not executable: 126', () => {
    expect(
      commandExitCode('unable to start container process: exec: "/etc/passwd": permission denied: unknown'),
    ).toBe(126)
  })

  test("the engine's or the host's refusals are not the command's", () => {
    for (const message of [
      'could not select device driver "nvidia" with capabilities: [[gpu]]',
      'No such image: gridforge-test/agent@sha256:00',
      'error mounting "/var/lib/gridforge/work/7/input" to rootfs at "/input": no such file or directory',
      'exec format error',
    ])
      expect(commandExitCode(message)).toBeUndefined()
  })
})
