/**
 * A section's actions, in the action file editor: the section's Edit link
 * (`eafu?f=2&v=<v>&s=<section line>`) opens a form of every action (a radio per action: Y
 * enable, N disable, X no change; text boxes for parameters such as the block message
 * `block_mode`) whose Submit sends it all as `GET /edit-actions-submit?f=2&v=<v>&s=<line>&...`
 * (about a hundred fields), answered by a 302 to the list. The section is picked by what it
 * does (its block message); its line and the file's `v` come from the list first.
 */
import type { Page } from 'playwright-core'
import type { AppInstance, Workflow } from '../../types'
import { EDITOR_LIST, mustPass, readActionFile, sectionWith, type Section } from '../keys'
import { openActionFile, patternRow, redirectLost, reopenEditor, sectionBox } from '../person'
import { editorGet } from '../session'

/** A seeded pattern of each block section (a section is found by it once its message changed). */
const PATTERN_OF: Record<string, string> = {
  'Social media widgets.': 'widgets.socialbutton.test',
  'Crypto miners.': '.coinhive-clone.test',
  'Survey popups.': '.surveyhero-popups.test',
  'Fingerprinting scripts.': 'fp.canvasprint.test',
  'Malware hosts.': 'update.fakeflash.test',
  'Cookie consent banners.': 'cmp.cookiebar.test',
}

/** Opens the Edit form of the section blocking with `message`, lets `change` set it, Submit. */
async function editSection(
  page: Page,
  app: AppInstance,
  message: string,
  change: () => Promise<void>,
): Promise<void> {
  await openActionFile(page, 'user.action', 'Edit')
  await sectionBox(page, message).locator('tr.actions').getByRole('link', { name: 'Edit' }).click()
  await page.locator('form#myform input[name=block_mode]').waitFor()
  await change()
  const sent = page.waitForResponse((res) => new URL(res.url()).pathname === '/edit-actions-submit')
  const lost = redirectLost(page)
  await page.locator('form#myform input[type=submit]').first().click()
  await sent
  await lost
  await reopenEditor(page, app)
}

/**
 * Sends the section form by hand as the browser would: the form of section `s` as Privoxy
 * renders it (every field with its current value), with `set` applied.
 */
async function submitSection(
  app: AppInstance,
  section: Section,
  v: string,
  set: Record<string, string>,
): Promise<void> {
  const res = await editorGet(app, `/eafu?f=2&v=${v}&s=${section.s}`)
  const html = await res.text()
  const form = html.slice(html.indexOf('<form method="GET" action="edit-actions-submit"'))
  const fields = new URLSearchParams()
  for (const m of form.slice(0, form.indexOf('</form>')).matchAll(/<input([^>]*)>/g)) {
    const attrs = m[1]!
    const name = /name="([^"]*)"/.exec(attrs)?.[1]
    const value = /value="([^"]*)"/.exec(attrs)?.[1] ?? ''
    const type = /type="([^"]*)"/.exec(attrs)?.[1] ?? 'text'
    if (!name || name in set) continue
    if ((type === 'radio' || type === 'checkbox') && !/\schecked/.test(attrs)) continue
    fields.append(name, value.replace(/&quot;/g, '"').replace(/&amp;/g, '&'))
  }
  for (const [k, v2] of Object.entries(set)) fields.append(k, v2)
  const sent = await editorGet(app, `/edit-actions-submit?${fields.toString()}`)
  await sent.arrayBuffer()
  if (sent.status !== 302) throw new Error(`edit-actions-submit answered ${sent.status}`)
}

/** The section that held `message`'s seeded pattern, by hand. */
async function sectionOf(
  app: AppInstance,
  message: string,
): Promise<{ section: Section; v: string }> {
  const file = await readActionFile(app)
  const section = sectionWith(file, PATTERN_OF[message]!)
  if (!section) throw new Error(`no section holds ${PATTERN_OF[message]}`)
  return { section, v: file.v }
}

/** The Social media widgets section's Edit, a new block message, Submit. */
export const changeBlockMessage: Workflow = {
  id: 'change_block_message',
  intent:
    "in Privoxy user.action, change the block message of the 'Social media widgets.' section to 'Social buttons are off at work.'",
  rewordings: {
    terse: "privoxy block message social widgets 'Social buttons are off at work.'",
    chatty:
      "People get confused by the 'Social media widgets.' block page, could you change that section's message in Privoxy to say 'Social buttons are off at work.'?",
    withoutValue: 'change the message Privoxy shows for a blocked section',
  },
  startPath: '/show-status',
  signedIn: false,
  async play(page, app) {
    await editSection(page, app, 'Social media widgets.', async () => {
      await page
        .locator('form#myform input[name=block_mode]')
        .fill('Social buttons are off at work.')
    })
    await sectionBox(page, 'Social buttons are off at work.').waitFor()
  },
  key: {
    target: { method: 'GET', path: '/edit-actions-submit' },
    inputs: [
      // The section the person picked, by its message (the request names its line s).
      { recorded: 'Social media widgets.', changed: ['Crypto miners.', 'Survey popups.'] },
      {
        recorded: 'Social buttons are off at work.',
        changed: ['Mining scripts are blocked.', 'No surveys, please.'],
      },
    ],
    dependencies: [EDITOR_LIST],
    mutating: true,
    async replayByHand(app, session) {
      const { section, v } = await sectionOf(app, 'Crypto miners.')
      await submitSection(app, section, v, { block_mode: 'Mining scripts are blocked.' })
      mustPass(
        await changeBlockMessage.key.check(app, { status: 'succeeded', result: null }, session, [
          'Crypto miners.',
          'Mining scripts are blocked.',
        ]),
      )
    },
    async check(app, _run, _session, used) {
      const [picked, message] = used.map(String) as [string, string]
      const file = await readActionFile(app)
      const section = sectionWith(file, PATTERN_OF[picked]!)
      if (!section) return `no section holds ${PATTERN_OF[picked]}`
      if (!section.actions.includes(`+block{${message}}`))
        return `the section of ${picked} applies ${section.actions.join(' ')}`
      const all = file.sections.flatMap((s) => s.actions)
      if (all.includes('+block{Social buttons are off at work.}'))
        return 'a section has the recorded message'
      if (!all.includes('+block{Social media widgets.}'))
        return 'the recorded section (Social media widgets.) was changed'
      return null
    },
  },
}

/** The Fingerprinting scripts section's Edit, block set to disabled (N), Submit. */
export const stopBlocking: Workflow = {
  id: 'stop_blocking',
  intent: "in Privoxy user.action, turn off blocking for the 'Fingerprinting scripts.' section",
  rewordings: {
    terse: "privoxy unblock section 'Fingerprinting scripts.'",
    chatty:
      "The fingerprinting block list breaks our bank's login, could you switch the block off for the 'Fingerprinting scripts.' section in Privoxy for now?",
    withoutValue: 'stop a Privoxy section from blocking',
  },
  startPath: '/show-status',
  signedIn: false,
  async play(page, app) {
    await editSection(page, app, 'Fingerprinting scripts.', async () => {
      await page.locator('form#myform input[name=block][value=N]').check()
    })
    const box = page.locator('table.framed', { has: patternRow(page, 'fp.canvasprint.test') })
    await box.locator('td.action', { hasText: /^-block$/ }).waitFor()
  },
  key: {
    target: { method: 'GET', path: '/edit-actions-submit' },
    inputs: [
      {
        recorded: 'Fingerprinting scripts.',
        changed: ['Malware hosts.', 'Cookie consent banners.'],
      },
    ],
    dependencies: [EDITOR_LIST],
    mutating: true,
    async replayByHand(app, session) {
      const { section, v } = await sectionOf(app, 'Malware hosts.')
      await submitSection(app, section, v, { block: 'N' })
      mustPass(
        await stopBlocking.key.check(app, { status: 'succeeded', result: null }, session, [
          'Malware hosts.',
        ]),
      )
    },
    async check(app, _run, _session, used) {
      const picked = String(used[0])
      const file = await readActionFile(app)
      const section = sectionWith(file, PATTERN_OF[picked]!)
      if (!section) return `no section holds ${PATTERN_OF[picked]}`
      if (
        !section.actions.includes('-block') ||
        section.actions.some((a) => a.startsWith('+block'))
      )
        return `the section of ${picked} applies ${section.actions.join(' ')}`
      const fp = sectionWith(file, PATTERN_OF['Fingerprinting scripts.']!)
      if (!fp?.actions.includes('+block{Fingerprinting scripts.}'))
        return 'the recorded section (Fingerprinting scripts.) was changed'
      return null
    },
  },
}
