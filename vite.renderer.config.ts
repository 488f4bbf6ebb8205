import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

const here = dirname(fileURLToPath(import.meta.url))

/** The web UI of headless mode, served by the local server under `/app/`. */
export default defineConfig({
  root: resolve(here, 'src/renderer'),
  base: '/app/',
  build: { outDir: resolve(here, 'out/renderer'), emptyOutDir: true },
  plugins: [react()],
})
