/**
 * The dashboard end to end, through its UI only, in headless Chromium: a local
 * network (chain, store, provider agent running Docker containers), the app
 * built with Vite and served by `vite preview`, then connect → deposit →
 * upload, a quote, and submit → the task completing live → its page with the
 * verified receipt and the logs → the provider's page (record, earnings, GPUs)
 * → the network stats; then the same facts read from the chain with the SDK.
 * The network runs the indexer, as `pnpm dashboard` does: the lists, stats
 * and provider page read it. Screenshots land in test-results/.
 */
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { getDeployment } from '@gridforge/contracts'
import { probeDocker } from '@gridforge/provider-kit'
import {
  approveLeaseMarket,
  closeLease,
  getProviderSummary,
  getReceipt,
  getTask,
  requestLease,
} from '@gridforge/sdk'
import { computeCid, getBytes, kuboStore } from '@gridforge/sdk/storage'
import { type Browser, chromium, type Locator, type Page } from 'playwright-core'
import { createPublicClient, formatUnits, http, parseUnits } from 'viem'
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts'
import { hardhat } from 'viem/chains'
import { build, type PreviewServer, preview } from 'vite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type LocalNetwork, startLocalNetwork } from '../../../demo/localNetwork.js'

const exampleRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const resultsDir = path.join(exampleRoot, 'test-results')
const chromiumPath = '/usr/bin/chromium'
const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
]
const inputText = 'the quick brown fox jumps over the lazy dog and runs into the forest'
const expectedWords = inputText.split(' ').length

let network: LocalNetwork | undefined
let server: PreviewServer | undefined
let browser: Browser | undefined
let page: Page
let appUrl: string
let outDir: string | undefined
let taskId: string
let outputCid: string
const savedEnv = new Map<string, string | undefined>()

/** What the page and the network said, saved next to the screenshots when a step fails. */
const evidence = {
  console: [] as string[],
  consoleErrors: [] as string[],
  pageErrors: [] as string[],
  failedRequests: [] as string[],
  errorResponses: [] as string[],
  network: [] as string[],
}
const timings: [string, number][] = []
const screenshots: string[] = []
let failedStep: string | undefined

beforeAll(async () => {
  if (!existsSync(chromiumPath))
    throw new Error(
      `${chromiumPath} is missing: the end-to-end test drives Debian's Chromium. Run: bash scripts/chromium.sh`,
    )
  const engine = await probeDocker()
  if (!engine.reachable)
    throw new Error(
      `No Docker engine answers (${engine.error}): the provider runs tasks in containers. Run: bash scripts/docker.sh`,
    )
  await rm(resultsDir, { recursive: true, force: true })
  await mkdir(resultsDir, { recursive: true })

  network = await timed('start the local network', () =>
    startLocalNetwork({
      log: (line) => evidence.network.push(line),
      pollingInterval: 100,
      // Its own provider account: a `pnpm dev` network (account #2) may be running on the same Docker engine.
      providerPrivateKey: generatePrivateKey(),
      // As `pnpm dashboard`: the task list, stats and provider page read the indexer.
      indexer: true,
    }),
  )
  expect(network.runtime, 'the provider agent should run tasks in Docker containers').toBe('docker')
  expect(
    network.deployment.contracts,
    'the devnet must deploy to the addresses the dashboard knows for 31337 (getDeployment(31337)); rebuild @gridforge/contracts',
  ).toEqual(getDeployment(31337).contracts)

  // Vite bakes `VITE_GRIDFORGE_*` variables of its environment into the build (src/config.ts).
  setEnv({
    VITE_GRIDFORGE_RPC_URL: network.rpcUrl,
    VITE_GRIDFORGE_CHAIN_ID: String(network.chainId),
    VITE_GRIDFORGE_STORE_URL: network.storeUrl,
    VITE_GRIDFORGE_DEV_PRIVATE_KEY: network.devPrivateKey,
    VITE_GRIDFORGE_INDEXER_URL: network.indexerUrl ?? '',
    // vitest sets NODE_ENV=test, which would give a development build of React.
    NODE_ENV: 'production',
  })
  outDir = await mkdtemp(path.join(tmpdir(), 'gridforge-dashboard-build-'))
  const buildDir = outDir
  await timed('build the app (vite build)', () =>
    build({ root: exampleRoot, logLevel: 'error', build: { outDir: buildDir, emptyOutDir: true } }),
  )
  restoreEnv('NODE_ENV')
  server = await preview({
    root: exampleRoot,
    logLevel: 'warn',
    build: { outDir: buildDir },
    preview: { host: '127.0.0.1', port: 0, strictPort: true, open: false },
  })
  const url = server.resolvedUrls?.local[0]
  if (url === undefined) throw new Error('vite preview did not report its URL')
  appUrl = url

  browser = await timed('launch Chromium', () =>
    chromium.launch({ executablePath: chromiumPath, args: chromiumArgs, headless: true }),
  )
  page = await browser.newPage({ viewport: { width: 1360, height: 900 } })
  page.setDefaultTimeout(30_000)
  page.on('console', (message) => {
    const line = `[${message.type()}] ${message.text()}`
    evidence.console.push(line)
    if (message.type() === 'error') evidence.consoleErrors.push(line)
  })
  page.on('pageerror', (error) => {
    evidence.pageErrors.push(error.stack ?? error.message)
    evidence.console.push(`[pageerror] ${error.message}`)
  })
  page.on('response', (response) => {
    if (response.status() < 400) return
    const line = `${response.status()} ${response.request().method()} ${response.url()}`
    evidence.errorResponses.push(line)
    evidence.console.push(`[response] ${line}`)
  })
  page.on('requestfailed', (request) =>
    evidence.failedRequests.push(
      `${request.method()} ${request.url()}: ${request.failure()?.errorText ?? 'failed'}`,
    ),
  )
})

afterAll(async () => {
  await browser?.close().catch(() => {})
  await server?.close().catch(() => {})
  await network?.stop()
  if (outDir !== undefined) await rm(outDir, { recursive: true, force: true })
  for (const key of [...savedEnv.keys()]) restoreEnv(key)
  console.log(
    [
      'dashboard e2e timings:',
      ...timings.map(([name, ms]) => `  ${name.padEnd(44)} ${(ms / 1000).toFixed(1)} s`),
      ...(screenshots.length > 0 ? ['screenshots:', ...screenshots.map((file) => `  ${file}`)] : []),
      ...(evidence.consoleErrors.length > 0 ? ['console errors:', ...evidence.consoleErrors] : []),
      ...(evidence.failedRequests.length > 0 ? ['failed requests:', ...evidence.failedRequests] : []),
      ...(evidence.errorResponses.length > 0 ? ['error responses:', ...evidence.errorResponses] : []),
    ].join('\n'),
  )
})

describe('dashboard (headless Chromium)', () => {
  it('connects the development account', () =>
    step('connect', async () => {
      await page.goto(`${appUrl}#/`)
      // Set once: still there at the end, it shows the page was never reloaded.
      await page.evaluate(() => {
        ;(window as unknown as { gridforgeE2e: boolean }).gridforgeE2e = true
      })
      await page.getByTestId('connect-dev').click()
      const address = privateKeyToAddress(live().devPrivateKey)
      await waitForText(
        page.getByTestId('account-address'),
        (text) => text === address,
        'the connected address',
      )
    }))

  it('deposits 50 GRID into the market', () =>
    step('deposit', async () => {
      const balance = page.getByTestId('wallet-balance')
      const before = await waitForText(balance, (text) => text.endsWith(' GRID'), 'the market balance')
      const expected = `${formatUnits(parseUnits(before.replace(' GRID', ''), 18) + parseUnits('50', 18), 18)} GRID`
      await page.getByTestId('deposit-amount').fill('50')
      await page.getByTestId('deposit-submit').click()
      await waitForText(balance, (text) => text === expected, `the market balance to become ${expected}`)
    }))

  it('uploads an input and submits a word-count task', () =>
    step('submit', async () => {
      const sourceId = String(live().sourceIds.wordCount)
      const select = page.getByTestId('submit-source')
      await select.locator(`option[value="${sourceId}"]`).waitFor({ state: 'attached' })
      // Both sources are offered: the word count and the SHA-256.
      expect(await select.locator('option').count()).toBeGreaterThanOrEqual(2)
      await select.selectOption(sourceId)
      expect(await select.inputValue()).toBe(sourceId)

      const bytes = new TextEncoder().encode(inputText)
      await page
        .getByTestId('submit-input-file')
        .setInputFiles({ name: 'input.txt', mimeType: 'text/plain', buffer: Buffer.from(bytes) })
      const cid = await computeCid(bytes)
      await waitForText(page.getByTestId('submit-input-cid'), (text) => text === cid, `the input CID ${cid}`)

      await page.getByTestId('submit-max-payment').fill('2')
      await page.getByTestId('submit-replicas').fill('1')
      await page.getByTestId('submit-deadline').fill('1h')
      // Before anything is sent: the network's one provider could take it at this price.
      await waitForText(
        page.getByTestId('submit-quote-eligible'),
        (text) => text === '1',
        'a quote with 1 eligible provider',
      )
      expect(await page.getByTestId('submit-quote').textContent()).toMatch(
        /1 of 1 providers could take it now/,
      )
      await screenshot('dashboard-quote.png')
      await page.getByTestId('submit-task').click()
      const result = await waitForText(
        page.getByTestId('submit-result'),
        (text) => /Task \d+/.test(text),
        'the submitted task',
      )
      taskId = /Task (\d+)/.exec(result)?.[1] as string
      const href = await page.getByTestId('submit-result').locator('a').getAttribute('href')
      expect(href).toBe(`#/tasks/${taskId}`)
    }))

  it('shows the task reaching Completed in the task list, live', () =>
    step('task list', async () => {
      const row = page.getByTestId('task-list').getByTestId(`task-row-${taskId}`)
      await row.waitFor()
      await waitForText(
        page.getByTestId(`task-status-${taskId}`),
        (text) => text === 'Completed',
        `task ${taskId} to be Completed in the list`,
        120_000,
      )
      await expectNoReload()
    }))

  it('shows the task page: status, verified receipt, output and logs', () =>
    step('task page', async () => {
      await page.getByTestId(`task-row-${taskId}`).click()
      await page.getByTestId('task-page').waitFor()
      expect(page.url()).toBe(`${appUrl}#/tasks/${taskId}`)
      await waitForText(page.getByTestId('task-status'), (text) => text === 'Completed', 'the task status')
      await waitForText(
        page.getByTestId('receipt-status'),
        (text) => text === 'verified',
        'a verified receipt',
      )
      await waitForText(page.getByTestId('task-logs'), (text) => text.includes('counted'), 'the logs')
      outputCid = await waitForText(
        page.getByTestId('task-output-cid'),
        (text) => text !== '',
        'the output CID',
      )
      await waitForText(
        page.getByTestId('receipt-provider'),
        (text) => text.toLowerCase() === live().providerAddress.toLowerCase(),
        'the provider',
      )
      await screenshot('dashboard-task.png')
      await expectNoReload()
    }))

  it("shows the provider's page: its record, earnings and GPUs, as the chain has them", () =>
    step('provider page', async () => {
      const { rpcUrl, deployment, providerAddress } = live()
      const client = createPublicClient({ chain: hardhat, transport: http(rpcUrl) })
      const chain = await getProviderSummary(client, { deployment, provider: providerAddress })
      expect(chain.record.completed).toBeGreaterThanOrEqual(1)
      expect(chain.earnings.earned).toBeGreaterThan(0n)
      // From the receipt's provider, through the UI.
      await page.getByTestId('receipt-provider').click()
      await page.getByTestId('provider-page').waitFor()
      expect(page.url().toLowerCase()).toBe(`${appUrl}#/providers/${providerAddress}`.toLowerCase())
      await waitForText(
        page.getByTestId('provider-completed'),
        (text) => text === String(chain.record.completed),
        `${chain.record.completed} completed`,
      )
      await waitForText(
        page.getByTestId('provider-earned'),
        (text) => text === `${formatUnits(chain.earnings.earned, 18)} GRID`,
        'the earnings the chain counts (payments − fees)',
      )
      const { gpuCount, vramMiB, computeCapability } = chain.capabilities
      const gpus = await waitForText(page.getByTestId('provider-gpus'), (text) => text !== '', 'the GPUs')
      if (gpuCount === 0) expect(gpus).toBe('none (CPU only)')
      else {
        expect(await page.getByTestId('provider-gpu-count').textContent()).toBe(String(gpuCount))
        expect(gpus).toContain(
          `compute capability ${Math.floor(computeCapability / 10)}.${computeCapability % 10}`,
        )
        expect(gpus).toContain(vramMiB % 1024 === 0 ? `${vramMiB / 1024} GiB` : `${vramMiB} MiB`)
      }
      await screenshot('dashboard-provider.png')
      await expectNoReload()
    }))

  it('counts the payment in the network stats', () =>
    step('stats', async () => {
      await page.getByRole('link', { name: 'Overview' }).first().click()
      await waitForText(
        page.getByTestId('stat-total-paid'),
        (text) => /^\d/.test(text) && parseUnits(text.replace(' GRID', ''), 18) > 0n,
        'a total paid above 0',
      )
      await waitForText(page.getByTestId(`task-status-${taskId}`), (text) => text === 'Completed', 'the row')
      await screenshot('dashboard-overview.png')
      await expectNoReload()
    }))

  it('agrees with the chain (SDK)', () =>
    step('chain', async () => {
      const { rpcUrl, deployment, storeUrl } = live()
      const client = createPublicClient({ chain: hardhat, transport: http(rpcUrl) })
      const store = kuboStore({ url: storeUrl })
      const task = await getTask(client, { deployment, taskId: BigInt(taskId) })
      expect(task.status).toBe('Completed')
      expect(task.client).toBe(privateKeyToAddress(live().devPrivateKey))
      expect(task.sourceId).toBe(live().sourceIds.wordCount)
      const receipts = await getReceipt(client, { deployment, taskId: BigInt(taskId), store })
      expect(receipts.map((receipt) => receipt.status)).toEqual(['verified'])
      expect(receipts[0]?.receipt?.outputCID).toBe(outputCid)
      const words = new TextDecoder().decode(await getBytes(store, outputCid, { path: 'words' }))
      expect(words.trim()).toBe(String(expectedWords))
    }))

  it('deposits what the market balance lacks in the same step as a submission', () =>
    step('deposit and submit', async () => {
      await page.goto(`${appUrl}#/`)
      const grid = (testId: string, what: string) =>
        waitForText(page.getByTestId(testId), (text) => text.endsWith(' GRID'), what).then((text) =>
          parseUnits(text.replace(' GRID', ''), 18),
        )
      const balance = await grid('wallet-balance', 'the market balance')
      expect(await grid('wallet-token', 'the account’s GRID')).toBeGreaterThanOrEqual(parseUnits('2', 18))
      // Two replicas at (balance + 2) / 2 each (rounded up): an escrow about 2 GRID above the market balance.
      const maxPayment = formatUnits((balance + parseUnits('2', 18) + 1n) / 2n, 18)
      const select = page.getByTestId('submit-source')
      await select.locator(`option[value="${live().sourceIds.wordCount}"]`).waitFor({ state: 'attached' })
      await select.selectOption(String(live().sourceIds.wordCount))
      const bytes = new TextEncoder().encode(`${inputText} again`)
      await page
        .getByTestId('submit-input-file')
        .setInputFiles({ name: 'input.txt', mimeType: 'text/plain', buffer: Buffer.from(bytes) })
      const cid = await computeCid(bytes)
      await waitForText(page.getByTestId('submit-input-cid'), (text) => text === cid, `the input CID ${cid}`)
      await page.getByTestId('submit-max-payment').fill(maxPayment)
      await page.getByTestId('submit-replicas').fill('2')
      const plan = await waitForText(
        page.getByTestId('submit-escrow'),
        (text) => /submitting deposits 2(\.0*1)? GRID from your account first/.test(text),
        'the escrow plan: a deposit of 2 GRID',
      )
      const shortfall = /submitting deposits (\S+ GRID)/.exec(plan)?.[1]
      expect(await page.getByTestId('submit-task').textContent()).toBe(`Deposit ${shortfall} and submit`)
      await page.getByTestId('submit-task').click()
      await waitForText(
        page.getByTestId('submit-result'),
        (text) => /Task \d+/.test(text) && !text.includes(`Task ${taskId} `),
        'the second submitted task',
      )
      await waitForText(
        page.getByTestId('wallet-balance'),
        (text) => text === '0 GRID',
        'the market balance spent',
      )
    }))

  it("shows a lease of the network's web page source: accepted by the agent, on its provider's page, its cost meter, uptime, access URL and, once closed, why it ended", () =>
    step('lease', async () => {
      const { deployment, sourceIds, providers } = live()
      const renter = live().wallet(live().devPrivateKey)
      const gateway = providers[0]?.agent.leaseGateway
      expect(gateway, "the provider agent's lease gateway").toBeDefined()
      await approveLeaseMarket(renter, { deployment, amount: '5' })
      const { leaseId } = await requestLease(renter, {
        deployment,
        sourceId: sourceIds.webPage,
        maxPricePerSec: '0.001',
        duration: '1h',
        deposit: '5',
      })
      await page.goto(`${appUrl}#/leases/${leaseId}`)
      // The local provider's agent leases the web page source out: it accepts and starts the container.
      await waitForText(
        page.getByTestId('lease-status'),
        (text) => text === 'Active',
        'the lease accepted, live',
      )
      await waitForText(
        page.getByTestId('lease-provider'),
        (text) => text === providers[0]?.address,
        'the local provider serving it',
      )
      // The provider's page lists it among the leases it serves now, linking back, and counts it.
      await page.getByTestId('lease-provider').click()
      await page.getByTestId(`provider-lease-${leaseId}`).waitFor()
      await waitForText(
        page.getByTestId('provider-leases'),
        (text) => /^\d+ accepted, earned /.test(text),
        'the leases it accepted',
      )
      await page.getByTestId(`provider-lease-${leaseId}`).getByRole('link').click()
      await page.getByTestId('lease-status').waitFor()
      // The meter runs with the chain's blocks (each transaction mines one here).
      await approveLeaseMarket(renter, { deployment, amount: '5' })
      await waitForText(
        page.getByTestId('lease-accrued'),
        (text) => parseUnits(text.split(' GRID')[0] ?? '0', 18) > 0n,
        'the cost meter running',
      )
      await waitForText(
        page.getByTestId('lease-uptime'),
        (text) => text.startsWith('0.0 %'),
        'no usage acknowledged',
      )
      // What renters are told: the gateway's public host (a browser resolves <id>.localhost to this host).
      await page.getByLabel("Provider's lease gateway").fill(`http://${gateway?.publicHost}`)
      await waitForText(
        page.getByTestId('lease-url'),
        (text) => text === `http://${leaseId}.${gateway?.publicHost}/`,
        'the access URL on the gateway',
      )
      await closeLease(renter, { deployment, leaseId })
      await waitForText(
        page.getByTestId('lease-reason'),
        (text) => text.includes('closed by the renter'),
        'the end reason, live',
      )
      await screenshot('dashboard-lease.png')
    }))

  it('raised no uncaught error in the page', () => {
    expect(evidence.pageErrors).toEqual([])
  })
})

/** The network, once started (beforeAll failed otherwise). */
function live(): LocalNetwork {
  if (network === undefined) throw new Error('the local network did not start')
  return network
}

/** Runs one step of the flow; on failure saves a screenshot and the page's console, and names them. */
async function step(name: string, run: () => Promise<void>): Promise<void> {
  if (failedStep !== undefined) throw new Error(`not run: the step "${failedStep}" failed before it`)
  try {
    await timed(`step: ${name}`, run)
  } catch (error) {
    failedStep = name
    const saved: string[] = []
    const slug = name.replace(/\W+/g, '-')
    const image = path.join(resultsDir, `dashboard-failure-${slug}.png`)
    if (
      await page?.screenshot({ path: image, fullPage: true }).then(
        () => true,
        () => false,
      )
    )
      saved.push(image)
    const log = path.join(resultsDir, 'dashboard-console.log')
    await writeFile(
      log,
      [
        `step "${name}" failed: ${error instanceof Error ? error.message : String(error)}`,
        `page: ${page?.url()}`,
        '',
        '## page console',
        ...evidence.console,
        '',
        '## failed requests',
        ...evidence.failedRequests,
        '',
        '## page errors',
        ...evidence.pageErrors,
        '',
        '## local network',
        ...evidence.network,
      ].join('\n'),
    )
    saved.push(log)
    const alerts = await pageAlerts()
    const message = error instanceof Error ? error.message : String(error)
    throw new Error(
      [
        `step "${name}" failed: ${message}`,
        ...(alerts.length > 0 ? ['alerts in the page:', ...alerts.map((text) => `  ${text}`)] : []),
        ...(evidence.pageErrors.length > 0 ? ['page errors:', ...evidence.pageErrors] : []),
        `saved: ${saved.join(', ')}`,
      ].join('\n'),
      { cause: error },
    )
  }
}

/** Polls a locator's text until `accept` holds; returns the text. */
async function waitForText(
  locator: Locator,
  accept: (text: string) => boolean,
  what: string,
  timeoutMs = 60_000,
): Promise<string> {
  const started = Date.now()
  let last: string | undefined
  while (Date.now() - started < timeoutMs) {
    last = await locator
      .textContent({ timeout: 1_000 })
      .then((text) => text?.trim())
      .catch(() => undefined)
    if (last !== undefined && accept(last)) return last
    await new Promise((resolve) => setTimeout(resolve, 150))
  }
  throw new Error(
    `timed out after ${timeoutMs / 1000} s waiting for ${what} (${locator}); last text: ${last === undefined ? 'no such element' : JSON.stringify(last)}`,
  )
}

/** The text of every `role="alert"` element shown (the forms' errors). */
async function pageAlerts(): Promise<string[]> {
  if (page === undefined) return []
  const texts = await page
    .getByRole('alert')
    .allTextContents()
    .catch(() => [])
  return texts.map((text) => text.trim()).filter((text) => text !== '')
}

async function expectNoReload() {
  const marked = await page.evaluate(() => (window as unknown as { gridforgeE2e?: boolean }).gridforgeE2e)
  expect(marked, 'the page was reloaded').toBe(true)
}

async function screenshot(name: string) {
  const file = path.join(resultsDir, name)
  await page.screenshot({ path: file, fullPage: true })
  screenshots.push(file)
}

async function timed<T>(name: string, run: () => Promise<T>): Promise<T> {
  const started = performance.now()
  try {
    return await run()
  } finally {
    timings.push([name, performance.now() - started])
  }
}

function setEnv(values: Record<string, string>) {
  for (const [key, value] of Object.entries(values)) {
    if (!savedEnv.has(key)) savedEnv.set(key, process.env[key])
    process.env[key] = value
  }
}

function restoreEnv(key: string) {
  if (!savedEnv.has(key)) return
  const value = savedEnv.get(key)
  if (value === undefined) delete process.env[key]
  else process.env[key] = value
  savedEnv.delete(key)
}
