import { defineConfig } from '@playwright/test'
import { chromiumArgs } from './src/main/recorder/chromium'

// Debian's Chromium, never a downloaded browser (these machines have no internet).
const executablePath = process.env.SITECALL_CHROMIUM ?? '/usr/bin/chromium'

export default defineConfig({
  testDir: 'test/e2e',
  outputDir: 'test-results/e2e',
  timeout: 90_000,
  workers: 1,
  // CI also writes the counts as JSON: .ci/run prints them as one closing line.
  reporter: process.env.CI
    ? [['list'], ['json', { outputFile: 'test-results/playwright.json' }]]
    : [['list']],
  use: {
    launchOptions: {
      executablePath,
      args: chromiumArgs(),
    },
  },
})
