import { readFile, stat, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pbkdf2Vector } from './keystoreVectors.js'
import { bareKey, ensureBuilt, newAccount, runCli, workspace } from './run.js'

const vector = pbkdf2Vector
const vectorKey = '7a28b5ba57c53603b0b07b56bba752f7784bf506fa95edc395f5cf6c7514fe9d'

describe('gridforge with a keystore', () => {
  let space: Awaited<ReturnType<typeof workspace>>
  let vectorFile: string

  beforeAll(async () => {
    ;[space] = await Promise.all([workspace(), ensureBuilt()])
    vectorFile = path.join(space.root, 'vector.json')
    await writeFile(vectorFile, JSON.stringify(vector))
  }, 180_000)
  afterAll(() => space.cleanup())

  it("signs with the definition's test vector, never printing its key", async () => {
    const { code, stdout, stderr } = await runCli(['--keystore', vectorFile, 'wallet', 'address'], {
      env: { GRIDFORGE_KEYSTORE_PASSWORD: 'testpassword' },
    })
    expect(code).toBe(0)
    expect(stdout.trim().toLowerCase()).toBe('0x008aeeda4d805471df9b2a5b0f38a0c3bcba786b')
    expect(`${stdout}${stderr}`).not.toContain(vectorKey)
  })

  it('refuses a wrong password with exit code 2', async () => {
    const { code, stderr } = await runCli(['--keystore', vectorFile, 'wallet', 'address'], {
      env: { GRIDFORGE_KEYSTORE_PASSWORD: 'not it' },
    })
    expect(code).toBe(2)
    expect(stderr).toContain('wrong keystore password')
  })

  it('does not prompt when stdin is not a terminal', async () => {
    const { code, stderr } = await runCli(['--keystore', vectorFile, 'wallet', 'address'], {
      stdin: 'testpassword\n',
    })
    expect(code).toBe(2)
    expect(stderr).toContain('the keystore password is needed but stdin is not a terminal')
    expect(stderr).toContain('GRIDFORGE_KEYSTORE_PASSWORD')
  })

  it('names what is wrong with a file that is not a keystore', async () => {
    const file = path.join(space.root, 'not-a-keystore.json')
    await writeFile(file, JSON.stringify({ version: 3, crypto: { cipher: 'aes-128-cbc' } }))
    const { code, stderr } = await runCli(['--keystore', file, 'wallet', 'address'], {
      env: { GRIDFORGE_KEYSTORE_PASSWORD: 'x' },
    })
    expect(code).toBe(2)
    expect(stderr).toContain('not a usable keystore: crypto.cipher')
  })

  it('creates a keystore from GRIDFORGE_PRIVATE_KEY and signs transactions with it', async () => {
    const { key, address } = await newAccount({ grid: '10' })
    const file = path.join(space.root, 'created.json')
    const created = await runCli(['wallet', 'keystore', 'create', '--out', file], {
      env: { GRIDFORGE_PRIVATE_KEY: key, GRIDFORGE_KEYSTORE_PASSWORD: 'correct horse' },
    })
    expect(created.code).toBe(0)
    expect(created.stdout).toContain(`wrote ${file} (address ${address})`)
    expect(`${created.stdout}${created.stderr}`.toLowerCase()).not.toContain(bareKey(key))
    expect((await stat(file)).mode & 0o777).toBe(0o600)
    const document = JSON.parse(await readFile(file, 'utf8'))
    expect(document.crypto.kdf).toBe('scrypt')
    expect(document.address).toBe(address.slice(2).toLowerCase())

    const deposit = await runCli([...space.globals, '--keystore', file, 'wallet', 'deposit', '2'], {
      env: { GRIDFORGE_KEYSTORE_PASSWORD: 'correct horse' },
    })
    expect(deposit.code).toBe(0)
    expect(deposit.stdout).toContain('deposited 2 GRID')
    expect(`${deposit.stdout}${deposit.stderr}`.toLowerCase()).not.toContain(bareKey(key))

    const again = await runCli(['wallet', 'keystore', 'create', '--out', file, '--generate'], {
      env: { GRIDFORGE_KEYSTORE_PASSWORD: 'x' },
    })
    expect(again.code).toBe(2)
    expect(again.stderr).toContain('exists: keystores are never overwritten')
  })

  it('creates a PBKDF2 keystore for a new key with --generate', async () => {
    const file = path.join(space.root, 'generated.json')
    const { code, stdout } = await runCli(
      ['--json', 'wallet', 'keystore', 'create', '--out', file, '--generate', '--kdf', 'pbkdf2'],
      { env: { GRIDFORGE_KEYSTORE_PASSWORD: 'pw' } },
    )
    expect(code).toBe(0)
    const { address } = JSON.parse(stdout)
    const opened = await runCli(['--keystore', file, 'wallet', 'address'], {
      env: { GRIDFORGE_KEYSTORE_PASSWORD: 'pw' },
    })
    expect(opened.stdout.trim()).toBe(address)
  })
})
