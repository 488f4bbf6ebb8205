import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    // A fixture's own test lives beside it (test/fixtures/sites/directory).
    include: [
      'test/unit/**/*.test.ts',
      'test/integration/**/*.test.ts',
      'test/fixtures/**/*.test.ts',
    ],
    // A timeout catches a hang, not slowness: under CI's load a test that drives Chromium
    // several times (index jobs, the CLI) takes twice what it takes alone, and one took 30 s.
    testTimeout: 90_000,
    hookTimeout: 60_000,
    // Chromium and native SQLite are heavy on 2 cores: keep parallel files modest.
    maxWorkers: 2,
    // CI also writes the counts as JSON: .ci/run prints them as one closing line.
    reporters: process.env.CI
      ? ['default', ['json', { outputFile: 'test-results/vitest.json' }]]
      : ['default'],
  },
})
