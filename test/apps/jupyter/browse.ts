import type { AnswerKey, Workflow } from '../types'
import { assertCheck, contentsPath, expectJson, resultText, usedName } from './keys'

/**
 * Names in each seeded folder or file text, so a read's check knows what the changed value's
 * answer must contain.
 */
const EXPECTED: Record<string, string> = {
  invoices: 'invoice-2026-002.pdf',
  reports: 'q1-summary.md',
  archive: 'old-contracts.txt',
  'notes.md': 'toner contract',
  'todo.md': 'Renew the domain name',
  'ideas.md': 'quarterly newsletter',
}

/** A read's check: the answer holds what the seed put under the name the tool was called with. */
function readCheck(run: { status: string; result: unknown }, name: string): string | null {
  if (run.status !== 'succeeded') return `the run ${run.status}`
  const expected = EXPECTED[name]
  if (!expected) return `no expectation for ${name}`
  return resultText(run.result).includes(expected)
    ? null
    : `the result does not contain "${expected}" from ${name}`
}

/** The key's check of both reads: only the run and the name it was called with matter. */
const checkRead: AnswerKey['check'] = async (_app, run, _session, used) =>
  readCheck(run, usedName(used, 0))

/** Clicks a folder in the tree; the UI lists it in place (history.pushState, no page load). */
export const listFolder: Workflow = {
  id: 'list_folder',
  intent: "what's in the invoices folder",
  rewordings: {
    terse: 'list invoices folder',
    chatty: 'hey, could you show me which files are sitting in my invoices folder right now?',
    withoutValue: 'list the files in a folder',
  },
  startPath: '/tree',
  signedIn: true,
  async play(page) {
    await page.getByRole('link', { name: 'invoices', exact: true }).click()
    await page.getByRole('link', { name: 'invoice-2026-003.pdf' }).waitFor()
  },
  key: {
    target: { method: 'GET', path: /^\/api\/contents\/[^/]+$/ },
    inputs: [{ recorded: 'invoices', changed: ['reports', 'archive'] }],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const name = 'reports'
      const res = await app.fetch(`${contentsPath(name)}?type=directory`, { session })
      const result = await expectJson(res, 200, `GET ${name}`)
      assertCheck(readCheck({ status: 'succeeded', result }, name))
    },
    check: checkRead,
  },
}

/**
 * Clicks a text file in the tree; Jupyter opens it in its text editor in a new tab, which reads
 * the file through the Contents API.
 */
export const readFile: Workflow = {
  id: 'read_file',
  intent: 'show me what notes.md says',
  rewordings: {
    terse: 'read notes.md',
    chatty: "I can't remember what I jotted down in notes.md, can you open it and tell me?",
    withoutValue: 'show the text of a file',
  },
  startPath: '/tree',
  signedIn: true,
  async play(page) {
    const tab = page.context().waitForEvent('page')
    await page.getByRole('link', { name: 'notes.md', exact: true }).click()
    const editor = await tab
    await editor.getByText('Call the printer vendor').waitFor()
  },
  key: {
    target: { method: 'GET', path: /^\/api\/contents\/[^/]+$/ },
    inputs: [{ recorded: 'notes.md', changed: ['todo.md', 'ideas.md'] }],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const name = 'todo.md'
      const res = await app.fetch(`${contentsPath(name)}?type=file&format=text`, { session })
      const result = await expectJson(res, 200, `GET ${name}`)
      assertCheck(readCheck({ status: 'succeeded', result }, name))
    },
    check: checkRead,
  },
}
