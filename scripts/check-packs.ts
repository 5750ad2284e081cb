/**
 * Checks what `npm publish` would ship, as a user would get it:
 *
 * 1. packs every published package (`pnpm pack`, from the built `dist/`) into a temporary folder;
 * 2. lists each tarball's entries and fails on any entry outside the package's allowed set, on anything
 *    forbidden (tests, snapshots, fixtures, `src/`, `.env*`, keys), on a source map that is not
 *    self-contained, and on a `workspace:` range left in the packed `package.json`;
 * 3. installs the four tarballs with npm into a fresh project, with the peers at the versions the
 *    workspace tests against, imports every entry point with Node and runs every bin.
 *
 * Run after `pnpm build`: `pnpm check:packs` (`--keep` keeps the temporary folder, `--no-install` stops
 * after step 2). Exits 1 when a check fails, with the list of what failed.
 */
import { execFile } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { gunzipSync } from 'node:zlib'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const args = new Set(process.argv.slice(2))
const keep = args.has('--keep')
const install = !args.has('--no-install')

// ---------------------------------------------------------------------------------------------------------
// What each package may ship, and what its entry points must export
// ---------------------------------------------------------------------------------------------------------

interface PackageSpec {
  /** Paths (relative to the package root) allowed besides package.json, README.md, LICENSE, CHANGELOG.md, dist/ and the bins. */
  allowed: (file: string) => boolean
  /** For every subpath of `exports` (but `./package.json`): names its module must export. */
  exports: Record<string, string[]>
  /** Extra commands to run with the installed bins, and what their output must satisfy. */
  binChecks?: BinCheck[]
  /** Packages installed beside the tarballs although not peers (taken from devDependencies). */
  extraInstalls?: string[]
}

interface BinCheck {
  bin: string
  args: string[]
  /** Returns a problem, or undefined when the output is right. */
  check: (stdout: string) => string | undefined
}

const sdkTemplates = readdirSync(path.join(root, 'packages/sdk/templates'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort()

const specs: Record<string, PackageSpec> = {
  contracts: {
    allowed: (file) =>
      (/^contracts\/.+\.sol$/.test(file) && !file.startsWith('contracts/test/')) ||
      /^deployments\/[^/]+\.json$/.test(file) ||
      /^ignition\/parameters\/[^/]+$/.test(file),
    exports: {
      '.': ['getDeployment', 'deployments', 'DeploymentNotFoundError', 'taskMarketAbi', 'gridTokenAbi'],
      './ignition': ['gridforgeModule', 'localGridforgeModule', 'deployCore', 'defaultMarketParams'],
    },
  },
  sdk: {
    allowed: (file) => file.startsWith('templates/'),
    exports: {
      '.': ['gridforgeActions', 'submitTask', 'waitForTask', 'verifyReceipt', 'BaseError', 'getTask'],
      './storage': ['computeCid', 'fsStore', 'memoryStore', 'encodeJson', 'ContentNotFoundError'],
      './keystore': ['encryptKeystore', 'decryptKeystore', 'parseKeystore', 'KeystorePasswordError'],
      './results': ['deriveResultKey', 'sealOutput', 'openOutput', 'isSealedOutput', 'SealedOutputKeyError'],
    },
    binChecks: [
      {
        bin: 'gridforge',
        args: ['source', 'init', '--list', '--json'],
        check: (stdout) => {
          const names = (JSON.parse(stdout) as { name: string }[]).map((template) => template.name).sort()
          return names.join() === sdkTemplates.join()
            ? undefined
            : `source init --list shows [${names.join(', ')}], the workspace has [${sdkTemplates.join(', ')}]`
        },
      },
    ],
  },
  'provider-kit': {
    allowed: () => false,
    exports: {
      '.': ['startAgent', 'detectHost', 'runDoctor', 'loadConfig', 'dockerRuntime', 'processRuntime'],
    },
  },
  'react-hooks': {
    allowed: () => false,
    exports: {
      '.': ['useTask', 'useTasks', 'useSubmitTask', 'useReceipt', 'localAccount'],
      './query': ['getTaskQueryOptions', 'submitTaskMutationOptions', 'depositMutationOptions'],
    },
    extraInstalls: ['react-dom'],
  },
}

/** Why `file` must never be published, or undefined. Checked before the allowed set. */
function forbiddenReason(file: string): string | undefined {
  const base = path.posix.basename(file)
  const segments = file.split('/').slice(0, -1)
  if (file.startsWith('src/')) return 'TypeScript sources (the source maps carry them)'
  if (/\.(test|spec)\.[cm]?[jt]sx?(\.map)?$/.test(base) || /\.test-d\.ts$/.test(base)) return 'a test'
  const testDirectories = [
    'test',
    'tests',
    '__tests__',
    '__snapshots__',
    '__mocks__',
    'fixtures',
    '__fixtures__',
  ]
  const testDirectory = segments.find((segment) => testDirectories.includes(segment))
  if (testDirectory) return `in a ${testDirectory}/ folder`
  if (base.endsWith('.snap')) return 'a test snapshot'
  if (base.startsWith('.env')) return 'an environment file'
  if (base === '.npmrc' || base === '.yarnrc' || base === '.yarnrc.yml')
    return 'a package manager config (tokens)'
  if (/\.(pem|key|p12|pfx|crt|der|jks|keystore)$/i.test(base) || /^id_(rsa|dsa|ecdsa|ed25519)/.test(base)) {
    return 'a key or certificate'
  }
  // Ethereum keystores (geth names them UTC--<time>--<address>) and anything named like a key in JSON:
  // keystore.json (hardhat-keystore), deployer-key.json, privateKeys.json. No published file needs such a
  // name; the folder dist/keystore/ (the SDK's keystore module) does not match, only file names do.
  if (base.startsWith('UTC--') || (/key/i.test(base) && base.endsWith('.json'))) return 'a key file'
  if (segments.includes('node_modules')) return 'node_modules'
  if (segments.some((segment) => segment === '__pycache__' || segment === '.ipynb_checkpoints')) {
    return 'a Python or Jupyter cache'
  }
  if (base === '.DS_Store' || base.endsWith('.tsbuildinfo') || base.endsWith('.log'))
    return 'a build or OS leftover'
  if (file.startsWith('contracts/test/')) return 'a test contract'
  return undefined
}

/** Whether `file` is in dist/ and is JavaScript, a declaration or a source map. */
const isDistFile = (file: string) => /^dist\/.+\.(js|mjs|cjs|d\.ts|d\.mts|d\.cts|map)$/.test(file)

// ---------------------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------------------

interface RunResult {
  code: number
  stdout: string
  stderr: string
}

/** Runs a command without a shell; resolves with its exit code and output (never rejects on exit codes). */
function run(
  file: string,
  argv: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv },
): Promise<RunResult> {
  return new Promise((resolve) => {
    execFile(file, argv, { ...options, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0
      resolve({
        code,
        stdout,
        stderr: stderr || (error && typeof error.code !== 'number' ? error.message : ''),
      })
    })
  })
}

/** npm without the variables pnpm sets for its own scripts (npm would read them as its config). */
function npmEnvironment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(npm|pnpm)_/i.test(key)) continue
    env[key] = value
  }
  return env
}

interface TarEntry {
  path: string
  type: string
  data: Buffer
}

/** Reads the entries of a .tgz (ustar, with pax and GNU long names). */
function readTarball(file: string): TarEntry[] {
  const tar = gunzipSync(readFileSync(file))
  const entries: TarEntry[] = []
  const text = (start: number, length: number) => {
    const field = tar.subarray(start, start + length)
    const end = field.indexOf(0)
    return field.subarray(0, end === -1 ? length : end).toString('utf8')
  }
  let offset = 0
  let longName: string | undefined
  while (offset + 512 <= tar.length) {
    if (tar.subarray(offset, offset + 512).every((byte) => byte === 0)) break
    const size = Number.parseInt(text(offset + 124, 12).trim() || '0', 8)
    const type = text(offset + 156, 1) || '0'
    const prefix = text(offset + 257, 6).startsWith('ustar') ? text(offset + 345, 155) : ''
    const name = prefix ? `${prefix}/${text(offset, 100)}` : text(offset, 100)
    const data = tar.subarray(offset + 512, offset + 512 + size)
    offset += 512 + Math.ceil(size / 512) * 512
    if (type === 'x') {
      longName = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(data.toString('utf8'))?.[1] ?? longName
      continue
    }
    if (type === 'L') {
      longName = data.toString('utf8').replace(/\0+$/, '')
      continue
    }
    if (type === 'g') continue
    entries.push({ path: longName ?? name, type, data })
    longName = undefined
  }
  return entries
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`

function table(rows: string[][]): string {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => row[column]?.length ?? 0))) ?? []
  const line = (row: string[]) =>
    `| ${row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join(' | ')} |`
  return [
    line(rows[0] ?? []),
    `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`,
    ...rows.slice(1).map(line),
  ].join('\n')
}

// ---------------------------------------------------------------------------------------------------------
// 1. Pack and inspect
// ---------------------------------------------------------------------------------------------------------

interface PackageJson {
  name: string
  version: string
  private?: boolean
  main?: string
  types?: string
  bin?: string | Record<string, string>
  exports?: Record<string, string | Record<string, string>>
  dependencies?: Record<string, string>
  peerDependencies?: Record<string, string>
  optionalDependencies?: Record<string, string>
  devDependencies?: Record<string, string>
}

interface Packed {
  directory: string
  manifest: PackageJson
  spec: PackageSpec
  tarball: string
  size: number
  files: number
  problems: string[]
}

const dependencyFields = [
  'dependencies',
  'peerDependencies',
  'optionalDependencies',
  'devDependencies',
] as const

function binsOf(manifest: PackageJson): Record<string, string> {
  if (typeof manifest.bin === 'string') return { [manifest.name.replace(/^@[^/]+\//, '')]: manifest.bin }
  return manifest.bin ?? {}
}

/** The files `exports`, `main`, `types` and `bin` point to. */
function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

function referencedFiles(manifest: PackageJson): string[] {
  const targets: string[] = []
  const collect = (value: unknown) => {
    if (typeof value === 'string') targets.push(value)
    else if (value && typeof value === 'object') for (const nested of Object.values(value)) collect(nested)
  }
  collect(manifest.exports)
  collect(manifest.main)
  collect(manifest.types)
  collect(binsOf(manifest))
  return [...new Set(targets.map((target) => path.posix.normalize(target)))]
}

function inspect(packed: Omit<Packed, 'size' | 'files' | 'problems'>, versions: Map<string, string>): Packed {
  const problems: string[] = []
  const entries = readTarball(packed.tarball)
  const byPath = new Map<string, TarEntry>()
  for (const entry of entries) {
    if (!entry.path.startsWith('package/')) {
      problems.push(`${entry.path}: outside package/`)
      continue
    }
    byPath.set(entry.path.slice('package/'.length), entry)
  }

  // The bins are small launchers outside dist/ (bin/<name>.js importing ../dist/cli.js): they exist before the
  // first build, so a workspace install can link them. Only the files `bin` names are allowed there.
  const binFiles = new Set(
    Object.values(binsOf(packed.manifest)).map((target) => path.posix.normalize(target)),
  )
  for (const file of binFiles) {
    const entry = byPath.get(file)
    if (entry && !entry.data.toString('utf8').startsWith('#!/usr/bin/env node\n')) {
      problems.push(`${file}: a bin without the #!/usr/bin/env node line (npm links it as an executable)`)
    }
  }

  for (const [file, entry] of byPath) {
    if (entry.type !== '0') {
      problems.push(`${file}: not a regular file (tar type ${entry.type})`)
      continue
    }
    const forbidden = forbiddenReason(file)
    if (forbidden) {
      problems.push(`${file}: forbidden (${forbidden})`)
      continue
    }
    const allowed =
      ['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md'].includes(file) ||
      isDistFile(file) ||
      binFiles.has(file) ||
      packed.spec.allowed(file)
    if (!allowed) problems.push(`${file}: not in the allowed set`)
    if (/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(entry.data.toString('latin1'))) {
      problems.push(`${file}: contains a PEM private key`)
    }
  }

  for (const required of ['package.json', 'README.md', 'LICENSE']) {
    if (!byPath.has(required)) problems.push(`${required}: missing`)
  }
  for (const target of referencedFiles(packed.manifest)) {
    if (target.includes('*')) {
      // A subpath pattern (`./contracts/*`: the Solidity sources for Hardhat's npmFilesToBuild): it must match something.
      const pattern = new RegExp(`^${target.split('*').map(escapeRegExp).join('[^]+')}$`)
      if (![...byPath.keys()].some((file) => pattern.test(file)))
        problems.push(`${target}: a pattern in package.json exports that matches no file`)
    } else if (!byPath.has(target))
      problems.push(`${target}: named in package.json (exports, main, types or bin) but missing`)
  }

  // Source maps: every source must be in the map (sourcesContent) or in the tarball, and every
  // sourceMappingURL must point to a map that is shipped.
  for (const [file, entry] of byPath) {
    if (file.endsWith('.map')) {
      let map: { sources?: string[]; sourcesContent?: (string | null)[]; sourceRoot?: string }
      try {
        map = JSON.parse(entry.data.toString('utf8'))
      } catch {
        problems.push(`${file}: not valid JSON`)
        continue
      }
      const missing = (map.sources ?? []).filter((source, index) => {
        if (typeof map.sourcesContent?.[index] === 'string') return false
        const resolved = path.posix.normalize(
          path.posix.join(path.posix.dirname(file), map.sourceRoot ?? '', source),
        )
        return !byPath.has(resolved)
      })
      if (missing.length > 0) {
        problems.push(
          `${file}: not self-contained, no sourcesContent for ${missing.join(', ')} (not in the tarball)`,
        )
      }
    } else if (/\.(js|mjs|cjs|d\.ts|d\.mts|d\.cts)$/.test(file)) {
      const url = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(entry.data.toString('utf8'))?.[1]
      if (url && !url.startsWith('data:')) {
        const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(file), url))
        if (!byPath.has(resolved)) problems.push(`${file}: its sourceMappingURL ${url} is not in the tarball`)
      }
    }
  }

  // The packed package.json: every workspace: range rewritten to the sibling's version.
  const packedManifestEntry = byPath.get('package.json')
  if (packedManifestEntry) {
    const packedManifest = JSON.parse(packedManifestEntry.data.toString('utf8')) as PackageJson
    for (const field of dependencyFields) {
      for (const [name, range] of Object.entries(packedManifest[field] ?? {})) {
        if (/^(workspace|catalog|link|file|portal):/.test(range)) {
          problems.push(`package.json ${field}.${name}: "${range}" was not rewritten`)
          continue
        }
        const sibling = versions.get(name)
        if (sibling !== undefined && field !== 'devDependencies' && range.replace(/^[\^~]/, '') !== sibling) {
          problems.push(
            `package.json ${field}.${name}: "${range}" does not name the workspace version ${sibling}`,
          )
        }
      }
    }
  }

  const size = readFileSync(packed.tarball).length
  return { ...packed, size, files: byPath.size, problems }
}

// ---------------------------------------------------------------------------------------------------------
// 2. Install and use
// ---------------------------------------------------------------------------------------------------------

/** The peers (and extras) to install, at the exact versions the packages' devDependencies pin. */
function installSpecs(packed: Packed[], problems: string[]): string[] {
  const chosen = new Map<string, string>()
  const ours = new Set(packed.map(({ manifest }) => manifest.name))
  for (const { manifest, spec } of packed) {
    const names = [...Object.keys(manifest.peerDependencies ?? {}), ...(spec.extraInstalls ?? [])]
    for (const name of names) {
      if (ours.has(name)) continue
      const version = manifest.devDependencies?.[name]
      if (version === undefined || !/^\d+\.\d+\.\d+/.test(version)) {
        problems.push(
          `${manifest.name}: peer ${name} has no exact version in devDependencies (${version ?? 'none'})`,
        )
        continue
      }
      const previous = chosen.get(name)
      if (previous !== undefined && previous !== version) {
        problems.push(
          `${name}: ${previous} and ${version} are both pinned in devDependencies; tests disagree`,
        )
      }
      chosen.set(name, version)
    }
  }
  return [...chosen].sort(([a], [b]) => a.localeCompare(b)).map(([name, version]) => `${name}@${version}`)
}

const importScript = `
const checks = JSON.parse(process.argv[2])
const results = []
for (const { specifier, names } of checks) {
  try {
    const resolved = import.meta.resolve(specifier)
    const module = await import(specifier)
    results.push({ specifier, resolved, count: Object.keys(module).length, missing: names.filter((name) => !(name in module)) })
  } catch (error) {
    results.push({ specifier, error: String(error && error.stack ? error.stack : error).split('\\n').slice(0, 4).join('\\n') })
  }
}
console.log(JSON.stringify(results))
`

interface ImportResult {
  specifier: string
  resolved?: string
  count?: number
  missing?: string[]
  error?: string
}

// ---------------------------------------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------------------------------------

async function main(): Promise<number> {
  const started = performance.now()
  const timings: [string, number][] = []
  const generalProblems: string[] = []
  const work = await mkdtemp(path.join(tmpdir(), 'gridforge-packs-'))
  const packs = path.join(work, 'packs')
  await mkdir(packs)

  const directories = readdirSync(path.join(root, 'packages'), { withFileTypes: true })
    .filter(
      (entry) => entry.isDirectory() && existsSync(path.join(root, 'packages', entry.name, 'package.json')),
    )
    .map((entry) => entry.name)
    .sort()
  const manifests = new Map<string, PackageJson>()
  for (const directory of directories) {
    const manifest = JSON.parse(
      await readFile(path.join(root, 'packages', directory, 'package.json'), 'utf8'),
    ) as PackageJson
    if (!manifest.private) manifests.set(directory, manifest)
  }
  const versions = new Map([...manifests.values()].map((manifest) => [manifest.name, manifest.version]))

  // 1. Pack and inspect.
  let phase = performance.now()
  const packed: Packed[] = []
  for (const [directory, manifest] of manifests) {
    const spec = specs[directory]
    if (spec === undefined) {
      generalProblems.push(
        `packages/${directory} (${manifest.name}) is published but has no entry in scripts/check-packs.ts`,
      )
      continue
    }
    const cwd = path.join(root, 'packages', directory)
    if (!existsSync(path.join(cwd, 'dist'))) {
      generalProblems.push(`${manifest.name}: no dist/ (run pnpm build first)`)
      continue
    }
    for (const subpath of Object.keys(manifest.exports ?? {})) {
      // Pattern subpaths export files (Solidity sources), not modules: checked against the tarball instead.
      if (subpath !== './package.json' && !subpath.includes('*') && spec.exports[subpath] === undefined) {
        generalProblems.push(
          `${manifest.name}: exports ${subpath} has no import check in scripts/check-packs.ts`,
        )
      }
    }
    const destination = path.join(packs, directory)
    await mkdir(destination)
    const result = await run('pnpm', ['pack', '--json', '--pack-destination', destination], { cwd })
    const tarball = readdirSync(destination).find((file) => file.endsWith('.tgz'))
    if (result.code !== 0 || tarball === undefined) {
      generalProblems.push(
        `${manifest.name}: pnpm pack failed (exit ${result.code})\n${result.stderr || result.stdout}`,
      )
      continue
    }
    packed.push(inspect({ directory, manifest, spec, tarball: path.join(destination, tarball) }, versions))
  }
  timings.push(['pack and inspect', performance.now() - phase])

  // 2. Install into a fresh project, import every entry point, run every bin.
  const project = path.join(work, 'project')
  if (install && packed.length > 0) {
    phase = performance.now()
    await mkdir(project)
    const env = npmEnvironment()
    const peers = installSpecs(packed, generalProblems)
    let result = await run('npm', ['init', '-y'], { cwd: project, env })
    if (result.code === 0) {
      result = await run(
        'npm',
        [
          'install',
          ...packed.map(({ tarball }) => tarball),
          ...peers,
          '--save-exact',
          '--no-audit',
          '--no-fund',
          '--loglevel=error',
        ],
        { cwd: project, env },
      )
    }
    timings.push([`npm install (${packed.length} tarballs, ${peers.join(' ')})`, performance.now() - phase])
    if (result.code !== 0) {
      generalProblems.push(`npm install failed (exit ${result.code}):\n${result.stderr || result.stdout}`)
    } else {
      // Every @gridforge package must come from a tarball, never from the registry.
      const lock = JSON.parse(await readFile(path.join(project, 'package-lock.json'), 'utf8')) as {
        packages: Record<string, { version?: string; resolved?: string }>
      }
      for (const [location, entry] of Object.entries(lock.packages)) {
        const name = /node_modules\/(@gridforge\/[^/]+)$/.exec(location)?.[1]
        if (name === undefined) continue
        if (!entry.resolved?.startsWith('file:') || entry.version !== versions.get(name)) {
          generalProblems.push(`${location}: ${entry.version} from ${entry.resolved}, not the packed ${name}`)
        }
      }

      phase = performance.now()
      await writeFile(path.join(project, 'check-imports.mjs'), importScript)
      const checks = packed.flatMap(({ manifest, spec }) =>
        Object.entries(spec.exports).map(([subpath, names]) => ({
          specifier: subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`,
          names,
        })),
      )
      result = await run('node', ['check-imports.mjs', JSON.stringify(checks)], { cwd: project, env })
      const modules = realpathSync(path.join(project, 'node_modules'))
      let imports: ImportResult[] = []
      try {
        imports = JSON.parse(result.stdout.trim().split('\n').at(-1) ?? '[]')
      } catch {
        generalProblems.push(`importing the entry points failed (exit ${result.code}):\n${result.stderr}`)
      }
      for (const item of imports) {
        const owner = packed.find(
          ({ manifest }) =>
            item.specifier === manifest.name || item.specifier.startsWith(`${manifest.name}/`),
        )
        const problems = owner?.problems ?? generalProblems
        if (item.error) problems.push(`import '${item.specifier}' failed: ${item.error}`)
        else if (!fileURLToPath(item.resolved ?? '').startsWith(modules)) {
          problems.push(`import '${item.specifier}' resolved outside the fresh project: ${item.resolved}`)
        } else if (item.missing && item.missing.length > 0) {
          problems.push(`import '${item.specifier}' lacks ${item.missing.join(', ')} (${item.count} exports)`)
        }
      }
      timings.push([`import ${checks.length} entry points`, performance.now() - phase])

      phase = performance.now()
      let binRuns = 0
      for (const owner of packed) {
        const bins = Object.keys(binsOf(owner.manifest))
        const runs: BinCheck[] = [
          ...bins.map((bin) => ({
            bin,
            args: ['--version'],
            check: (stdout: string) =>
              stdout.trim() === owner.manifest.version
                ? undefined
                : `prints "${stdout.trim()}", not ${owner.manifest.version}`,
          })),
          ...(owner.spec.binChecks ?? []),
        ]
        for (const binCheck of runs) {
          binRuns++
          const command = `${binCheck.bin} ${binCheck.args.join(' ')}`
          const executable = path.join(project, 'node_modules', '.bin', binCheck.bin)
          if (!existsSync(executable)) {
            owner.problems.push(`${binCheck.bin}: not installed in node_modules/.bin`)
            continue
          }
          const output = await run(executable, binCheck.args, { cwd: project, env })
          let problem: string | undefined
          try {
            problem =
              output.code === 0
                ? binCheck.check(output.stdout)
                : `exit ${output.code}: ${output.stderr.trim()}`
          } catch (error) {
            problem = `unexpected output (${String(error)})`
          }
          if (problem) owner.problems.push(`${command}: ${problem}`)
        }
      }
      timings.push([`run ${binRuns} bin commands`, performance.now() - phase])
    }
  }

  // Report.
  const rows = [['package', 'tarball', 'files', 'result']]
  for (const { manifest, size, files, problems } of packed) {
    rows.push([
      manifest.name,
      kib(size),
      String(files),
      problems.length === 0 ? 'ok' : `FAIL (${problems.length})`,
    ])
  }
  console.log(`\n${table(rows)}\n`)
  for (const { manifest, problems } of packed) {
    if (problems.length === 0) continue
    console.log(`${manifest.name}:`)
    for (const problem of problems) console.log(`  - ${problem}`)
  }
  for (const problem of generalProblems) console.log(`- ${problem}`)
  timings.push(['total', performance.now() - started])
  for (const [name, ms] of timings) console.log(`${seconds(ms).padStart(8)}  ${name}`)

  const failed = generalProblems.length > 0 || packed.some(({ problems }) => problems.length > 0)
  if (failed || keep) console.log(`\nKept ${work} (tarballs in packs/, the fresh project in project/)`)
  else await rm(work, { recursive: true, force: true })
  if (!install) console.log('\n--no-install: the tarballs were not installed, imported or run')
  console.log(failed ? '\ncheck:packs failed' : '\ncheck:packs passed')
  return failed ? 1 : 0
}

process.exitCode = await main()
