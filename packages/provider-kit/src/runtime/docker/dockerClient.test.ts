import { describe, expect, test } from 'vitest'
import { dockerClient } from './dockerClient.js'

describe('dockerClient', () => {
  test('neither socket nor host: the engine DOCKER_HOST or the default socket names, and it answers', async () => {
    expect(await dockerClient().ping()).toBeTruthy()
  })

  test('a socket, or a remote URL with its default port per protocol', () => {
    const modem = (parameters: Parameters<typeof dockerClient>[0]) => {
      const { socketPath, host, port, protocol, username } = dockerClient(parameters)
        .modem as unknown as Record<string, unknown>
      return { socketPath, host, port, protocol, username }
    }
    expect(modem({ socket: '/run/user/1000/docker.sock' })).toMatchObject({
      socketPath: '/run/user/1000/docker.sock',
    })
    expect(modem({ host: 'tcp://10.0.0.7' })).toMatchObject({
      host: '10.0.0.7',
      port: 2375,
      protocol: 'http',
    })
    expect(modem({ host: 'https://gpu.example:3376' })).toMatchObject({
      host: 'gpu.example',
      port: 3376,
      protocol: 'https',
    })
    expect(modem({ host: 'ssh://gpu%20ops@10.0.0.7' })).toMatchObject({
      host: '10.0.0.7',
      port: 22,
      protocol: 'ssh',
      username: 'gpu ops',
    })
  })
})
