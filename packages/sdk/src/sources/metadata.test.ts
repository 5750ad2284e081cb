import { describe, expect, it } from 'vitest'
import { InvalidParametersError } from '../errors/validation.js'
import {
  imageDigestOf,
  isLeaseSourceDocument,
  maxSourceMetadataBytes,
  parseLeaseSourceMetadata,
  parseSourceMetadata,
  requirementsOf,
  SourceMetadataTooLargeError,
} from './metadata.js'

const digest = 'ab'.repeat(32)
const image = `ghcr.io/gridforge/whisper:3.1@sha256:${digest}`

function fieldsOf(input: unknown) {
  try {
    parseSourceMetadata(input)
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidParametersError)
    return (error as InvalidParametersError).fields
  }
  throw new Error('expected the metadata to be refused')
}

describe('parseSourceMetadata', () => {
  it('fills in the defaults of a minimal document', () => {
    expect(parseSourceMetadata(JSON.stringify({ name: 'Echo', image }))).toEqual({
      schemaVersion: 1,
      name: 'Echo',
      image,
      env: {},
      inputPath: '/input',
      outputPath: '/output',
      resources: { gpus: 0, vramMiB: 0, computeCapability: 0, cpus: 1, memoryMiB: 2048, maxRuntimeSec: 3600 },
      network: 'none',
    })
  })

  it('keeps every field of a full document, from a string, bytes or an object', () => {
    const full = {
      schemaVersion: 1,
      name: 'Whisper large-v3',
      description: 'Transcribes audio files.\n\nOne file per input.',
      image,
      command: ['python', '-m', 'whisper', ''],
      env: {
        LANGUAGE: { description: 'spoken language', default: 'en', values: ['en', 'fr'], required: false },
        hf_token: { required: true },
      },
      inputPath: '/data/in',
      outputPath: '/data/out',
      resources: {
        gpus: 1,
        vramMiB: 16_384,
        computeCapability: 80,
        cpus: 0.5,
        memoryMiB: 8_192,
        diskMiB: 10_000,
        maxRuntimeSec: 1_800,
      },
      network: 'egress',
      license: 'Apache-2.0 OR MIT',
      template: 'pytorch-inference',
    }
    const expected = { ...full, env: { ...full.env, hf_token: { required: true } } }
    expect(parseSourceMetadata(full)).toEqual(expected)
    expect(parseSourceMetadata(JSON.stringify(full))).toEqual(expected)
    expect(parseSourceMetadata(new TextEncoder().encode(JSON.stringify(full)))).toEqual(expected)
    expect(requirementsOf(parseSourceMetadata(full))).toEqual({
      minGpus: 1,
      minVramMiB: 16_384,
      minComputeCapability: 80,
      maxRuntimeSec: 1_800,
    })
  })

  it('rejects unknown fields instead of stripping them', () => {
    const fields = fieldsOf({ name: 'x', image, outputpath: '/out', resources: { gpu: 1 } })
    expect(fields).toHaveLength(2)
    expect(fields).toEqual(
      expect.arrayContaining([
        { path: 'outputpath', message: 'unknown field' },
        { path: 'resources.gpu', message: 'unknown field' },
      ]),
    )
  })

  it('names every bad field with what to write instead', () => {
    const fields = fieldsOf({
      schemaVersion: 2,
      name: 'two\nlines',
      image: 'ubuntu:latest',
      command: [],
      env: { '1BAD': {}, GRIDFORGE_TASK: {}, MODE: { default: 'c', values: ['a', 'b'] } },
      inputPath: '/input/../etc',
      outputPath: '/proc/self',
      resources: { gpus: 1.5, cpus: 0, maxRuntimeSec: 8 * 86_400 },
      network: 'host',
      license: 'MIT; rm -rf /',
      template: 'Has Spaces',
    })
    expect(fields.map((field) => field.path).sort()).toEqual([
      'command',
      'env.1BAD',
      'env.GRIDFORGE_TASK',
      'env.MODE.default',
      'image',
      'inputPath',
      'license',
      'name',
      'network',
      'outputPath',
      'resources.cpus',
      'resources.gpus',
      'resources.maxRuntimeSec',
      'schemaVersion',
      'template',
    ])
    expect(fields.find((field) => field.path === 'image')?.message).toContain('@sha256:<64 hex digits>')
    expect(fields.find((field) => field.path === 'env.GRIDFORGE_TASK')?.message).toContain('reserved')
    expect(fields.find((field) => field.path === 'schemaVersion')?.message).toContain(
      'upgrade @gridforge/sdk',
    )
  })

  it('says which required fields are missing', () => {
    expect(fieldsOf({})).toEqual([
      { path: 'name', message: 'required' },
      { path: 'image', message: 'required' },
    ])
    expect(fieldsOf('[1, 2]')).toEqual([{ path: '(metadata)', message: 'expected a JSON object' }])
  })

  it('refuses overlapping mounts and GPU resources without GPUs', () => {
    expect(fieldsOf({ name: 'x', image, inputPath: '/work', outputPath: '/work/out' })).toEqual([
      { path: 'outputPath', message: 'must not be inside the input path' },
    ])
    expect(fieldsOf({ name: 'x', image, inputPath: '/same', outputPath: '/same' })[0]?.path).toBe('inputPath')
    expect(fieldsOf({ name: 'x', image, resources: { vramMiB: 1024 } })[0]?.path).toBe('resources.gpus')
  })

  it('refuses hostile documents: oversized, not JSON, prototype keys, NULs', () => {
    const padding = 'x'.repeat(maxSourceMetadataBytes)
    const oversized = JSON.stringify({ name: 'x', image, description: padding })
    const error = (() => {
      try {
        parseSourceMetadata(oversized)
      } catch (error) {
        return error
      }
    })()
    expect(error).toBeInstanceOf(SourceMetadataTooLargeError)
    expect((error as SourceMetadataTooLargeError).size).toBe(oversized.length)
    // Multi-byte characters count as bytes, not characters.
    expect(() => parseSourceMetadata({ name: 'x', image, description: 'é'.repeat(40_000) })).toThrow(
      SourceMetadataTooLargeError,
    )
    expect(() => parseSourceMetadata(new Uint8Array(maxSourceMetadataBytes + 1))).toThrow(
      SourceMetadataTooLargeError,
    )
    expect(fieldsOf('{"name": "x",')[0]?.message).toMatch(/^not JSON/)
    expect(fieldsOf(new Uint8Array([0x7b, 0xff, 0x7d]))[0]?.message).toMatch(/^not JSON in UTF-8/)
    expect(fieldsOf(`{"name":"x","image":"${image}","env":{"__proto__":{"required":true}}}`)).toEqual([
      { path: 'env', message: '__proto__ is not a valid variable name' },
    ])
    expect(fieldsOf(`{"name":"x","image":"${image}","__proto__":{"network":"egress"}}`)).toEqual([
      { path: '__proto__', message: 'unknown field' },
    ])
    expect(fieldsOf({ name: 'x', image, command: ['sh', 'a\u0000b'] })).toEqual([
      { path: 'command.1', message: 'must not contain NUL characters' },
    ])
    expect(fieldsOf({ name: 'x', image, size: 1n })[0]?.message).toMatch(/^not serializable as JSON/)
    expect(fieldsOf(`[${'['.repeat(10_000)}${']'.repeat(10_000)}]`)).toEqual([
      { path: '(metadata)', message: 'expected a JSON object' },
    ])
  })
})

describe('parseLeaseSourceMetadata', () => {
  const leaseFieldsOf = (input: unknown) => {
    try {
      parseLeaseSourceMetadata(input)
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidParametersError)
      return (error as InvalidParametersError).fields
    }
    throw new Error('expected the metadata to be refused')
  }

  it('fills in the defaults of a minimal lease source', () => {
    expect(parseLeaseSourceMetadata(JSON.stringify({ kind: 'lease', name: 'Notebook', image }))).toEqual({
      kind: 'lease',
      schemaVersion: 1,
      name: 'Notebook',
      image,
      env: {},
      port: 8080,
      workdir: '/workspace',
      resources: { gpus: 0, vramMiB: 0, computeCapability: 0, cpus: 1, memoryMiB: 1024 },
      network: 'none',
    })
  })

  it('takes the service: environment values, port, workdir, GPUs', () => {
    const metadata = parseLeaseSourceMetadata({
      kind: 'lease',
      name: 'Inference server',
      image,
      command: ['serve', '--port', '9000'],
      env: { MODEL: 'llama-3-8b', THREADS: '8' },
      port: 9000,
      workdir: '/models',
      resources: { gpus: 1, vramMiB: 24_576, cpus: 4, memoryMiB: 16_384, diskMiB: 8_192 },
      network: 'egress',
    })
    expect(metadata).toMatchObject({ env: { MODEL: 'llama-3-8b' }, port: 9000, workdir: '/models' })
    expect(requirementsOf(metadata)).toEqual({
      minGpus: 1,
      minVramMiB: 24_576,
      minComputeCapability: 0,
      maxRuntimeSec: 3_600,
    })
  })

  it('names every bad field, with what a lease source allows', () => {
    expect(
      leaseFieldsOf({
        kind: 'lease',
        name: 'Bad',
        image,
        env: { MODEL: 3, GRIDFORGE_LEASE_ID: '1' },
        port: 70_000,
        workdir: '/proc/x',
        inputPath: '/input',
        resources: { maxRuntimeSec: 60, vramMiB: 1 },
      }).map((field) => field.path),
    ).toEqual(
      expect.arrayContaining([
        'env.MODEL',
        'env.GRIDFORGE_LEASE_ID',
        'port',
        'workdir',
        'inputPath',
        'resources.maxRuntimeSec',
      ]),
    )
    expect(leaseFieldsOf({ kind: 'lease', name: 'x', image, resources: { vramMiB: 1024 } })[0]?.path).toBe(
      'resources.gpus',
    )
    expect(leaseFieldsOf({ kind: 'task', name: 'x', image })).toEqual([
      { path: 'kind', message: "expected 'lease'" },
    ])
  })

  it('keeps task and lease documents apart', () => {
    expect(isLeaseSourceDocument({ kind: 'lease' })).toBe(true)
    expect(isLeaseSourceDocument('{"kind":"lease"}')).toBe(true)
    expect(isLeaseSourceDocument({ name: 'x' })).toBe(false)
    expect(isLeaseSourceDocument('not json')).toBe(false)
    // A task source's parser says where a lease source goes.
    expect(fieldsOf({ kind: 'lease', name: 'Notebook', image, port: 8888 })).toEqual(
      expect.arrayContaining([
        { path: 'kind', message: "expected 'task': a lease source is read with parseLeaseSourceMetadata" },
      ]),
    )
    expect(parseSourceMetadata({ kind: 'task', name: 'Echo', image }).kind).toBe('task')
  })

  it('refuses documents over 64 KiB before parsing them', () => {
    const huge = JSON.stringify({
      kind: 'lease',
      name: 'x',
      image,
      description: 'x'.repeat(maxSourceMetadataBytes),
    })
    expect(() => parseLeaseSourceMetadata(huge)).toThrow(SourceMetadataTooLargeError)
  })
})

describe('imageDigestOf', () => {
  it('returns the digest of a pinned reference as bytes32 hex', () => {
    expect(imageDigestOf(image)).toBe(`0x${digest}`)
    expect(imageDigestOf(`localhost:5000/a/b@sha256:${digest}`)).toBe(`0x${digest}`)
    expect(imageDigestOf(`busybox@sha256:${digest}`)).toBe(`0x${digest}`)
    expect(imageDigestOf('busybox:latest')).toBeUndefined()
    expect(imageDigestOf(`Busybox@sha256:${digest}`)).toBeUndefined()
  })
})
