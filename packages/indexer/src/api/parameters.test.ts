import { describe, expect, it } from 'vitest'
import { ParameterError } from './errors.js'
import {
  addressQuery,
  cursor,
  encodeCursor,
  limit,
  oneOf,
  oneOrMoreOf,
  readParameters,
  taskIdPath,
} from './parameters.js'

const listParameters = {
  client: addressQuery('A client.'),
  status: oneOrMoreOf('Statuses.', ['Open', 'Claimed', 'Completed']),
  limit,
  cursor: cursor('tasks', /^[1-9][0-9]*$/),
}

const read = (query: string, parameters: Parameters<typeof readParameters>[1] = listParameters) =>
  readParameters({ path: {}, query: new URLSearchParams(query) }, parameters)

/** The 400 body a query gets. */
function refusal(query: string, parameters: Parameters<typeof readParameters>[1] = listParameters) {
  try {
    read(query, parameters)
  } catch (error) {
    expect(error).toBeInstanceOf(ParameterError)
    return (error as ParameterError).body()
  }
  throw new Error('expected a ParameterError')
}

describe('readParameters', () => {
  it('reads every parameter, with defaults for those absent', () => {
    expect(read('')).toEqual({ client: undefined, status: undefined, limit: 20, cursor: undefined })
    expect(
      read(
        `client=0xAbCdEf0123456789aBcDeF0123456789AbCdEf01&status=Open,Completed&limit=100&cursor=${encodeCursor('tasks', '42')}`,
      ),
    ).toEqual({
      client: '0xabcdef0123456789abcdef0123456789abcdef01',
      status: ['Open', 'Completed'],
      limit: 100,
      cursor: '42',
    })
  })

  it('refuses a bad value, naming the parameter and what is allowed', () => {
    expect(refusal('limit=0')).toEqual({
      error: { parameter: 'limit', message: 'limit: expected a whole number from 1 to 100, got "0"' },
    })
    expect(refusal('limit=1.5').error.parameter).toBe('limit')
    expect(refusal('client=0x12')).toEqual({
      error: {
        parameter: 'client',
        message: 'client: expected an address (0x and 40 hex digits), got "0x12"',
      },
    })
    expect(refusal('status=Open,Done')).toEqual({
      error: {
        parameter: 'status',
        message: 'status: expected one or more of Open, Claimed, Completed (comma-separated), got "Done"',
      },
    })
  })

  it('refuses unknown and repeated parameters', () => {
    expect(refusal('sort=asc')).toEqual({
      error: {
        parameter: 'sort',
        message: 'sort: unknown parameter: this route takes client, status, limit, cursor',
      },
    })
    expect(refusal('limit=1&limit=2')).toEqual({
      error: { parameter: 'limit', message: 'limit: given more than once: give it once' },
    })
    expect(refusal('x=1', {})).toEqual({
      error: { parameter: 'x', message: 'x: unknown parameter: this route takes no query parameters' },
    })
  })

  it('refuses a cursor of another list, or made up', () => {
    for (const value of [encodeCursor('providers', '42'), 'not a cursor', encodeCursor('tasks', '0x2a')])
      expect(refusal(`cursor=${encodeURIComponent(value)}`).error.parameter).toBe('cursor')
  })

  it('reads one of a set, with its default', () => {
    const parameters = { window: oneOf('A window.', ['1h', '24h', '7d'], '24h') }
    expect(read('', parameters)).toEqual({ window: '24h' })
    expect(read('window=7d', parameters)).toEqual({ window: '7d' })
    expect(refusal('window=2h', parameters)).toEqual({
      error: { parameter: 'window', message: 'window: expected one of 1h, 24h, 7d, got "2h"' },
    })
  })

  it('reads ids from the path', () => {
    const parameters = { id: taskIdPath('A task.') }
    const path = (id: string) => readParameters({ path: { id }, query: new URLSearchParams() }, parameters)
    expect(path('115792089237316195423570985008687907853269984665640564039457584007913129639935')).toEqual({
      id: 2n ** 256n - 1n,
    })
    for (const id of ['0', '01', 'abc', '-1', (2n ** 256n).toString()])
      expect(() => path(id)).toThrow(`id: expected a task id (a whole number from 1), got "${id}"`)
  })
})
