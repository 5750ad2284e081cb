import { describe, expect, test } from 'vitest'
import { nbodyOutput } from '../detect/testing.js'
import { NbodyOutputError } from './errors.js'
import { parseNbodyOutput } from './nbody.js'

describe('parseNbodyOutput', () => {
  test('H100 (recorded output of nbody-cuda11.7.1)', () => {
    expect(parseNbodyOutput(nbodyOutput('h100-sxm'))).toEqual({
      device: 'NVIDIA H100 80GB HBM3',
      bodies: 262144,
      iterations: 10,
      totalTimeMs: 361.522,
      interactionsPerSecond: 1900.838,
      gflops: 38016.761,
    })
  })

  test('RTX 4090, with CRLF line ends (a TTY container)', () => {
    expect(parseNbodyOutput(nbodyOutput('rtx-4090').replaceAll('\n', '\r\n'))).toMatchObject({
      device: 'NVIDIA GeForce RTX 4090',
      gflops: 44447.843,
    })
  })

  test('a CUDA error: typed error whose details are the last lines', () => {
    let thrown: unknown
    try {
      parseNbodyOutput(nbodyOutput('insufficient-driver'))
    } catch (error) {
      thrown = error
    }
    expect(thrown).toBeInstanceOf(NbodyOutputError)
    expect((thrown as NbodyOutputError).details).toMatch(/code=35\(cudaErrorInsufficientDriver\)/)
    expect((thrown as NbodyOutputError).output).toBe(nbodyOutput('insufficient-driver'))
  })

  test('a double-precision run is not a single-precision result', () => {
    const fp64 = nbodyOutput('h100-sxm').replace('single-precision', 'double-precision')
    expect(() => parseNbodyOutput(fp64)).toThrow(NbodyOutputError)
  })

  test('empty output', () => {
    expect(() => parseNbodyOutput('')).toThrow('The n-body benchmark printed no GFLOP/s result')
  })
})
