import { defineConfig } from 'tsup'

// The library is emitted module by module by `tsc -p tsconfig.build.json`;
// only the CLI is bundled here, with the private CLI toolkit (@gridforge/cli-kit)
// inside it: the published package does not depend on the toolkit.
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
    noExternal: ['@gridforge/cli-kit'],
  },
])
