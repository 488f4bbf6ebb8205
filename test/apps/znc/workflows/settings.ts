/**
 * ZNC workflows on the global settings (`settings`, admins only): one form posting every setting
 * back to `settings`, the MOTD a textarea of one line per message line, the delays numbers, and
 * the global modules as checkboxes. Like every webadmin post it carries `_CSRF_Check`.
 */
import type { StorageState } from '../../../../src/shared/trace'
import type { AppInstance, RequestKey, Workflow } from '../../types'
import { WEBADMIN, field, formFields, getPage, mustPass, postForm, setField } from '../keys'
import { SERVER_THROTTLE } from '../seed'
import { logInFromTopBar, openMenu } from './person'

const SETTINGS_PAGE: RequestKey = { method: 'GET', path: `${WEBADMIN}/settings` }
const SAVE: RequestKey = { method: 'POST', path: `${WEBADMIN}/settings` }

/** The global settings as the settings page shows them. */
async function readSettings(
  app: AppInstance,
  session: StorageState,
): Promise<Array<[string, string]>> {
  return formFields(await getPage(app, session, `${WEBADMIN}/settings`), 'settings')
}

/** Loads the settings form, changes `changes`, posts it as Save does; throws unless saved. */
async function saveSettings(
  app: AppInstance,
  session: StorageState,
  changes: Record<string, string>,
): Promise<void> {
  const fields = await readSettings(app, session)
  for (const [k, v] of Object.entries(changes)) setField(fields, k, v)
  const res = await postForm(app, session, 'settings', fields)
  if (res.status !== 302) throw new Error(`settings answered ${res.status}, not a redirect`)
}

const MOTD = 'Maintenance on Sunday at 02:00 UTC'

/**
 * Signed out on the home page: logs in with the top bar, opens Global Settings, types the MOTD,
 * clicks Save and waits for the settings page again.
 */
export const setMotd: Workflow = {
  id: 'set_motd',
  intent: `set the ZNC message of the day to "${MOTD}"`,
  rewordings: {
    terse: `motd: ${MOTD}`,
    chatty: `can you put "${MOTD}" up as the bouncer's message of the day so everyone sees it when they connect?`,
    withoutValue: "change the bouncer's message of the day",
  },
  startPath: '/',
  signedIn: false,
  async play(page, app) {
    await logInFromTopBar(page, app)
    await openMenu(page, 'Global Settings', 'settings')
    await page.getByLabel('MOTD:').fill(MOTD)
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await page.waitForLoadState('load')
    // The page comes back from the save with the stored MOTD in the box.
    await page.waitForFunction(
      (text) =>
        (document.querySelector('#motd') as HTMLTextAreaElement | null)?.value.trim() === text,
      MOTD,
    )
  },
  key: {
    target: SAVE,
    inputs: [
      {
        recorded: MOTD,
        changed: ['Welcome to the new bouncer host', 'Backups run nightly at 03:00 UTC'],
      },
    ],
    // The settings form: the CSRF token, and every other setting, which the post sends back.
    dependencies: [SETTINGS_PAGE],
    mutating: true,
    async replayByHand(app, session) {
      const motd = String(this.inputs[0]!.changed[0])
      await saveSettings(app, session, { motd })
      mustPass(await this.check(app, { status: 'succeeded', result: null }, session, [motd]))
    },
    async check(app, _run, session, used) {
      const fields = await readSettings(app, session)
      const motd = (field(fields, 'motd') ?? '').trim()
      if (motd !== String(used[0])) return `the MOTD is ${JSON.stringify(motd)}`
      const throttle = field(fields, 'serverthrottle')
      return throttle === String(SERVER_THROTTLE) ? null : `the server throttle became ${throttle}`
    },
  },
}

const NEW_DELAY = 15

/** From the home page: Global Settings, types the Connect Delay, Save. */
export const setConnectDelay: Workflow = {
  id: 'set_connect_delay',
  intent: `set ZNC's connect delay to ${NEW_DELAY} seconds`,
  rewordings: {
    terse: `connect delay ${NEW_DELAY}`,
    chatty: `the bouncer reconnects too quickly, could you make it wait ${NEW_DELAY} seconds between connection attempts?`,
    withoutValue: "change the bouncer's connect delay",
  },
  startPath: '/',
  signedIn: true,
  async play(page) {
    await openMenu(page, 'Global Settings', 'settings')
    await page.getByLabel('Connect Delay:').fill(String(NEW_DELAY))
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await page.waitForLoadState('load')
    await page.locator(`#connectdelay[value="${NEW_DELAY}"]`).waitFor()
  },
  key: {
    target: SAVE,
    inputs: [{ recorded: NEW_DELAY, changed: [20, 30] }],
    dependencies: [SETTINGS_PAGE],
    mutating: true,
    async replayByHand(app, session) {
      const delay = this.inputs[0]!.changed[0]
      await saveSettings(app, session, { connectdelay: String(delay) })
      mustPass(await this.check(app, { status: 'succeeded', result: null }, session, [delay]))
    },
    async check(app, _run, session, used) {
      const fields = await readSettings(app, session)
      const delay = field(fields, 'connectdelay')
      if (delay !== String(used[0])) return `the connect delay is ${delay}`
      const throttle = field(fields, 'serverthrottle')
      return throttle === String(SERVER_THROTTLE) ? null : `the server throttle became ${throttle}`
    },
  },
}
