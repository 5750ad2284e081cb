#!/usr/bin/env node
// The `gridforge-provider` bin: the CLI is the bundle built from src/cli/index.ts. This file sits outside dist/
// so that it exists before the first build: a workspace install links every bin, and a bin pointing into a
// dist/ that is not built yet makes pnpm warn ("Failed to create bin") and leaves the link out.
import '../dist/cli.js'
