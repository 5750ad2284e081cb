/**
 * `pnpm network`: a local Gridforge network that stays up until Ctrl-C — a
 * chain with the contracts, a content store, two sources, a provider agent and
 * the indexer — for the `gridforge` CLI, your own scripts or the examples. Prints the
 * environment variables that point the CLI at it.
 */
import { describeLocalNetwork, startLocalNetwork } from './localNetwork.js'
import { preferredPort } from './ports.js'
import { bold, dim } from './print.js'

const log = (line: string) => console.log(dim(line))
const network = await startLocalNetwork({
  port: await preferredPort(8545, log),
  storePort: await preferredPort(5050, log),
  log,
  indexer: true,
})

let stopping = false
const stop = async () => {
  if (stopping) process.exit(1) // a second Ctrl-C: leave at once
  stopping = true
  console.log('\nStopping the local network…')
  await network.stop()
  process.exit(0)
}
process.on('SIGINT', () => void stop())
process.on('SIGTERM', () => void stop())

console.log(`
${bold('Gridforge local network')} (everything on 127.0.0.1)
${describeLocalNetwork(network)}

${bold('Point the gridforge CLI at it')} (in another terminal):
  export GRIDFORGE_RPC_URL=${network.rpcUrl}
  export GRIDFORGE_STORE=${network.storeUrl}
  export GRIDFORGE_PRIVATE_KEY=${network.devPrivateKey}
  export GRIDFORGE_INDEXER_URL=${network.indexerUrl}   # lists and statistics read the indexer
  export GRIDFORGE_IMAGE=${network.image}   # sources published with this image run on the local provider

Press Ctrl-C to stop it (the chain starts over on the next run).
`)
