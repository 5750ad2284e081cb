import { defineConfig } from 'tsup'

export default defineConfig({
  entry: ['src/index.ts', 'src/ignition.ts'],
  format: ['esm'],
  target: 'es2022',
  platform: 'neutral',
  dts: true,
  clean: true,
  sourcemap: true,
  // Ignition is the user's own (the modules must be built by the same
  // ignition-core the user's Hardhat deploys with), and viem is a peer.
  external: ['@nomicfoundation/ignition-core', 'viem'],
})
