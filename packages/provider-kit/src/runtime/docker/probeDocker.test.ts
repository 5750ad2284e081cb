import { describe, expect, test } from 'vitest'
import { dockerClient } from './dockerClient.js'
import { type DockerProbe, probeDocker } from './probeDocker.js'

const fakeDocker = (runtimes: unknown): DockerProbe => ({
  ping: async () => 'OK',
  version: async () => ({ Version: '27.3.1', ApiVersion: '1.47' }),
  info: async () => ({ Runtimes: runtimes }),
})

describe('probeDocker', () => {
  test('the real engine on this machine: reachable, its version and runtimes, no NVIDIA runtime', async () => {
    const report = await probeDocker()
    const version = await dockerClient().version()
    expect(report).toEqual({
      reachable: true,
      version: version.Version,
      apiVersion: version.ApiVersion,
      nvidiaRuntime: false,
      runtimes: expect.arrayContaining(['runc']),
    })
  })

  test('an engine that is not there (socket missing): unreachable with the connection error', async () => {
    const report = await probeDocker(dockerClient({ socket: '/tmp/gridforge-no-docker.sock' }))
    expect(report).toEqual({
      reachable: false,
      nvidiaRuntime: false,
      error: expect.stringMatching(/ENOENT.*gridforge-no-docker\.sock/),
    })
  })

  test('`nvidia` in Runtimes (nvidia-ctk runtime configure) → nvidiaRuntime', async () => {
    const report = await probeDocker(
      fakeDocker({ nvidia: { path: 'nvidia-container-runtime', runtimeArgs: [] }, runc: { path: 'runc' } }),
    )
    expect(report).toEqual({
      reachable: true,
      version: '27.3.1',
      apiVersion: '1.47',
      nvidiaRuntime: true,
      runtimes: ['nvidia', 'runc'],
    })
  })

  test('the CDI runtime alone, or a renamed runtime running nvidia-container-runtime, counts', async () => {
    expect(
      (await probeDocker(fakeDocker({ 'nvidia-cdi': { path: '/usr/bin/nvidia-container-runtime.cdi' } })))
        .nvidiaRuntime,
    ).toBe(true)
    expect(
      (await probeDocker(fakeDocker({ gpu: { path: '/usr/bin/nvidia-container-runtime' } }))).nvidiaRuntime,
    ).toBe(true)
  })

  test('runc only, or no Runtimes field at all: no NVIDIA runtime', async () => {
    expect(await probeDocker(fakeDocker({ runc: { path: 'runc' } }))).toMatchObject({
      nvidiaRuntime: false,
      runtimes: ['runc'],
    })
    expect(await probeDocker(fakeDocker(undefined))).toMatchObject({ nvidiaRuntime: false, runtimes: [] })
  })

  test('permission denied on the socket is reported as is (the doctor turns it into a fix)', async () => {
    const report = await probeDocker({
      ...fakeDocker({}),
      ping: () => Promise.reject(new Error('connect EACCES /var/run/docker.sock')),
    })
    expect(report).toEqual({
      reachable: false,
      nvidiaRuntime: false,
      error: 'connect EACCES /var/run/docker.sock',
    })
  })

  test('an engine that never answers times out instead of hanging detection', async () => {
    const report = await probeDocker(
      { ...fakeDocker({}), ping: () => new Promise(() => {}) },
      { timeout: 50 },
    )
    expect(report).toEqual({
      reachable: false,
      nvidiaRuntime: false,
      error: 'the Docker engine did not answer ping within 50 ms',
    })
  })
})
