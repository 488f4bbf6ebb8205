/**
 * Changing one's preferences: `do=prefs` answers the preferences form (signed out, the sign-in
 * form first, which then goes on to the preferences); Save Preferences posts it urlencoded with
 * the sid, the email and empty password fields (an empty password keeps the old one).
 */
import type { Workflow } from '../../types'
import { hiddenField, mustPass, openForm, postForm, sidOf } from '../keys'

/**
 * Not signed in: clicks Preferences in the header, signs in with the form ikiwiki shows, replaces
 * the email address and clicks Save Preferences.
 */
export const changeEmail: Workflow = {
  id: 'change_email',
  intent: 'change my wiki email address to alice.work@example.org',
  rewordings: {
    terse: 'wiki email → alice.work@example.org',
    chatty:
      'I have a new work address, could you set my email in the wiki preferences to alice.work@example.org?',
    withoutValue: 'change the email address of my wiki account',
  },
  startPath: '/',
  signedIn: false,
  async play(page, app) {
    await page.getByRole('link', { name: 'Preferences' }).click()
    await page.locator('#name').fill(app.user.name)
    await page.locator('#password').fill(app.user.password)
    await page.getByRole('button', { name: 'Login' }).click()
    const email = page.locator('#email')
    await email.waitFor()
    await email.fill('alice.work@example.org')
    await page.getByRole('button', { name: 'Save Preferences' }).click()
    await page.getByText('Preferences saved.').waitFor()
  },
  key: {
    target: {
      method: 'POST',
      path: '/ikiwiki.cgi',
      operation: [
        { field: 'do', value: 'prefs' },
        { field: '_submit', value: 'Save Preferences' },
      ],
    },
    inputs: [
      {
        recorded: 'alice.work@example.org',
        changed: ['alice@teamwiki.example', 'a.smith@example.net'],
      },
    ],
    // The form's sid is the session cookie's value, which the saved login holds: nothing needs
    // reading first (the recording read it from the preferences form the sign-in post answered).
    dependencies: [],
    mutating: true,
    async replayByHand(app, session) {
      const email = 'alice@teamwiki.example'
      const html = await openForm(app, session, { do: 'prefs' })
      const res = await postForm(
        app,
        session,
        [
          ['_submitted_preferences', '1'],
          ['do', 'prefs'],
          ['sid', sidOf(html)],
          ['password', ''],
          ['confirm_password', ''],
          ['email', email],
          ['_submit', 'Save Preferences'],
        ],
        false,
      )
      const answer = await res.text()
      if (!answer.includes('Preferences saved')) throw new Error(`saving answered ${res.status}`)
      mustPass(
        await changeEmail.key.check(app, { status: 'succeeded', result: answer }, session, [email]),
      )
    },
    async check(app, _run, session, used) {
      const email = hiddenField(await openForm(app, session, { do: 'prefs' }), 'email')
      return email === String(used[0]) ? null : `the email is ${JSON.stringify(email)}`
    },
  },
}
