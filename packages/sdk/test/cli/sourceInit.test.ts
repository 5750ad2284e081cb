import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt, runCli, tempDir } from './run.js'

const names = [
  'blender-render',
  'ffmpeg-transcode',
  'jupyter-papermill',
  'pytorch-inference',
  'pytorch-training',
  'scientific-simulation',
]

describe('gridforge source init', () => {
  let root: string

  beforeAll(async () => {
    ;[root] = await Promise.all([tempDir('gridforge-init-'), ensureBuilt()])
  }, 180_000)
  afterAll(() => rm(root, { recursive: true, force: true }))

  it('copies a template into ./<name> and prints the next steps', async () => {
    const cwd = path.join(root, 'default')
    await mkdir(cwd)
    const { code, stdout, stderr } = await runCli(['source', 'init', '--template', 'pytorch-inference'], {
      cwd,
    })
    expect(stderr).toBe('')
    expect(code).toBe(0)
    expect((await readdir(path.join(cwd, 'pytorch-inference'))).sort()).toEqual([
      'Dockerfile',
      'README.md',
      'run.py',
      'source.json',
    ])
    const lines = stdout.split('\n')
    expect(lines[0]).toBe(
      'created pytorch-inference from the pytorch-inference template (PyTorch image classification (ResNet-50)):',
    )
    expect(stdout).toContain('  Dockerfile\n  README.md\n  run.py\n  source.json\n')
    expect(stdout).toContain(
      "source.json names a placeholder image (registry.example.com/you/pytorch-inference:0.1.0@sha256:000…): replace it with your image's digest after the build.",
    )
    for (const step of [
      '  cd pytorch-inference',
      '  docker build -t registry.example.com/you/pytorch-inference:0.1.0 .',
      '  docker push registry.example.com/you/pytorch-inference:0.1.0',
      '  docker buildx imagetools inspect registry.example.com/you/pytorch-inference:0.1.0',
      '  set "image" in source.json to registry.example.com/you/pytorch-inference:0.1.0@sha256:<that digest>',
      '  gridforge source publish --metadata source.json',
    ]) {
      expect(stdout).toContain(step)
    }
  })

  it('writes into the directory given, and prints JSON with --json', async () => {
    const target = path.join(root, 'sim')
    const { code, stdout } = await runCli([
      '--json',
      'source',
      'init',
      '--template',
      'scientific-simulation',
      target,
    ])
    expect(code).toBe(0)
    const result = JSON.parse(stdout)
    expect(result).toMatchObject({
      template: 'scientific-simulation',
      directory: target,
      files: ['Dockerfile', 'README.md', 'requirements.txt', 'simulate.py', 'source.json'],
      image: `registry.example.com/you/scientific-simulation:0.1.0@sha256:${'0'.repeat(64)}`,
      imageIsPlaceholder: true,
    })
    expect(result.nextSteps[0]).toBe(`cd ${target}`)
    const metadata = JSON.parse(await readFile(path.join(target, 'source.json'), 'utf8'))
    expect(metadata.template).toBe('scientific-simulation')
  })

  it('refuses a directory that is not empty (exit 2), and --force writes over it', async () => {
    const target = path.join(root, 'busy')
    await mkdir(target)
    await writeFile(path.join(target, 'Dockerfile'), 'FROM scratch\n')
    const refused = await runCli(['source', 'init', '--template', 'ffmpeg-transcode', target])
    expect(refused.code).toBe(2)
    expect(refused.stdout).toBe('')
    expect(refused.stderr).toContain(`error: ${target} is not empty`)
    expect(refused.stderr).toContain('--force')
    expect(await readFile(path.join(target, 'Dockerfile'), 'utf8')).toBe('FROM scratch\n')

    const forced = await runCli(['source', 'init', '--template', 'ffmpeg-transcode', '--force', target])
    expect(forced.code).toBe(0)
    expect(await readFile(path.join(target, 'Dockerfile'), 'utf8')).toContain('FROM debian:12.8-slim')
    expect((await readdir(target)).sort()).toEqual(['Dockerfile', 'README.md', 'source.json', 'transcode.sh'])
  })

  it('refuses an unknown template with exit code 2, listing the templates', async () => {
    const { code, stdout, stderr } = await runCli([
      'source',
      'init',
      '--template',
      'tensorflow',
      path.join(root, 'tf'),
    ])
    expect(code).toBe(2)
    expect(stdout).toBe('')
    expect(stderr).toContain("error: --template: there is no template 'tensorflow'")
    expect(stderr).toContain(`Templates: ${names.join(', ')}.`)
    await expect(readdir(path.join(root, 'tf'))).rejects.toMatchObject({ code: 'ENOENT' })

    const json = await runCli(['--json', 'source', 'init', '--template', 'tensorflow'])
    expect(json.code).toBe(2)
    expect(JSON.parse(json.stdout).error).toMatchObject({
      name: 'UsageError',
      message: "--template: there is no template 'tensorflow'",
      exitCode: 2,
    })
  })

  it('asks for --template when there is none (exit 2)', async () => {
    const { code, stderr } = await runCli(['source', 'init'])
    expect(code).toBe(2)
    expect(stderr).toContain('error: pass --template <name> (or --list to see the templates)')
  })

  it('lists the templates with one-line descriptions, and as JSON', async () => {
    const { code, stdout } = await runCli(['source', 'init', '--list'])
    expect(code).toBe(0)
    const lines = stdout.trimEnd().split('\n')
    expect(lines[0]).toMatch(/^TEMPLATE +GPUS +DESCRIPTION$/)
    expect(lines.slice(1, 7).map((line) => line.split(/ +/)[0])).toEqual(names)
    expect(stdout).toMatch(/\npytorch-inference +1 +Classifies images with a pretrained ResNet-50/)
    expect(stdout).toMatch(/\nscientific-simulation +0 +Integrates a softened gravitational N-body system/)
    expect(lines.at(-1)).toBe('start one with: gridforge source init --template <name> [dir]')

    const json = await runCli(['--json', 'source', 'init', '--list'])
    expect(json.code).toBe(0)
    const templates = JSON.parse(json.stdout)
    expect(templates.map((template: { name: string }) => template.name)).toEqual(names)
    expect(templates[3]).toMatchObject({
      name: 'pytorch-inference',
      title: 'PyTorch image classification (ResNet-50)',
      resources: { gpus: 1, vramMiB: 4096, computeCapability: 70 },
    })
  })

  it('refuses --list with --template', async () => {
    const { code, stderr } = await runCli(['source', 'init', '--list', '--template', 'pytorch-inference'])
    expect(code).toBe(2)
    expect(stderr).toContain('error: pass --list, or --template <name> [dir], not both')
  })

  it('has help with usage and examples', async () => {
    const { code, stdout } = await runCli(['source', 'init', '--help'])
    expect(code).toBe(0)
    expect(stdout).toContain('Usage: gridforge source init [options] [dir]')
    expect(stdout).toContain('--template <name>')
    expect(stdout).toContain('$ gridforge source init --template pytorch-inference')
  })
})
