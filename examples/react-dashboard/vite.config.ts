import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

// Only `VITE_GRIDFORGE_*` variables reach the page (see src/config.ts and the README).
export default defineConfig({
  plugins: [react()],
  envPrefix: 'VITE_GRIDFORGE_',
  server: { host: '127.0.0.1' },
  preview: { host: '127.0.0.1' },
})
