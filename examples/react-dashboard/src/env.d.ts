/** The dashboard's build-time settings (see the README); every one is optional. */
interface ImportMetaEnv {
  /** JSON-RPC URL of the chain (default `http://127.0.0.1:8545`). */
  readonly VITE_GRIDFORGE_RPC_URL?: string
  /** Chain id (default 31337, the local Hardhat chain). */
  readonly VITE_GRIDFORGE_CHAIN_ID?: string
  /** Name shown for the chain (default: `Hardhat` on 31337, otherwise `Chain <id>`). */
  readonly VITE_GRIDFORGE_CHAIN_NAME?: string
  /** Kubo RPC URL of the content store, for uploads and reads (default `http://127.0.0.1:5050`). */
  readonly VITE_GRIDFORGE_STORE_URL?: string
  /** URL of a Gridforge indexer that lists and statistics read (default: none, the chain's logs). */
  readonly VITE_GRIDFORGE_INDEXER_URL?: string
  /** Private key of the development account (default on 31337 only: Hardhat account #1). */
  readonly VITE_GRIDFORGE_DEV_PRIVATE_KEY?: string
}

interface ImportMeta {
  readonly env: ImportMetaEnv
}
