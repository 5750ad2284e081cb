import { describe, expect, test } from 'vitest'
import type { HostReport } from '../detect/HostReport.js'
import { queryNvidia } from '../detect/nvidiaSmi.js'
import {
  dockerUnreachable,
  dockerWithNvidia,
  dockerWithoutNvidia,
  hostReport,
  nvidiaSmiCases,
  nvidiaSmiFixture,
} from '../detect/testing.js'
import { type CheckItem, runDoctor } from './doctor.js'
import { formatChecklist } from './formatChecklist.js'

const nvidiaOf = (name: string) => queryNvidia({ exec: nvidiaSmiFixture(name) })
const options = { nodeVersion: '22.12.0', dataDir: '/var/lib/gridforge' }
const byId = (items: CheckItem[], id: CheckItem['id']) => items.find((item) => item.id === id)

describe('runDoctor', () => {
  test('a healthy GPU host: every check ok, in order', async () => {
    const items = runDoctor(hostReport({ nvidia: await nvidiaOf('rtx-4090') }), options)
    expect(items.map((item) => [item.id, item.status])).toEqual([
      ['node', 'ok'],
      ['docker', 'ok'],
      ['nvidia-driver', 'ok'],
      ['gpus', 'ok'],
      ['nvidia-runtime', 'ok'],
      ['cuda', 'ok'],
      ['disk', 'ok'],
      ['memory', 'ok'],
    ])
    expect(formatChecklist(items)).toBe(
      [
        '✔ Node.js 22.12.0',
        '✔ Docker engine 27.3.1 reachable',
        '✔ NVIDIA driver 550.54.15',
        '✔ 1 GPU: NVIDIA GeForce RTX 4090 (24564 MiB, sm_89)',
        '✔ NVIDIA container runtime registered',
        '✔ CUDA 12.4',
        '✔ 781 GiB free for /var/lib/gridforge',
        '✔ 62 GiB memory',
      ].join('\n'),
    )
  })

  test('a host without Docker: Docker fails with how to install it; the GPU runtime cannot be checked', async () => {
    const items = runDoctor(
      hostReport({ docker: dockerUnreachable, nvidia: await nvidiaOf('h100-sxm-8x') }),
      options,
    )
    expect(byId(items, 'docker')).toEqual({
      id: 'docker',
      title: 'Docker engine not reachable',
      status: 'fail',
      detail:
        'connect ENOENT /var/run/docker.sock (tasks run in containers: without Docker the agent cannot isolate them)',
      fix: 'install Docker Engine (https://docs.docker.com/engine/install/) and start it: sudo systemctl enable --now docker (or set DOCKER_HOST to a running engine)',
    })
    expect(byId(items, 'nvidia-runtime')).toMatchObject({
      status: 'warn',
      title: 'NVIDIA container runtime not checked',
    })
    expect(byId(items, 'gpus')?.title).toBe('8 GPUs: 8× NVIDIA H100 80GB HBM3 (81559 MiB, sm_90)')
    expect(formatChecklist(items).split('\n').slice(1, 4)).toEqual([
      '✘ Docker engine not reachable',
      '    connect ENOENT /var/run/docker.sock (tasks run in containers: without Docker the agent cannot isolate them)',
      '    fix: install Docker Engine (https://docs.docker.com/engine/install/) and start it: sudo systemctl enable --now docker (or set DOCKER_HOST to a running engine)',
    ])
  })

  test('Docker socket not readable by this user: the fix is the docker group', () => {
    const items = runDoctor(
      hostReport({
        docker: { reachable: false, error: 'connect EACCES /var/run/docker.sock', nvidiaRuntime: false },
      }),
      options,
    )
    expect(byId(items, 'docker')).toMatchObject({
      status: 'fail',
      title: 'Docker engine not reachable: permission denied',
      fix: expect.stringMatching(/^let this user use Docker: sudo usermod -aG docker \$USER/),
    })
  })

  test('a host without a GPU: warnings, CPU tasks only, no runtime or CUDA check', async () => {
    const items = runDoctor(
      hostReport({ nvidia: await nvidiaOf('absent'), docker: dockerWithoutNvidia }),
      options,
    )
    expect(items.map((item) => [item.id, item.status])).toEqual([
      ['node', 'ok'],
      ['docker', 'ok'],
      ['nvidia-driver', 'warn'],
      ['gpus', 'warn'],
      ['disk', 'ok'],
      ['memory', 'ok'],
    ])
    expect(formatChecklist(items)).toBe(
      [
        '✔ Node.js 22.12.0',
        '✔ Docker engine 20.10.24+dfsg1 reachable',
        '⚠ NVIDIA driver not installed (nvidia-smi not found)',
        '    this host can take CPU tasks only',
        '    fix: to offer GPUs, install the NVIDIA driver (https://docs.nvidia.com/datacenter/tesla/driver-installation-guide/) and reboot',
        '⚠ No NVIDIA GPU',
        '    only tasks that need no GPU will be taken',
        '✔ 781 GiB free for /var/lib/gridforge',
        '✔ 62 GiB memory',
      ].join('\n'),
    )
  })

  test.each([
    ['driver-not-loaded', 'NVIDIA driver not loaded', /lsmod \| grep nvidia/],
    ['version-mismatch', 'NVIDIA driver/library version mismatch', /^reboot: the driver was upgraded/],
    ['no-devices', 'NVIDIA driver sees no GPU', /lspci \| grep -i nvidia/],
    ['driver-470', 'NVIDIA driver too old', /^upgrade the NVIDIA driver to 525 or later/],
    ['garbled', 'NVIDIA driver not working', /reinstall the NVIDIA driver/],
  ])('broken driver (%s): fails as "%s" with its fix', async (name, title, fix) => {
    const nvidia = await nvidiaOf(name)
    const items = runDoctor(hostReport({ nvidia }), options)
    const driver = byId(items, 'nvidia-driver')
    expect(driver).toMatchObject({ status: 'fail', title, fix: expect.stringMatching(fix) })
    expect(driver?.detail).toBe(
      `nvidia-smi: ${nvidia.status === 'broken' && nvidia.error.trim().split('\n').filter(Boolean).slice(0, 2).join(' / ')}`,
    )
    expect(byId(items, 'gpus')).toMatchObject({ status: 'warn', title: 'GPUs unknown' })
    expect(byId(items, 'cuda')).toBeUndefined()
    expect(byId(items, 'nvidia-runtime')).toBeUndefined()
  })

  test('broken driver, as printed', async () => {
    const items = runDoctor(hostReport({ nvidia: await nvidiaOf('version-mismatch') }), options)
    expect(formatChecklist(items).split('\n').slice(2, 8)).toEqual([
      '✘ NVIDIA driver/library version mismatch',
      '    nvidia-smi: Failed to initialize NVML: Driver/library version mismatch / NVML library version: 550.107',
      '    fix: reboot: the driver was upgraded and the loaded kernel module is still the old one (or unload and reload it: sudo rmmod nvidia_uvm nvidia_drm nvidia_modeset nvidia && sudo modprobe nvidia)',
      '⚠ GPUs unknown',
      '    nvidia-smi fails, so no GPU is offered',
      '    fix: fix the NVIDIA driver (above), then run doctor again',
    ])
  })

  test('GPUs but no NVIDIA container runtime: fails with the toolkit fix', async () => {
    const items = runDoctor(
      hostReport({ nvidia: await nvidiaOf('mixed-l4-t4'), docker: dockerWithoutNvidia }),
      options,
    )
    expect(byId(items, 'nvidia-runtime')).toEqual({
      id: 'nvidia-runtime',
      title: 'NVIDIA container runtime missing',
      status: 'fail',
      detail:
        'Docker lists no nvidia runtime (runtimes: io.containerd.runc.v2, io.containerd.runtime.v1.linux, runc): containers cannot be given the GPUs',
      fix: 'install nvidia-container-toolkit, then: nvidia-ctk runtime configure --runtime=docker && systemctl restart docker',
    })
    expect(byId(items, 'gpus')?.title).toBe(
      '2 GPUs: NVIDIA L4 (23034 MiB, sm_89), Tesla T4 (15360 MiB, sm_75)',
    )
    expect(formatChecklist(items)).toContain(
      '✘ NVIDIA container runtime missing\n    Docker lists no nvidia runtime (runtimes: io.containerd.runc.v2, io.containerd.runtime.v1.linux, runc): containers cannot be given the GPUs\n    fix: install nvidia-container-toolkit, then: nvidia-ctk runtime configure --runtime=docker && systemctl restart docker',
    )
  })

  test('MIG on one GPU: a warning naming it and the command to turn MIG off; the other GPU is offered', async () => {
    const items = runDoctor(hostReport({ nvidia: await nvidiaOf('a100-mig') }), options)
    expect(byId(items, 'gpus')).toMatchObject({
      status: 'ok',
      title: '2 GPUs: 2× NVIDIA A100-SXM4-40GB (40960 MiB, sm_80)',
      detail: '1 offered to tasks',
    })
    expect(byId(items, 'mig')).toMatchObject({
      status: 'warn',
      title: 'MIG enabled on GPU 0: not offered',
      fix: 'to offer them whole: sudo nvidia-smi -i 0 -mig 0 (stop what runs on them first; a GPU reset or a reboot may be needed)',
    })
  })

  test('MIG on every GPU: the GPU check fails (nothing to offer)', async () => {
    const nvidia = await nvidiaOf('a100-mig')
    const gpus = nvidia.gpus.map((gpu) => ({ ...gpu, migEnabled: true }))
    const items = runDoctor(
      hostReport({ nvidia: { status: 'ok', gpus, driver: '525.85.12', cuda: '12.0' } }),
      options,
    )
    expect(byId(items, 'gpus')).toMatchObject({
      status: 'fail',
      detail: 'every GPU is in MIG mode, so none is offered',
    })
    expect(byId(items, 'mig')?.title).toBe('MIG enabled on GPU 0,1: not offered')
  })

  test('old Node.js fails; old or unknown CUDA warns', () => {
    const report = hostReport()
    expect(byId(runDoctor(report, { nodeVersion: '20.18.1' }), 'node')).toMatchObject({
      status: 'fail',
      title: 'Node.js 20.18.1 is too old',
      detail: 'the provider kit needs Node.js 22.12.0 or later',
    })
    expect(byId(runDoctor(report, { nodeVersion: '22.9.0' }), 'node')?.status).toBe('fail')
    expect(byId(runDoctor(report, { nodeVersion: '24.1.0' }), 'node')?.status).toBe('ok')
    const withCuda = (cuda: string | undefined): HostReport =>
      hostReport({ nvidia: { status: 'ok', gpus: report.nvidia.gpus, driver: '470.182.03', cuda } })
    expect(byId(runDoctor(withCuda('11.4'), options), 'cuda')).toMatchObject({
      status: 'warn',
      title: 'CUDA 11.4 is older than 12.0',
    })
    expect(byId(runDoctor(withCuda(undefined), options), 'cuda')).toMatchObject({
      status: 'warn',
      title: 'CUDA version unknown',
    })
    expect(byId(runDoctor(withCuda('12.10'), options), 'cuda')?.status).toBe('ok')
  })

  test('disk: fails below 10 GiB, warns below 50 GiB, warns when unknown', () => {
    const disk = (diskFreeMiB: number | undefined) =>
      byId(runDoctor(hostReport({ diskFreeMiB }), options), 'disk')
    expect(disk(3_277)).toMatchObject({ status: 'fail', title: '3.2 GiB free for /var/lib/gridforge' })
    expect(disk(20_480)).toMatchObject({ status: 'warn', title: '20 GiB free for /var/lib/gridforge' })
    expect(disk(512)).toMatchObject({ status: 'fail', title: '512 MiB free for /var/lib/gridforge' })
    expect(disk(undefined)).toMatchObject({ status: 'warn', title: 'Free disk space unknown' })
  })

  test('memory: fails below 2 GiB, warns below 8 GiB or below the GPUs’ memory', async () => {
    const memory = (memoryMiB: number, report: Partial<HostReport> = {}) =>
      byId(runDoctor(hostReport({ memoryMiB, ...report }), options), 'memory')
    expect(memory(1_024)).toMatchObject({ status: 'fail', title: '1.0 GiB memory' })
    expect(memory(4_096)).toMatchObject({ status: 'warn' })
    const h100 = await nvidiaOf('h100-sxm-8x')
    expect(memory(524_288, { nvidia: h100 })).toMatchObject({
      status: 'warn',
      detail: "less than the GPUs' 637 GiB: GPU tasks that stage data in host memory may run out",
    })
    expect(memory(2_063_800, { nvidia: h100 })?.status).toBe('ok')
  })

  test('every failing check, in every recorded case and Docker state, has a fix (and every non-ok check a detail)', async () => {
    for (const name of nvidiaSmiCases) {
      const nvidia = await nvidiaOf(name)
      for (const docker of [dockerWithNvidia, dockerWithoutNvidia, dockerUnreachable]) {
        for (const [diskFreeMiB, memoryMiB] of [
          [undefined, 64_000],
          [100, 512],
        ] as const) {
          const items = runDoctor(hostReport({ nvidia, docker, diskFreeMiB, memoryMiB }), {
            nodeVersion: '18.19.0',
          })
          for (const item of items) {
            if (item.status === 'ok') continue
            if (item.status === 'fail') expect(item.fix, `${name} ${item.id}`).toMatch(/\S/)
            expect(item.detail, `${name} ${item.id}`).toMatch(/\S/)
          }
          expect(new Set(items.map((item) => item.id)).size).toBe(items.length)
        }
      }
    }
  })
})

describe('formatChecklist', () => {
  const items: CheckItem[] = [
    {
      id: 'docker',
      title: 'Docker engine 20.10.24 reachable',
      status: 'ok',
      detail: 'API 1.41; runtimes: runc',
    },
    {
      id: 'nvidia-runtime',
      title: 'NVIDIA container runtime missing',
      status: 'fail',
      detail: 'Docker lists no nvidia runtime',
      fix: 'install nvidia-container-toolkit, then: nvidia-ctk runtime configure --runtime=docker && systemctl restart docker',
    },
  ]

  test('marks, and the detail and fix of what did not pass', () => {
    expect(formatChecklist(items)).toBe(
      [
        '✔ Docker engine 20.10.24 reachable',
        '✘ NVIDIA container runtime missing',
        '    Docker lists no nvidia runtime',
        '    fix: install nvidia-container-toolkit, then: nvidia-ctk runtime configure --runtime=docker && systemctl restart docker',
      ].join('\n'),
    )
  })

  test('verbose shows the detail of passed checks; color wraps the marks in ANSI codes', () => {
    expect(formatChecklist(items, { verbose: true }).split('\n')[1]).toBe('    API 1.41; runtimes: runc')
    expect(formatChecklist(items, { color: true }).split('\n')[0]).toBe(
      '\u001b[32m✔\u001b[39m Docker engine 20.10.24 reachable',
    )
  })
})
