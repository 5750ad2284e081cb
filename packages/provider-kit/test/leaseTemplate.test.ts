/**
 * The jupyter-lease template cannot be built here (no PyPI), so what can be
 * checked is checked: its metadata and its Dockerfile start JupyterLab the
 * same way, with its own authentication off (the gateway's job), at the root
 * (the gateway routes by host), reachable from the gateway (0.0.0.0), on the
 * port and workdir the metadata declares.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseLeaseSourceMetadata } from '@gridforge/sdk'
import { expect, test } from 'vitest'

const directory = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../templates/jupyter-lease')
const metadata = JSON.parse(readFileSync(path.join(directory, 'lease.json'), 'utf8'))
const dockerfile = readFileSync(path.join(directory, 'Dockerfile'), 'utf8')

test('jupyter-lease: lease.json is a lease source the SDK accepts (what `gridforge source publish` checks)', () => {
  expect(parseLeaseSourceMetadata(metadata)).toMatchObject({
    kind: 'lease',
    port: 8888,
    workdir: '/workspace',
    network: 'none',
    resources: { gpus: 0, cpus: 2, memoryMiB: 4096, diskMiB: 2048 },
  })
})

test('jupyter-lease: lease.json and the Dockerfile agree, with Jupyter auth off behind the gateway', () => {
  const cmd = /^CMD (\[[\s\S]*?\])\s*$/m.exec(dockerfile.replace(/\\\n\s*/g, ''))?.[1]
  expect(JSON.parse(cmd ?? '[]')).toEqual(metadata.command)
  expect(metadata.command).toEqual(
    expect.arrayContaining([
      '--ip=0.0.0.0',
      `--port=${metadata.port}`,
      '--IdentityProvider.token=',
      '--ServerApp.password=',
      '--ServerApp.base_url=/',
      `--ServerApp.root_dir=${metadata.workdir}`,
    ]),
  )
  expect(dockerfile).toMatch(new RegExp(`^EXPOSE ${metadata.port}$`, 'm'))
  expect(dockerfile).toMatch(/^USER 10001:10001$/m)
  expect(dockerfile).toMatch(/^FROM python:\d+\.\d+\.\d+-slim-bookworm$/m)
  expect(metadata.network).toBe('none')
  for (const line of readFileSync(path.join(directory, 'requirements.txt'), 'utf8').trim().split('\n'))
    expect(line).toMatch(/^[a-z0-9-]+==\d+(\.\d+)*$/)
})
