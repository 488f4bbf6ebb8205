/**
 * Icecast workflows on the listener accounts of a mount with an htpasswd login, on the Manage
 * Authentication page of that mount: add an account to /vip.mp3 (a GET form: `username`,
 * `password`, `mount`, `action=add`) and delete one of /members.mp3 (the Delete link of its row:
 * `username=<name>&action=delete`). Two mounts, two files: see seed.ts.
 */
import type { Page } from 'playwright-core'
import type { Workflow } from '../../types'
import { adminAction, adminPath, mustPass } from '../keys'
import { clickMountLink, exactly, openAdminSignedIn, openMountList, typeInto } from '../person'
import { AUTH_MOUNTS, MEMBERS_MOUNT, VIP_MOUNT } from '../seed'
import { readAccounts } from '../session'

/** Mountpoint List, then "Manage Authentication" in `mount`'s box. */
async function openManageAuthentication(page: Page, mount: string): Promise<void> {
  await openMountList(page)
  await clickMountLink(page, mount, 'Manage Authentication')
  await page.getByRole('heading', { name: 'Manage Authentication' }).waitFor()
}

/** The account the add workflow creates when it records, and its password. */
const NEW_ACCOUNT = { name: 'erin', password: 'erin-listens-6' }

/** Manage Authentication of /vip.mp3, types a user name and password, presses Add. */
export const addListenerAccount: Workflow = {
  id: 'add_listener_account',
  intent: `add a listener account named ${NEW_ACCOUNT.name} to the Icecast mount ${VIP_MOUNT}`,
  rewordings: {
    terse: `icecast ${VIP_MOUNT} add user ${NEW_ACCOUNT.name}`,
    chatty: `${NEW_ACCOUNT.name} just became a supporter, could you give her a login for the patrons' stream ${VIP_MOUNT} on Icecast?`,
    withoutValue: 'create a login for a password-protected Icecast stream',
  },
  startPath: '/status.xsl',
  signedIn: true,
  async play(page, app) {
    await openAdminSignedIn(page, app)
    await openManageAuthentication(page, VIP_MOUNT)
    await typeInto(page.locator('input[name="username"]'), NEW_ACCOUNT.name)
    await typeInto(page.locator('input[name="password"]'), NEW_ACCOUNT.password)
    await page.getByRole('button', { name: 'Add' }).click()
    await page.getByText('User added').waitFor()
    await page.getByRole('cell', { name: exactly(NEW_ACCOUNT.name) }).waitFor()
  },
  key: {
    target: {
      method: 'GET',
      path: '/admin/manageauth.xsl',
      operation: { field: 'action', value: 'add' },
    },
    // The password is typed too, but the recording redacts it: no recorded value to call with.
    inputs: [{ recorded: NEW_ACCOUNT.name, changed: ['frank', 'grace'] }],
    dependencies: [],
    mutating: true,
    async replayByHand(app, session) {
      const name = 'frank'
      const path = adminPath('manageauth.xsl', {
        username: name,
        password: 'frank-listens-7',
        mount: VIP_MOUNT,
        action: 'add',
      })
      await adminAction(app, session, path, 'User added')
      mustPass(
        await addListenerAccount.key.check(app, { status: 'succeeded', result: null }, session, [
          name,
        ]),
      )
    },
    async check(app, _run, _session, used) {
      const name = String(used[0])
      const accounts = readAccounts(app, VIP_MOUNT)
      if (!accounts.includes(name)) return `${VIP_MOUNT} has no account ${name}`
      return accounts.includes(NEW_ACCOUNT.name)
        ? `the recorded account ${NEW_ACCOUNT.name} was added too`
        : null
    },
  },
}

/** The account the delete workflow removes when it records. */
const DELETED = 'bob'

/** Manage Authentication of /members.mp3, then Delete in bob's row. */
export const deleteListenerAccount: Workflow = {
  id: 'delete_listener_account',
  intent: `delete the listener account ${DELETED} from the Icecast mount ${MEMBERS_MOUNT}`,
  rewordings: {
    terse: `icecast ${MEMBERS_MOUNT} remove user ${DELETED}`,
    chatty: `${DELETED} cancelled his membership, can you remove his login from the ${MEMBERS_MOUNT} stream in Icecast?`,
    withoutValue: 'remove a login from the members-only Icecast stream',
  },
  startPath: '/status.xsl',
  signedIn: true,
  async play(page, app) {
    await openAdminSignedIn(page, app)
    await openManageAuthentication(page, MEMBERS_MOUNT)
    const row = page
      .getByRole('row')
      .filter({ has: page.getByRole('cell', { name: exactly(DELETED) }) })
    await row.getByRole('link', { name: 'Delete' }).click()
    await page.getByText('User deleted').waitFor()
    await page.getByRole('cell', { name: exactly(DELETED) }).waitFor({ state: 'detached' })
  },
  key: {
    target: {
      method: 'GET',
      path: '/admin/manageauth.xsl',
      operation: { field: 'action', value: 'delete' },
    },
    inputs: [{ recorded: DELETED, changed: ['carol', 'dave'] }],
    dependencies: [],
    mutating: true,
    async replayByHand(app, session) {
      const name = 'carol'
      const path = adminPath('manageauth.xsl', {
        mount: MEMBERS_MOUNT,
        username: name,
        action: 'delete',
      })
      await adminAction(app, session, path, 'User deleted')
      mustPass(
        await deleteListenerAccount.key.check(app, { status: 'succeeded', result: null }, session, [
          name,
        ]),
      )
    },
    async check(app, _run, _session, used) {
      const name = String(used[0])
      const accounts = readAccounts(app, MEMBERS_MOUNT)
      if (accounts.includes(name)) return `${MEMBERS_MOUNT} still has the account ${name}`
      // The recorded account and those no key deletes are still there (the other changed value
      // may be gone: both runs of the check share one instance).
      const kept = (AUTH_MOUNTS[MEMBERS_MOUNT] ?? [])
        .map((a) => a.name)
        .filter((a) => !['carol', 'dave'].includes(a))
      const gone = kept.filter((a) => a !== name && !accounts.includes(a))
      return gone.length ? `the accounts ${gone.join(', ')} were deleted too` : null
    },
  },
}
