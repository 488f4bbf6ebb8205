/**
 * PostfixAdmin reads: the virtual list of one domain (a GET of `list-virtual.php?domain=` sent by
 * the domain dropdown, which submits itself on change), the search box (a POST of `search[_]` to
 * `list-virtual.php`), and the domain list (`list.php?table=domain`, nothing typed).
 */
import type { Workflow } from '../../types'
import { mustPass, resultText } from '../keys'

/** A mailbox each domain holds and no other domain's page shows. */
const DOMAIN_MAILBOX: Record<string, string> = {
  'globex.test': 'trent@globex.test',
  'acme.test': 'ivan@acme.test',
  'example.org': 'frank@example.org',
}

/** Picks globex.test in the domain dropdown of the virtual list and waits for its mailboxes. */
export const listDomainMailboxes: Workflow = {
  id: 'list_domain_mailboxes',
  intent: 'list the mailboxes of the domain globex.test',
  rewordings: {
    terse: 'mailboxes globex.test',
    chatty: 'could you show me all the mailboxes we have set up under globex.test?',
    withoutValue: 'list the mailboxes of one of my mail domains',
  },
  startPath: '/list-virtual.php',
  signedIn: true,
  async play(page) {
    await Promise.all([
      page.waitForURL(/domain=globex\.test/),
      page.locator('select[name="domain"]').selectOption('globex.test'),
    ])
    await page.getByText('trent@globex.test').first().waitFor()
  },
  key: {
    target: { method: 'GET', path: '/list-virtual.php' },
    inputs: [{ recorded: 'globex.test', changed: ['acme.test', 'example.org'] }],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const res = await app.fetch('/list-virtual.php?domain=acme.test&limit=0', { session })
      const html = await res.text()
      mustPass(
        await listDomainMailboxes.key.check(app, { status: 'succeeded', result: html }, session, [
          'acme.test',
        ]),
      )
    },
    async check(_app, run, _session, used) {
      const want = DOMAIN_MAILBOX[String(used[0])]
      if (!want) return `no expectation for the domain ${String(used[0])}`
      const text = resultText(run.result)
      if (!text.includes(want)) return `the result does not list ${want}`
      // The recorded domain's page would pass a lazy check: its mailboxes must not be there.
      if (String(used[0]) !== 'globex.test' && text.includes('trent@globex.test'))
        return 'the result lists globex.test mailboxes (the recorded domain)'
      return null
    },
  },
}

/** Full name each search term finds (search matches addresses and names over all domains). */
const SEARCH_FINDS: Record<string, string> = {
  carol: 'Carol Cole',
  heidi: 'Heidi Hill',
  judy: 'Judy Jones',
}

/** Types a name in the search box of the virtual list and presses Enter. */
export const searchMailboxes: Workflow = {
  id: 'search_mailboxes',
  intent: "search the mailboxes for 'carol'",
  rewordings: {
    terse: 'find mailbox carol',
    chatty: "I'm looking for carol's mailbox, can you search for 'carol' across our mail domains?",
    withoutValue: 'search the mailboxes and aliases for a name',
  },
  startPath: '/list-virtual.php',
  signedIn: true,
  async play(page) {
    const box = page.locator('input[name="search[_]"]')
    await box.click()
    await box.fill('carol')
    await Promise.all([page.waitForLoadState('domcontentloaded'), box.press('Enter')])
    await page.getByText('Carol Cole').first().waitFor()
  },
  key: {
    target: { method: 'POST', path: '/list-virtual.php' },
    inputs: [{ recorded: 'carol', changed: ['heidi', 'judy'] }],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const res = await app.fetch('/list-virtual.php', {
        method: 'POST',
        session,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ 'search[_]': 'heidi' }),
      })
      mustPass(
        await searchMailboxes.key.check(
          app,
          { status: 'succeeded', result: await res.text() },
          session,
          ['heidi'],
        ),
      )
    },
    async check(_app, run, _session, used) {
      const want = SEARCH_FINDS[String(used[0])]
      if (!want) return `no expectation for the term ${String(used[0])}`
      const text = resultText(run.result)
      if (!text.includes(want)) return `the result does not show ${want}`
      if (String(used[0]) !== 'carol' && text.includes('Carol Cole'))
        return "the result shows Carol Cole (the recorded search's hit)"
      return null
    },
  },
}

/** Opens the domain list from the menu: a read with nothing typed. */
export const listDomains: Workflow = {
  id: 'list_domains',
  intent: 'list my mail domains',
  rewordings: {
    terse: 'domains',
    chatty: 'which mail domains do we host in PostfixAdmin right now? show me the list please',
    withoutValue: 'show all the domains',
  },
  startPath: '/main.php',
  signedIn: true,
  async play(page) {
    // The menu heads are dropdown toggles (role=button); the item opens the list.
    await page.getByRole('button', { name: 'Domain List' }).click()
    await page.getByRole('link', { name: 'Domain List' }).click()
    await page.waitForURL(/list\.php\?table=domain/)
    await page.getByText('Acme Corp').waitFor()
  },
  key: {
    target: { method: 'GET', path: '/list.php', operation: { field: 'table', value: 'domain' } },
    inputs: [],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const res = await app.fetch('/list.php?table=domain', { session })
      mustPass(
        await listDomains.key.check(
          app,
          { status: 'succeeded', result: await res.text() },
          session,
          [],
        ),
      )
    },
    async check(_app, run) {
      const text = resultText(run.result)
      const missing = ['acme.test', 'example.org', 'globex.test', 'Acme Corp'].filter(
        (d) => !text.includes(d),
      )
      return missing.length ? `the result lacks ${missing.join(', ')}` : null
    },
  },
}
