import { defineConfig } from 'tsup'

export default defineConfig([
  {
    entry: { index: 'src/index.ts', storage: 'src/storage/index.ts' },
    format: ['esm'],
    target: 'es2022',
    platform: 'neutral',
    dts: true,
    clean: true,
    sourcemap: true,
    external: ['viem', 'node:fs', 'node:fs/promises', 'node:path', 'node:os', 'node:crypto', 'node:stream'],
  },
  {
    entry: { cli: 'src/cli/index.ts' },
    format: ['esm'],
    target: 'node22',
    platform: 'node',
    sourcemap: true,
    banner: { js: '#!/usr/bin/env node' },
  },
])
