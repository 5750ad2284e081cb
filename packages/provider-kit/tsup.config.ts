import { defineConfig } from 'tsup'

// The library is emitted module by module by `tsc -p tsconfig.build.json`;
// only the CLI is bundled here.
export default defineConfig([
  {
    entry: { cli: 'src/cli/index.ts' },
    format: ['esm'],
    target: 'node22',
    platform: 'node',
    sourcemap: true,
    banner: { js: '#!/usr/bin/env node' },
    // Runtime dependencies stay external: they are installed with the package.
    external: ['dockerode', 'systeminformation', 'viem', '@gridforge/sdk', '@gridforge/contracts'],
  },
])
