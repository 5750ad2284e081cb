import { errorJson, exitCodeOf } from '@gridforge/cli-kit'
import { BaseError, InvalidParametersError } from '@gridforge/sdk'
import { KuboRpcError } from '@gridforge/sdk/storage'
import { describe, expect, it } from 'vitest'
import { ConfigInvalidError } from '../config/errors.js'
import { ContainerEngineError } from '../errors.js'
import { errorReporting, exitCodes, HostNotReadyError, NotRegisteredError } from './errors.js'

describe('gridforge-provider exit codes', () => {
  it('classifies the errors this CLI meets by their classes (the installed SDK’s included)', () => {
    const cases = [
      [new InvalidParametersError({ action: 'registerProvider', fields: [] }), exitCodes.usage],
      [new ConfigInvalidError({ file: 'p.toml', fields: [{ path: 'chain.rpc', message: 'required' }] }), 2],
      [new NotRegisteredError({ provider: '0x0000000000000000000000000000000000000001' }), exitCodes.usage],
      [new KuboRpcError({ endpoint: 'add', status: 500, message: 'down' }), exitCodes.unreachable],
      [new HostNotReadyError('no Docker'), exitCodes.hostNotReady],
      [new ContainerEngineError('the engine refused'), exitCodes.hostNotReady],
    ] as const
    for (const [error, code] of cases) expect(exitCodeOf(error, errorReporting), error.name).toBe(code)
  })

  it('puts the invalid config fields in the --json error', () => {
    const fields = [{ path: 'chain.rpc', message: 'required' }]
    const json = errorJson(new ConfigInvalidError({ file: 'p.toml', fields }), 2, errorReporting)
    expect(json.error).toMatchObject({ name: 'ConfigInvalidError', fields })
  })

  it('does not take an error for a config error by its name', () => {
    const lookAlike = new BaseError('not a config error', { name: 'ConfigInvalidError' })
    expect(exitCodeOf(lookAlike, errorReporting)).toBe(exitCodes.unexpected)
  })
})
