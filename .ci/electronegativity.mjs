// Runs @doyensec/electronegativity over src/ (main process, preload, renderer) and fails on any
// finding that .ci/electronegativity-accepted.json does not list with its reason (issue 13
// item 7). It works offline: its "No connectivity?" line is about Electron's release list only,
// and -e names the Electron version of package.json instead.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const root = new URL('..', import.meta.url).pathname
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
const { accepted } = JSON.parse(
  readFileSync(join(root, '.ci/electronegativity-accepted.json'), 'utf8'),
)
const dir = mkdtempSync(join(tmpdir(), 'electronegativity-'))
let results
try {
  const out = join(dir, 'findings.sarif')
  execFileSync(
    join(root, 'node_modules/.bin/electronegativity'),
    ['-i', join(root, 'src'), '-e', pkg.devDependencies.electron, '-r', '-o', out],
    { stdio: 'ignore' },
  )
  results = JSON.parse(readFileSync(out, 'utf8')).runs[0].results
} finally {
  rmSync(dir, { recursive: true, force: true })
}
const findings = results.map((r) => {
  const where = r.locations?.[0]?.physicalLocation
  const uri = where?.artifactLocation?.uri ?? ''
  return {
    check: r.ruleId,
    file: uri.startsWith('file:') ? 'N/A' : uri,
    line: where?.region?.startLine,
  }
})
const open = findings.filter((f) => !accepted.some((a) => a.check === f.check && a.file === f.file))
for (const f of findings)
  console.log(`${open.includes(f) ? 'OPEN    ' : 'accepted'} ${f.check} ${f.file}:${f.line}`)
if (open.length) {
  console.error(
    `electronegativity: ${open.length} finding(s) without a reason in .ci/electronegativity-accepted.json`,
  )
  process.exit(1)
}
console.log(`electronegativity: ${findings.length} finding(s), each with its reason`)
