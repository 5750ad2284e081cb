import type { HostReport } from '../src/detect/HostReport.js'

/** A host without GPUs: what this machine is. */
export const testHost: HostReport = {
  os: { platform: 'linux', distro: 'Debian', release: '12', kernel: '6.1', arch: 'x64' },
  cpu: { model: 'test CPU', cores: 2 },
  memoryMiB: 24_576,
  diskFreeMiB: 100_000,
  nvidia: { status: 'absent', gpus: [] },
  docker: {
    reachable: true,
    version: '20.10.24',
    apiVersion: '1.41',
    nvidiaRuntime: false,
    runtimes: ['runc'],
  },
}
