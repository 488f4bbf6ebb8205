import type { AnswerKey, Workflow } from '../types'
import { contentsPath, contentsStatus, expectJson, usedName, writeHeaders } from './keys'
import { dialog, row, selectRow } from './rows'

/** A new name for each seeded spreadsheet a rename is called with. */
const RENAMED: Record<string, string> = {
  'budget.xlsx': 'budget-2026.xlsx',
  'forecast.xlsx': 'forecast-2026.xlsx',
  'payroll.xlsx': 'payroll-2026.xlsx',
}

/** Rename's check: the new name exists and the old one is gone. */
const checkRename: AnswerKey['check'] = async (app, run, session, used) => {
  const [from, to] = [usedName(used, 0), usedName(used, 1)]
  if ((await contentsStatus(app, session, to)) !== 200) return `${to} does not exist`
  if ((await contentsStatus(app, session, from)) !== 404) return `${from} still exists`
  return run.status === 'succeeded' ? null : `renamed, but the run ${run.status}`
}

/** Ticks a file, clicks Rename, types the new name in the dialog and confirms. */
export const renameFile: Workflow = {
  id: 'rename_file',
  intent: 'rename budget.xlsx to budget-2026.xlsx',
  rewordings: {
    terse: 'budget.xlsx -> budget-2026.xlsx',
    chatty: "could you please rename my budget.xlsx spreadsheet so it's called budget-2026.xlsx?",
    withoutValue: 'rename a file',
  },
  startPath: '/tree',
  signedIn: true,
  async play(page) {
    await selectRow(page, 'budget.xlsx')
    await page.getByRole('button', { name: 'Rename selected' }).click()
    await dialog(page).locator('input').fill(RENAMED['budget.xlsx']!)
    await dialog(page).getByRole('button', { name: 'Rename' }).click()
    await row(page, RENAMED['budget.xlsx']!).waitFor()
  },
  key: {
    target: { method: 'PATCH', path: /^\/api\/contents\/[^/]+$/ },
    inputs: [
      { recorded: 'budget.xlsx', changed: ['forecast.xlsx', 'payroll.xlsx'] },
      { recorded: 'budget-2026.xlsx', changed: ['forecast-2026.xlsx', 'payroll-2026.xlsx'] },
    ],
    dependencies: [],
    mutating: true,
    async replayByHand(app, session) {
      const used = ['forecast.xlsx', 'forecast-2026.xlsx']
      const res = await app.fetch(contentsPath(used[0]!), {
        session,
        method: 'PATCH',
        headers: writeHeaders(session),
        body: JSON.stringify({ path: used[1] }),
      })
      await expectJson(res, 200, 'PATCH rename')
      const problem = await checkRename(app, { status: 'succeeded', result: null }, session, used)
      if (problem) throw new Error(problem)
    },
    check: checkRename,
  },
}

/** Delete's check: the file is gone. */
const checkDelete: AnswerKey['check'] = async (app, run, session, used) => {
  const name = usedName(used, 0)
  if ((await contentsStatus(app, session, name)) !== 404) return `${name} still exists`
  return run.status === 'succeeded' ? null : `deleted, but the run ${run.status}`
}

/** Ticks a file, clicks the trash button and confirms in the dialog. */
export const deleteFile: Workflow = {
  id: 'delete_file',
  intent: 'delete the file old-draft.txt',
  rewordings: {
    terse: 'rm old-draft.txt',
    chatty: "I don't need old-draft.txt anymore, could you get rid of it for me?",
    withoutValue: 'delete a file',
  },
  startPath: '/tree',
  signedIn: true,
  async play(page) {
    await selectRow(page, 'old-draft.txt')
    await page.getByRole('button', { name: 'Delete selected' }).click()
    await dialog(page).getByRole('button', { name: 'Delete' }).click()
    await row(page, 'old-draft.txt').waitFor({ state: 'detached' })
  },
  key: {
    target: { method: 'DELETE', path: /^\/api\/contents\/[^/]+$/ },
    inputs: [{ recorded: 'old-draft.txt', changed: ['scratch.txt', 'temp-log.txt'] }],
    dependencies: [],
    mutating: true,
    async replayByHand(app, session) {
      const used = ['scratch.txt']
      const res = await app.fetch(contentsPath(used[0]!), {
        session,
        method: 'DELETE',
        headers: writeHeaders(session),
      })
      await expectJson(res, 204, 'DELETE')
      const problem = await checkDelete(app, { status: 'succeeded', result: null }, session, used)
      if (problem) throw new Error(problem)
    },
    check: checkDelete,
  },
}

/** What the uploaded receipt holds (the person picks the file; its bytes are not an input). */
const RECEIPT = 'Receipt: 3 boxes of toner, 84 EUR\n'

/** Upload's check: a file of that name now exists. */
const checkUpload: AnswerKey['check'] = async (app, run, session, used) => {
  const name = usedName(used, 0)
  if ((await contentsStatus(app, session, name)) !== 200) return `${name} was not uploaded`
  return run.status === 'succeeded' ? null : `uploaded, but the run ${run.status}`
}

/**
 * Clicks Upload and picks a file (the file chooser is the hidden `input[type=file]` behind the
 * button); Jupyter adds a row with the name and an Upload button, which sends the file.
 */
export const uploadFile: Workflow = {
  id: 'upload_file',
  intent: 'upload the file receipt-march.txt',
  rewordings: {
    terse: 'upload receipt-march.txt',
    chatty: 'can you put my receipt-march.txt receipt up on the notebook server for me please?',
    withoutValue: 'upload a file',
  },
  startPath: '/tree',
  signedIn: true,
  async play(page) {
    await row(page, 'todo.md').waitFor()
    const chooser = page.waitForEvent('filechooser')
    await page.locator('#notebook_list_info').getByRole('button', { name: 'Upload' }).click()
    await (
      await chooser
    ).setFiles({ name: 'receipt-march.txt', mimeType: 'text/plain', buffer: Buffer.from(RECEIPT) })
    await page.locator('#notebook_list').getByRole('button', { name: 'Upload' }).click()
    await row(page, 'receipt-march.txt').waitFor()
  },
  key: {
    target: { method: 'PUT', path: /^\/api\/contents\/[^/]+$/ },
    inputs: [{ recorded: 'receipt-march.txt', changed: ['receipt-april.txt', 'receipt-may.txt'] }],
    dependencies: [],
    mutating: true,
    async replayByHand(app, session) {
      const used = ['receipt-april.txt']
      const res = await app.fetch(contentsPath(used[0]!), {
        session,
        method: 'PUT',
        headers: writeHeaders(session),
        body: JSON.stringify({
          name: used[0],
          path: used[0],
          type: 'file',
          format: 'base64',
          content: Buffer.from(RECEIPT).toString('base64'),
        }),
      })
      await expectJson(res, 201, 'PUT upload')
      const problem = await checkUpload(app, { status: 'succeeded', result: null }, session, used)
      if (problem) throw new Error(problem)
    },
    check: checkUpload,
  },
}
