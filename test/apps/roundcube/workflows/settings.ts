/**
 * Roundcube settings that are classic form posts from a framed page: the form carries the
 * session's `_token` and names the operation in `_action` (`save-folder`, `save-identity`), and
 * Roundcube answers with the framed page again, which tells the parent page to refresh its list.
 */
import type { Workflow } from '../../types'
import { folderNames, mustPass, rcRequest, signatureOf } from '../keys'
import { requestToken } from '../session'
import { logIn } from './login'

/** POSTs a settings form to `/` as the framed page does; throws unless Roundcube answers 200. */
async function postForm(
  app: Parameters<Workflow['play']>[1],
  session: Parameters<Workflow['key']['replayByHand']>[1],
  fields: Record<string, string>,
): Promise<string> {
  const token = await requestToken(app, session)
  const res = await app.fetch('/', {
    method: 'POST',
    session,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ _token: token, _framed: '1', ...fields }),
  })
  const html = await res.text()
  if (res.status !== 200) throw new Error(`${fields._action} answered ${res.status}`)
  return html
}

/** Settings → Folders → Create, types the folder name, Save. */
export const createFolder: Workflow = {
  id: 'create_folder',
  intent: "create a mail folder called 'Invoices 2026'",
  rewordings: {
    terse: 'new folder Invoices 2026',
    chatty:
      "I'd like a separate folder for this year's bills, can you make one named 'Invoices 2026'?",
    withoutValue: 'create a new mail folder',
  },
  startPath: '/?_task=settings',
  signedIn: true,
  async play(page) {
    await page.locator('#settings-menu').getByText('Folders').click()
    await page.locator('#subscription-table li', { hasText: 'Receipts' }).waitFor()
    await page.getByRole('button', { name: 'Create' }).click()
    const form = page.frameLocator('#preferences-frame')
    const name = form.locator('input[name=_name]')
    await name.click()
    await name.pressSequentially('Invoices 2026', { delay: 30 })
    await form.getByRole('button', { name: 'Save' }).click()
    await page.locator('#subscription-table li', { hasText: 'Invoices 2026' }).waitFor()
  },
  key: {
    target: rcRequest('POST', 'settings', 'save-folder'),
    inputs: [{ recorded: 'Invoices 2026', changed: ['Travel 2027', 'Clients'] }],
    // The framed "add folder" form holds the _token the post echoes.
    dependencies: [rcRequest('GET', 'settings', 'add-folder')],
    mutating: true,
    async replayByHand(app, session) {
      const name = 'Travel 2027'
      await postForm(app, session, {
        _task: 'settings',
        _action: 'save-folder',
        _name: name,
        _parent: '',
        _viewmode: '0',
      })
      mustPass(
        await createFolder.key.check(app, { status: 'succeeded', result: null }, session, [name]),
      )
    },
    async check(app, _run, session, used) {
      const names = await folderNames(app, session)
      const name = String(used[0])
      if (!names.includes(name)) return `there is no folder "${name}" (${names.join(', ')})`
      return names.includes('Invoices 2026')
        ? 'the recorded folder "Invoices 2026" was created'
        : null
    },
  },
}

/** The seeded support identity's signature, which the workflow must leave alone. */
const SUPPORT_SIGNATURE = 'The support team'

/**
 * Signs in on the login form, then Settings → Identities, clicks the main identity, types the
 * signature, Save.
 */
export const setSignature: Workflow = {
  id: 'set_signature',
  intent: "set my email signature to 'Ada Lovelace, Analytical Engines Ltd'",
  rewordings: {
    terse: "signature: 'Ada Lovelace, Analytical Engines Ltd'",
    chatty:
      "could you sign in to my webmail and change my signature so it reads 'Ada Lovelace, Analytical Engines Ltd'?",
    withoutValue: 'change the signature of my mail identity',
  },
  startPath: '/?_task=settings&_action=identities',
  signedIn: false,
  async play(page, app) {
    await logIn(page, app)
    await page.locator('#identities-table tr', { hasText: 'ada@example.org' }).click()
    const form = page.frameLocator('#preferences-frame')
    const area = form.locator('textarea[name=_signature]')
    await area.click()
    await area.pressSequentially('Ada Lovelace, Analytical Engines Ltd', { delay: 20 })
    await form.getByRole('button', { name: 'Save' }).click()
    await page.getByText('Successfully saved').first().waitFor()
  },
  key: {
    target: rcRequest('POST', 'settings', 'save-identity'),
    inputs: [
      {
        recorded: 'Ada Lovelace, Analytical Engines Ltd',
        changed: ['Ada L. (Engineering, room 2.14)', 'Best regards, Ada'],
      },
    ],
    // The identity's edit form: its _token, and every other field the post sends back.
    dependencies: [rcRequest('GET', 'settings', 'edit-identity')],
    mutating: true,
    async replayByHand(app, session) {
      const signature = 'Ada L. (Engineering, room 2.14)'
      await postForm(app, session, {
        _task: 'settings',
        _action: 'save-identity',
        _iid: '1',
        _name: 'Ada Lovelace',
        _email: 'ada@example.org',
        _organization: 'Analytical Engines Ltd',
        '_reply-to': '',
        _bcc: '',
        _standard: '1',
        _signature: signature,
      })
      mustPass(
        await setSignature.key.check(app, { status: 'succeeded', result: null }, session, [
          signature,
        ]),
      )
    },
    async check(app, _run, session, used) {
      const signature = (await signatureOf(app, session, 1)).trim()
      if (signature !== String(used[0]).trim())
        return `the signature of ada@example.org reads ${JSON.stringify(signature)}`
      const other = (await signatureOf(app, session, 2)).trim()
      return other === SUPPORT_SIGNATURE
        ? null
        : `the support identity's signature became ${JSON.stringify(other)}`
    },
  },
}
