/**
 * Adding a contact: Contacts → Create opens the framed contact form
 * (`_task=addressbook&_action=add&_source=0`); Save posts it to `/` as a classic form post
 * (`_action=save`, `_source`, `_firstname`, `_surname`, `_email[]` and the other fields, with
 * the session's `_token`), and Roundcube answers with the framed contact page.
 */
import type { Workflow } from '../../types'
import { contactNames, mustPass, rcRequest } from '../keys'
import { requestToken } from '../session'
import { logIn } from './login'

/** Signs in on the login form, opens Contacts, Create, types name and email, Save. */
export const addContact: Workflow = {
  id: 'add_contact',
  intent: 'add Katherine Johnson (katherine.johnson@example.org) to my contacts',
  rewordings: {
    terse: 'new contact Katherine Johnson katherine.johnson@example.org',
    chatty:
      'please log in to my webmail and save Katherine Johnson in my address book, her email is katherine.johnson@example.org',
    withoutValue: 'add a person to my address book',
  },
  startPath: '/?_task=addressbook',
  signedIn: false,
  async play(page, app) {
    await logIn(page, app)
    await page.locator('#contacts-table tr', { hasText: 'Alan Turing' }).waitFor()
    await page.getByRole('button', { name: 'Create' }).click()
    const form = page.frameLocator('#contact-frame')
    await form.locator('input[name=_firstname]').fill('Katherine')
    await form.locator('input[name=_surname]').fill('Johnson')
    await form.locator('input[name="_email[]"]').first().fill('katherine.johnson@example.org')
    await form.getByRole('button', { name: 'Save' }).click()
    await page.locator('#contacts-table tr', { hasText: 'Katherine Johnson' }).waitFor()
  },
  key: {
    target: rcRequest('POST', 'addressbook', 'save'),
    inputs: [
      { recorded: 'Katherine', changed: ['Dorothy', 'Mary'] },
      { recorded: 'Johnson', changed: ['Vaughan', 'Jackson'] },
      {
        recorded: 'katherine.johnson@example.org',
        changed: ['dorothy.vaughan@example.org', 'mary.jackson@example.org'],
      },
    ],
    // The framed contact form holds the _token the post echoes.
    dependencies: [rcRequest('GET', 'addressbook', 'add')],
    mutating: true,
    async replayByHand(app, session) {
      const used = ['Dorothy', 'Vaughan', 'dorothy.vaughan@example.org']
      const token = await requestToken(app, session)
      const res = await app.fetch('/', {
        method: 'POST',
        session,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          _token: token,
          _framed: '1',
          _task: 'addressbook',
          _action: 'save',
          _source: '0',
          _firstname: used[0]!,
          _surname: used[1]!,
          '_email[]': used[2]!,
          '_subtype_email[]': 'home',
        }),
      })
      await res.arrayBuffer()
      if (res.status !== 200) throw new Error(`save answered ${res.status}`)
      mustPass(
        await addContact.key.check(app, { status: 'succeeded', result: null }, session, used),
      )
    },
    async check(app, _run, session, used) {
      const names = await contactNames(app, session)
      const name = `${String(used[0])} ${String(used[1])}`
      if (!names.includes(name)) return `there is no contact "${name}" (${names.join(', ')})`
      return names.includes('Katherine Johnson')
        ? 'the recorded contact Katherine Johnson was added'
        : null
    },
  },
}
