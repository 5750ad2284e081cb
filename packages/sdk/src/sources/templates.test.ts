/**
 * Every source template under packages/sdk/templates: its metadata passes the
 * SDK's schema with sane resources, its Dockerfile is pinned, unprivileged and
 * copies files that exist, its command runs a script the image has, and its
 * README says how to build, pin and publish it.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { imageDigestOf, parseSourceMetadata, requirementsOf } from './metadata.js'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../templates')
const names = readdirSync(root).filter((name) => statSync(path.join(root, name)).isDirectory())
const cases = names.map((name) => ({ name, directory: path.join(root, name) }))

const gpuTemplates = ['pytorch-inference', 'pytorch-training', 'blender-render']
const cpuTemplates = ['jupyter-papermill', 'ffmpeg-transcode', 'scientific-simulation']

interface Instruction {
  keyword: string
  args: string
}

/** The Dockerfile's instructions, with continuation lines joined and comments dropped. */
function instructions(dockerfile: string): Instruction[] {
  const joined = dockerfile
    .split('\n')
    .filter((line) => !/^\s*#/.test(line))
    .join('\n')
    .replace(/\\\n/g, ' ')
  return joined
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .map((line) => {
      const [keyword = '', ...rest] = line.split(/\s+/)
      return { keyword: keyword.toUpperCase(), args: rest.join(' ') }
    })
}

/** What the image holds at each path the Dockerfile COPYs to, from the template folder. */
function copiedFiles(steps: readonly Instruction[], directory: string): Map<string, string> {
  const files = new Map<string, string>()
  let workdir = '/'
  for (const { keyword, args } of steps) {
    if (keyword === 'WORKDIR') workdir = path.posix.resolve(workdir, args)
    if (keyword !== 'COPY' || /(^|\s)--from=/.test(args)) continue
    const parts = args.split(/\s+/).filter((part) => !part.startsWith('--'))
    const destination = path.posix.resolve(workdir, parts.pop() ?? '')
    for (const source of parts) {
      expect(existsSync(path.join(directory, source)), `COPY ${source}: not in the template folder`).toBe(
        true,
      )
      const target =
        parts.length > 1 || destination.endsWith('/') || args.trim().endsWith('/')
          ? path.posix.join(destination, path.posix.basename(source))
          : destination
      files.set(target, source)
    }
  }
  return files
}

describe('source templates', () => {
  it('are the six templates, each with its four kinds of files', () => {
    expect(names.sort()).toEqual([...gpuTemplates, ...cpuTemplates].sort())
    for (const { directory } of cases) {
      for (const file of ['source.json', 'Dockerfile', 'README.md'])
        expect(existsSync(path.join(directory, file)), `${directory}/${file}`).toBe(true)
    }
  })

  describe.each(cases)('$name', ({ name, directory }) => {
    const json = readFileSync(path.join(directory, 'source.json'), 'utf8')
    const dockerfile = readFileSync(path.join(directory, 'Dockerfile'), 'utf8')
    const readme = readFileSync(path.join(directory, 'README.md'), 'utf8')
    const steps = instructions(dockerfile)

    it('has metadata that parses with the SDK schema, tagged with the template', () => {
      const metadata = parseSourceMetadata(json)
      expect(metadata.template).toBe(name)
      expect(metadata.license).toBeDefined()
      expect(metadata.network).toBe('none')
      expect(metadata.command?.length).toBeGreaterThan(0)
      // The description says what the task's input is and where the output goes.
      expect(metadata.description).toContain('Input:')
      expect(metadata.description).toContain('$GRIDFORGE_OUTPUT_DIR')
      for (const [variable, spec] of Object.entries(metadata.env)) {
        expect(spec.default, `${variable} has a default`).toBeDefined()
        expect(spec.description, `${variable} is described`).toBeDefined()
      }
    })

    it('names a placeholder image pinned by a digest that cannot be published', () => {
      const { image } = parseSourceMetadata(json)
      expect(image).toMatch(new RegExp(`^registry\\.example\\.com/you/${name}:0\\.1\\.0@sha256:0{64}$`))
      expect(imageDigestOf(image)).toBe(`0x${'0'.repeat(64)}`)
    })

    it('asks for resources that fit what it runs', () => {
      const metadata = parseSourceMetadata(json)
      const { resources } = metadata
      const requirements = requirementsOf(metadata)
      if (gpuTemplates.includes(name)) {
        expect(requirements.minGpus).toBeGreaterThanOrEqual(1)
        expect(requirements.minVramMiB).toBeGreaterThanOrEqual(1024)
        expect(requirements.minComputeCapability).toBeGreaterThanOrEqual(50)
        expect(metadata.description).toMatch(/GPU/)
      } else {
        expect(requirements.minGpus).toBe(0)
        expect(requirements.minVramMiB).toBe(0)
        expect(metadata.description).toMatch(/CPU/)
      }
      expect(resources.memoryMiB).toBeGreaterThanOrEqual(1024)
      expect(resources.diskMiB).toBeGreaterThanOrEqual(512)
      expect(resources.maxRuntimeSec).toBeGreaterThanOrEqual(600)
      expect(resources.maxRuntimeSec).toBeLessThanOrEqual(86_400)
    })

    it('builds from pinned official images, never latest', () => {
      const stages = new Set<string>()
      const froms = steps.filter((step) => step.keyword === 'FROM')
      expect(froms.length).toBeGreaterThan(0)
      for (const { args } of froms) {
        const [image = '', as, stage] = args.split(/\s+/)
        if (as?.toUpperCase() === 'AS' && stage !== undefined) stages.add(stage)
        if (stages.has(image)) continue
        expect(image, 'FROM has a version tag').toMatch(
          /^[a-z0-9./_-]+:[A-Za-z0-9][\w.-]*(@sha256:[a-f0-9]{64})?$/,
        )
        expect(image).not.toMatch(/:latest(@|$)/)
        expect(image.split(':')[1], 'the tag names a version').toMatch(/\d/)
      }
    })

    it('runs as a user that is not root', () => {
      const users = steps.filter((step) => step.keyword === 'USER')
      expect(users.length, 'the Dockerfile sets USER').toBeGreaterThan(0)
      const user = users.at(-1)?.args.split(':')[0] ?? ''
      expect(['root', '0', '']).not.toContain(user)
    })

    it('copies files that exist, and its command runs one of them', () => {
      const files = copiedFiles(steps, directory)
      expect(files.size).toBeGreaterThan(0)
      const { command } = parseSourceMetadata(json)
      const scripts = (command ?? []).filter((arg) => arg.startsWith('/app/'))
      expect(scripts.length, 'the command runs a script from /app').toBeGreaterThan(0)
      for (const script of scripts) {
        const source = files.get(script)
        expect(source, `${script} is COPYed into the image`).toBeDefined()
        expect(existsSync(path.join(directory, source ?? '')), `${source} exists`).toBe(true)
      }
      // The image's own CMD is the metadata's command.
      const cmd = steps.filter((step) => step.keyword === 'CMD').at(-1)
      expect(cmd === undefined ? undefined : JSON.parse(cmd.args)).toEqual(command)
    })

    it('has no secrets and no remote ADD', () => {
      expect(dockerfile).not.toMatch(/(password|secret|token|api[_-]?key)\s*=/i)
      expect(dockerfile).not.toMatch(/^\s*ADD\s+https?:/im)
    })

    it('has a README that says how to build, pin, publish and use it, and what was tested', () => {
      for (const text of [
        `docker build -t registry.example.com/you/${name}:0.1.0 .`,
        `docker push registry.example.com/you/${name}:0.1.0`,
        'docker buildx imagetools inspect',
        "docker inspect --format '{{index .RepoDigests 0}}'",
        'gridforge source publish --metadata source.json',
        'gridforge task submit --source <id> --input',
        '## Tested',
        'Not built',
      ]) {
        expect(readme).toContain(text)
      }
    })
  })

  const python = spawnSync('python3', ['--version']).status === 0
  it.skipIf(!python)('has Python scripts that compile', () => {
    for (const { directory } of cases) {
      for (const file of readdirSync(directory).filter((entry) => entry.endsWith('.py'))) {
        const result = spawnSync('python3', [
          '-c',
          'import ast, sys; ast.parse(open(sys.argv[1]).read(), sys.argv[1])',
          path.join(directory, file),
        ])
        expect(result.status, `${file}: ${result.stderr}`).toBe(0)
      }
    }
  })

  it('has shell scripts that parse', () => {
    for (const { directory } of cases) {
      for (const file of readdirSync(directory).filter((entry) => entry.endsWith('.sh'))) {
        const result = spawnSync('bash', ['-n', path.join(directory, file)])
        expect(result.status, `${file}: ${result.stderr}`).toBe(0)
      }
    }
  })
})
