// The SDK's set-up (one Hardhat node with Gridforge deployed, provided as `devnet`), so the SDK's test
// helpers (`../../sdk/test/chain.js`, `fixtures.js`) work here unchanged. Re-exported rather than named in
// vitest.config.ts so that its `ProvidedContext` typing is part of this package's program too.
export { default } from '../../sdk/test/globalSetup.js'
