import { mkdirSync, utimesSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'

/**
 * The seed tree, relative to the notebook dir. The same every start, so stored traces stay
 * valid: each workflow's recorded value and both of its changed values are here (or, for
 * creates and uploads, deliberately absent).
 */
const SEED_FILES: Record<string, string> = {
  'invoices/invoice-2026-001.pdf': '%PDF-1.4\n% invoice 001 for Acme Corp\n',
  'invoices/invoice-2026-002.pdf': '%PDF-1.4\n% invoice 002 for Globex\n',
  'invoices/invoice-2026-003.pdf': '%PDF-1.4\n% invoice 003 for Initech\n',
  'reports/q1-summary.md': '# Q1 summary\n\nRevenue grew 4 percent.\n',
  'reports/2026/annual-plan.md': '# Annual plan 2026\n',
  'archive/2025-taxes.txt': 'Tax return 2025, filed in April.\n',
  'archive/old-contracts.txt': 'Contracts that ended in 2024.\n',
  // Spreadsheets are opaque bytes to Jupyter; a person renames them, never opens them.
  'budget.xlsx': 'PK\u0003\u0004 budget spreadsheet bytes',
  'forecast.xlsx': 'PK\u0003\u0004 forecast spreadsheet bytes',
  'payroll.xlsx': 'PK\u0003\u0004 payroll spreadsheet bytes',
  'notes.md': '# Notes\n\nCall the printer vendor about the toner contract.\n',
  'todo.md': '# Todo\n\nRenew the domain name before March.\n',
  'ideas.md': '# Ideas\n\nA quarterly newsletter for customers.\n',
  'old-draft.txt': 'First draft of the welcome letter.\n',
  'scratch.txt': 'Scratch numbers: 12, 31, 7.\n',
  'temp-log.txt': 'Temporary log of the import run.\n',
  'analysis.ipynb': JSON.stringify({
    cells: [{ cell_type: 'markdown', metadata: {}, source: ['# Sales analysis'] }],
    metadata: {},
    nbformat: 4,
    nbformat_minor: 5,
  }),
}

/** Every seeded file and folder gets this mtime, so listings look the same on every start. */
const SEED_TIME = new Date('2026-01-15T09:00:00Z')

/** Writes {@link SEED_FILES} under `root` (which must exist) with a fixed modification time. */
export function seedFiles(root: string): void {
  const dirs = new Set<string>()
  for (const [path, text] of Object.entries(SEED_FILES)) {
    const file = join(root, path)
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(file, text)
    utimesSync(file, SEED_TIME, SEED_TIME)
    for (let dir = dirname(path); dir !== '.'; dir = dirname(dir)) dirs.add(dir)
  }
  // Folders last: writing their files above touched their mtimes.
  for (const dir of dirs) utimesSync(join(root, dir), SEED_TIME, SEED_TIME)
}
