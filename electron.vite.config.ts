import { cpSync } from 'node:fs'
import { resolve } from 'node:path'
import { defineConfig } from 'electron-vite'
import react from '@vitejs/plugin-react'

// Migrations are read from disk next to the bundle (src/main/store/db.ts), so copy them there.
const copyMigrations = {
  name: 'sitecall-copy-migrations',
  closeBundle() {
    cpSync(resolve('src/main/store/migrations'), resolve('out/main/migrations'), {
      recursive: true,
    })
  },
}

export default defineConfig({
  main: {
    build: {
      externalizeDeps: true,
      rollupOptions: { input: { index: resolve('src/main/index.ts') } },
    },
    plugins: [copyMigrations],
  },
  preload: {
    build: {
      externalizeDeps: true,
      rollupOptions: {
        input: { index: resolve('src/preload/index.ts') },
        // A sandboxed preload cannot load ES modules: build it as CommonJS.
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve('src/renderer'),
    base: './',
    build: {
      outDir: resolve('out/renderer'),
      rollupOptions: { input: resolve('src/renderer/index.html') },
    },
    plugins: [react()],
  },
})
