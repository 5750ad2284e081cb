/**
 * `pnpm --filter @gridforge/example-react-dashboard dev`: the local network
 * (demo/localNetwork.ts: chain on 8545, store on 5050, sources, a provider
 * agent, the indexer, a funded development account) and the dashboard's Vite
 * dev server pointed at it. Ctrl-C stops everything.
 */
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { createServer } from 'vite'
import { describeLocalNetwork, startLocalNetwork } from '../../../demo/localNetwork.js'
import { preferredPort } from '../../../demo/ports.js'

const exampleRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const bold = (text: string) => `\u001b[1m${text}\u001b[22m`
const dim = (text: string) => `\u001b[2m${text}\u001b[22m`

const chainPort = await preferredPort(8545, (line) => console.log(dim(line)))
const storePort = await preferredPort(5050, (line) => console.log(dim(line)))
// With the indexer: the task list, sources and statistics read its REST API (the chain when it is down).
const network = await startLocalNetwork({
  port: chainPort,
  storePort,
  log: (line) => console.log(dim(line)),
  indexer: true,
})

let vite: Awaited<ReturnType<typeof createServer>> | undefined
let stopping = false
const shutdown = async (code: number) => {
  if (stopping) return
  stopping = true
  console.log('\nStopping the dashboard and the local network…')
  await vite?.close().catch((error: unknown) => console.error(error))
  await network.stop().catch((error: unknown) => console.error(error))
  process.exit(code)
}
process.once('SIGINT', () => void shutdown(0))
process.once('SIGTERM', () => void shutdown(0))

try {
  // Vite hands `VITE_GRIDFORGE_*` variables of its own environment to the page (src/config.ts).
  Object.assign(process.env, {
    VITE_GRIDFORGE_RPC_URL: network.rpcUrl,
    VITE_GRIDFORGE_CHAIN_ID: String(network.chainId),
    VITE_GRIDFORGE_STORE_URL: network.storeUrl,
    VITE_GRIDFORGE_DEV_PRIVATE_KEY: network.devPrivateKey,
    VITE_GRIDFORGE_INDEXER_URL: network.indexerUrl,
  })
  vite = await createServer({ root: exampleRoot, server: { host: '127.0.0.1' } })
  await vite.listen()
} catch (error) {
  console.error(error)
  await shutdown(1)
}

if (vite !== undefined) printSummary(vite)

function printSummary(server: NonNullable<typeof vite>) {
  console.log(`
${bold('Gridforge local network')}
${describeLocalNetwork(network)}
`)
  server.printUrls()
  console.log(`
${bold('MetaMask')} (optional: "Use development account" needs no wallet)
  Settings → Networks → Add a network manually:
    Network name  Gridforge local
    RPC URL       ${network.rpcUrl}
    Chain ID      ${network.chainId}
    Currency      ETH
  Then import Hardhat account #1 with its private key (a well-known development key, never use it elsewhere):
    ${network.devPrivateKey}
  After each restart the chain starts over: in MetaMask, Settings → Advanced → Clear activity tab data.

Press Ctrl-C to stop everything.
`)
}
