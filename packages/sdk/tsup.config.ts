import { defineConfig } from 'tsup'

// The library (dist/index.js, dist/storage/index.js, …) is emitted module by
// module by `tsc -p tsconfig.build.json`, so bundlers can drop every module an
// app does not import (`sideEffects: false`). Only the CLI is bundled here, with
// the private CLI toolkit (@gridforge/cli-kit) inside it: the published package
// does not depend on the toolkit.
export default defineConfig([
  {
    entry: { cli: 'src/cli/index.ts' },
    format: ['esm'],
    target: 'node22',
    platform: 'node',
    sourcemap: true,
    banner: { js: '#!/usr/bin/env node' },
    noExternal: ['@gridforge/cli-kit'],
  },
])
