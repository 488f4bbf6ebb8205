import { cpSync } from 'node:fs'
import { resolve } from 'node:path'
import { defineConfig } from 'electron-vite'
import react from '@vitejs/plugin-react'
import { RENDERER_CSP } from './src/main/api/uiSecurity'

// Migrations are read from disk next to the bundle (src/main/store/db.ts), so copy them there.
const copyMigrations = {
  name: 'sitecall-copy-migrations',
  closeBundle() {
    cpSync(resolve('src/main/store/migrations'), resolve('out/main/migrations'), {
      recursive: true,
    })
  },
}

// The built window loads from file://, where no response headers exist: its CSP is a <meta>
// (issue 13 item 7). Build only: the dev server's React preamble is an inline script.
const rendererCsp = {
  name: 'sitecall-renderer-csp',
  apply: 'build' as const,
  transformIndexHtml: (html: string) =>
    html.replace(
      '<head>',
      `<head>\n    <meta http-equiv="Content-Security-Policy" content="${RENDERER_CSP}" />`,
    ),
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
    plugins: [react(), rendererCsp],
  },
})
