/**
 * The Configuration tab's "Lists": the person clicks a map's path, the UI reads it
 * (`GET /getmap` with a `Map: <id>` header) into an editor; the person adds a line at the end and
 * clicks "Save changes". The UI posts the editor's whole text (`POST /savemap`, same `Map`
 * header), which Rspamd writes to the map file.
 */
import type { AppInstance, Workflow } from '../../types'
import type { StorageState } from '../../../../src/shared/trace'
import { MAPS, MAP_IDS } from '../seed'
import { openTab, signInFromDialog, waitForNotice } from '../ui'

const MAP = MAPS.find((m) => m.file === 'blocked_domains.map')!
const MAP_ID = String(MAP_IDS[MAP.file])
const RECORDED = 'phish-bank.example'

/** The map's lines as Rspamd reads them now. */
async function mapLines(app: AppInstance, session: StorageState): Promise<string[]> {
  const res = await app.fetch('/getmap', { headers: { Map: MAP_ID }, session })
  if (!res.ok) throw new Error(`getmap answered ${res.status}`)
  return (await res.text())
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
}

export const addMapEntry: Workflow = {
  id: 'add_map_entry',
  intent: `add ${RECORDED} to Rspamd's blocked sender domains map`,
  rewordings: {
    terse: `block domain ${RECORDED}`,
    chatty: `We keep getting phishing from ${RECORDED}, could you put it on the blocked domains list in Rspamd?`,
    withoutValue: "add a domain to Rspamd's blocked domains list",
  },
  startPath: '/',
  signedIn: false,
  async play(page, app) {
    await signInFromDialog(page, app)
    await openTab(page, 'Configuration')
    await page.locator('#listMaps .map-link', { hasText: MAP.file }).click()
    const editor = page.locator('#modalDialog #editor')
    await editor.waitFor({ state: 'visible', timeout: 30_000 })
    await page.locator('#modalDialog').getByText(MAP.lines[0]!).first().waitFor()
    // Click into the text, go to its end (after the last line's newline) and type the domain.
    await editor.click()
    await page.keyboard.press('Control+End')
    await page.keyboard.type(RECORDED, { delay: 40 })
    await page.locator('#modalSave').click()
    await waitForNotice(page, 'Map data successfully saved')
  },
  key: {
    target: { method: 'POST', path: '/savemap' },
    inputs: [{ recorded: RECORDED, changed: ['fake-parcel.example', 'win-prizes.test'] }],
    // The body is the whole map: a tool that keeps today's other lines reads the map first.
    dependencies: [{ method: 'GET', path: '/getmap' }],
    mutating: true,
    async replayByHand(app, session) {
      const lines = await mapLines(app, session)
      const res = await app.fetch('/savemap', {
        method: 'POST',
        headers: { Map: MAP_ID },
        body: `${[...lines, 'fake-parcel.example'].join('\n')}\n`,
        session,
      })
      if (!res.ok) throw new Error(`savemap answered ${res.status}: ${await res.text()}`)
      const problem = await addMapEntry.key.check(app, { status: 'ok', result: null }, session, [
        'fake-parcel.example',
      ])
      if (problem) throw new Error(problem)
    },
    async check(app, _run, session, used) {
      const lines = await mapLines(app, session)
      if (!lines.includes(String(used[0]))) return `the map has no line ${String(used[0])}`
      const lost = MAP.lines.filter((l) => !lines.includes(l))
      if (lost.length) return `the map lost its lines ${lost.join(', ')}`
      if (lines.includes(RECORDED)) return `the map got the recorded ${RECORDED} too`
      if (lines.some((l) => l.includes(String(used[0])) && l !== String(used[0])))
        return `the new line is not the domain alone: ${lines.join(' | ')}`
      return null
    },
  },
}
