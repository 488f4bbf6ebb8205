import type { AnswerKey, Workflow } from '../types'
import { contentsPath, expectJson, usedName, writeHeaders } from './keys'
import { dialog, row, selectRow } from './rows'

/** The name Jupyter gives a new folder (then "Untitled Folder 1", ... while it exists). */
const UNTITLED = 'Untitled Folder'

/** Create-folder's check: a folder of the name now exists and no untitled one is left over. */
const checkCreateFolder: AnswerKey['check'] = async (app, run, session, used) => {
  const name = usedName(used, 0)
  const res = await app.fetch(`${contentsPath(name)}?content=0`, { session })
  const body = (await res.json().catch(() => null)) as { type?: string } | null
  if (res.status !== 200 || body?.type !== 'directory') return `no folder ${name}`
  const leftover = await app.fetch(`${contentsPath(UNTITLED)}?content=0`, { session })
  await leftover.arrayBuffer()
  if (leftover.status !== 404) return `an "${UNTITLED}" was left over`
  return run.status === 'succeeded' ? null : `created, but the run ${run.status}`
}

/**
 * Jupyter's New menu makes an "Untitled Folder" at once (POST, no name asked); the person then
 * ticks it, clicks Rename and types the name they wanted. So the name travels only in the PATCH,
 * whose path is the name the POST answered with.
 */
export const createFolder: Workflow = {
  id: 'create_folder',
  intent: 'create a folder called projects',
  rewordings: {
    terse: 'new folder projects',
    chatty: "I'd like a fresh folder named projects in my notebook home, could you make one?",
    withoutValue: 'create a new folder',
  },
  startPath: '/tree',
  signedIn: true,
  async play(page) {
    await row(page, 'todo.md').waitFor()
    await page.getByRole('button', { name: 'New' }).click()
    await page.getByRole('menuitem', { name: 'Folder' }).click()
    await selectRow(page, UNTITLED)
    await page.getByRole('button', { name: 'Rename selected' }).click()
    await dialog(page).locator('input').fill('projects')
    await dialog(page).getByRole('button', { name: 'Rename' }).click()
    await row(page, 'projects').waitFor()
  },
  key: {
    target: { method: 'PATCH', path: /^\/api\/contents\/[^/]+$/ },
    inputs: [{ recorded: 'projects', changed: ['clients', 'suppliers'] }],
    // The PATCH's path is the `name` the POST answered: a tool must read it, not bake it.
    dependencies: [{ method: 'POST', path: '/api/contents' }],
    mutating: true,
    async replayByHand(app, session) {
      const used = ['clients']
      const created = await app.fetch('/api/contents', {
        session,
        method: 'POST',
        headers: writeHeaders(session),
        body: JSON.stringify({ type: 'directory' }),
      })
      const { path } = (await expectJson(created, 201, 'POST new folder')) as { path: string }
      const res = await app.fetch(contentsPath(path), {
        session,
        method: 'PATCH',
        headers: writeHeaders(session),
        body: JSON.stringify({ path: used[0] }),
      })
      await expectJson(res, 200, 'PATCH rename new folder')
      const problem = await checkCreateFolder(
        app,
        { status: 'succeeded', result: null },
        session,
        used,
      )
      if (problem) throw new Error(problem)
    },
    check: checkCreateFolder,
  },
}
