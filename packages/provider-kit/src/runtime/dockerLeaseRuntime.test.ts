import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { docker, removeContainers } from '../../test/docker.js'
import type { TestImage } from '../../test/images.js'
import { httpdImage, send } from '../../test/lease.js'
import { ContainerEngineError, LeaseServiceNotReadyError } from '../errors.js'
import { containerLabels } from './ContainerRuntime.js'
import { dockerLeaseRuntime, leaseNetworkOptions, leaseResourceName } from './dockerLeaseRuntime.js'
import { type LeaseContainerSpec, leaseLabels } from './LeaseRuntime.js'

const owner = `test-lease-runtime-${randomUUID()}`
const runtime = dockerLeaseRuntime({ owner, readyTimeoutMs: 20_000 })
let image: TestImage

beforeAll(async () => {
  image = await httpdImage()
})

afterAll(async () => {
  await Promise.all([10n, 11n, 12n, 13n].map((leaseId) => runtime.stopLeaseContainer(leaseId)))
  await removeContainers(`${containerLabels.owner}=${owner}`)
})

const spec = (leaseId: bigint, overrides: Partial<LeaseContainerSpec> = {}): LeaseContainerSpec => ({
  leaseId,
  image: image.id,
  env: { LEASE: leaseId.toString() },
  port: 8080,
  gpus: [],
  network: 'none',
  limits: { memoryBytes: 64 << 20, cpus: 0.5, pids: 32, tmpBytes: 1 << 20, workdirBytes: 2 << 20 },
  ...overrides,
})

describe('dockerLeaseRuntime', () => {
  test('starts a sandboxed lease container on its own internal network, reachable from the host only', async () => {
    const lease = await runtime.startLeaseContainer(spec(10n))
    expect(lease).toMatchObject({ leaseId: 10n, running: true, reattached: false })
    const info = await docker().getContainer(lease.containerId).inspect()
    expect(info.HostConfig).toMatchObject({
      NetworkMode: leaseResourceName(owner, 10n),
      ReadonlyRootfs: true,
      CapDrop: ['ALL'],
      SecurityOpt: ['no-new-privileges'],
      PidsLimit: 32,
      Memory: 64 << 20,
      Init: true,
    })
    // Nothing published: the upstream is the container's address on the lease network.
    expect(info.NetworkSettings.Ports).toEqual({})
    const network = await docker().getNetwork(leaseResourceName(owner, 10n)).inspect()
    expect(network).toMatchObject({ Internal: true, Labels: { [containerLabels.owner]: owner } })
    expect(lease.upstream?.host).toBe(info.NetworkSettings.Networks[leaseResourceName(owner, 10n)]?.IPAddress)

    const page = await send(`http://${lease.upstream!.host}:${lease.upstream!.port}`, { host: 'x' })
    expect(page.body).toBe('page of lease 10\n')
  })

  test("an egress lease's port is published on 127.0.0.1 only, on a port the engine picks", async () => {
    const lease = await runtime.startLeaseContainer(spec(11n, { network: 'egress' }))
    expect(lease.upstream?.host).toBe('127.0.0.1')
    const info = await docker().getContainer(lease.containerId).inspect()
    expect(info.NetworkSettings.Ports['8080/tcp']?.map((binding) => binding.HostIp)).toEqual(['127.0.0.1'])
    const page = await send(`http://127.0.0.1:${lease.upstream!.port}`, { host: 'x' })
    expect(page.body).toBe('page of lease 11\n')
    const network = await docker().getNetwork(leaseResourceName(owner, 11n)).inspect()
    expect(network.Internal).toBe(false)
  })

  test('re-attaches to the running container after a restart, never restarting it', async () => {
    const first = await runtime.startLeaseContainer(spec(10n))
    const startedAt = (await docker().getContainer(first.containerId).inspect()).State.StartedAt
    // A new runtime: the agent restarted.
    const restarted = dockerLeaseRuntime({ owner })
    const found = await restarted.findLeaseContainer(10n)
    expect(found).toEqual({ ...first, reattached: true })
    const again = await restarted.startLeaseContainer(spec(10n))
    expect(again).toEqual({ ...first, reattached: true })
    expect((await docker().getContainer(first.containerId).inspect()).State.StartedAt).toBe(startedAt)
    expect((await restarted.listLeaseContainers()).map((lease) => lease.leaseId).sort()).toEqual([10n, 11n])
    // Another agent on the host sees none of them.
    expect(await dockerLeaseRuntime({ owner: `${owner}-other` }).findLeaseContainer(10n)).toBeUndefined()
  })

  test('stop removes the container and its network, and is idempotent', async () => {
    const lease = await runtime.startLeaseContainer(spec(12n))
    await runtime.stopLeaseContainer(12n)
    await runtime.stopLeaseContainer(12n)
    expect(await runtime.findLeaseContainer(12n)).toBeUndefined()
    await expect(docker().getContainer(lease.containerId).inspect()).rejects.toMatchObject({
      statusCode: 404,
    })
    await expect(docker().getNetwork(leaseResourceName(owner, 12n)).inspect()).rejects.toMatchObject({
      statusCode: 404,
    })
  })

  test('GPUs are pinned by DeviceRequests; no NVIDIA runtime here: ContainerEngineError saying so', async () => {
    const error = await runtime
      .startLeaseContainer(spec(13n, { gpus: ['GPU-abc'] }))
      .catch((error: unknown) => error)
    expect(error).toBeInstanceOf(ContainerEngineError)
    expect(String((error as ContainerEngineError).cause)).toMatch(/nvidia/i)
    const [created] = await docker().listContainers({
      all: true,
      filters: { label: [`${containerLabels.owner}=${owner}`, `${leaseLabels.leaseId}=13`] },
    })
    const info = await docker()
      .getContainer(created?.Id ?? '')
      .inspect()
    expect(info.HostConfig.DeviceRequests).toEqual([
      { Driver: 'nvidia', Count: 0, DeviceIDs: ['GPU-abc'], Capabilities: [['gpu']], Options: null },
    ])
  })

  test('a service that exits before listening is LeaseServiceNotReadyError with its logs', async () => {
    const error = await runtime
      .startLeaseContainer(spec(12n, { command: ['sh', '-c', 'echo no such model; exit 3'] }))
      .catch((error: unknown) => error)
    expect(error).toBeInstanceOf(LeaseServiceNotReadyError)
    expect((error as LeaseServiceNotReadyError).shortMessage).toBe(
      'The service of lease 12 is not answering: its container exited with code 3',
    )
    expect((error as LeaseServiceNotReadyError).logs).toBe('no such model')
  })
})

test('leaseNetworkOptions: an internal bridge for egress none, its interface named for one host rule', () => {
  const none = leaseNetworkOptions('agent', spec(7n))
  const egress = leaseNetworkOptions('agent', spec(7n, { network: 'egress' }))
  expect(none.Internal).toBe(true)
  expect(egress.Internal).toBe(false)
  const name = none.Options?.['com.docker.network.bridge.name'] ?? ''
  expect(name).toMatch(/^gfl[0-9a-f]{12}$/)
  expect(none.Options).toMatchObject({
    'com.docker.network.bridge.host_binding_ipv4': '127.0.0.1',
    'com.docker.network.bridge.enable_ip_masquerade': 'false',
  })
})
