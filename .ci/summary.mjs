// Prints the whole test run as one closing line, "tests: N passed, M failed", from the JSON
// reports vitest and Playwright write under CI (vitest.config.ts, playwright.config.ts).
import { existsSync, readFileSync } from 'node:fs'

const read = (path) => (existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : null)
let passed = 0
let failed = 0
const vitest = read('test-results/vitest.json')
if (vitest) {
  passed += vitest.numPassedTests
  failed += vitest.numFailedTests
  // A file can fail outside its tests (a hook, an import): count it, or the line would say 0.
  if (!vitest.success && !vitest.numFailedTests) failed += Math.max(1, vitest.numFailedTestSuites)
}
const playwright = read('test-results/playwright.json')
if (playwright) {
  passed += playwright.stats.expected + playwright.stats.flaky
  failed += playwright.stats.unexpected
}
if (vitest || playwright) console.log(`tests: ${passed} passed, ${failed} failed`)
