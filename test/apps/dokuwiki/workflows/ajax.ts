/**
 * DokuWiki reads through `lib/exe/ajax.php`, where a form field `call=` names the operation: the
 * quick search under the header's search box (`call=qsearch&q=...`) and the sitemap's namespace
 * tree (`call=index&idx=<namespace>`). Both answer an HTML fragment of links.
 */
import type { Workflow } from '../../types'
import { mustPass, resultHolds } from '../keys'

/** Posts an ajax.php call as the page's jQuery does (a urlencoded form) and returns the text. */
async function ajaxCall(
  app: Parameters<Workflow['play']>[1],
  fields: Record<string, string>,
): Promise<string> {
  const res = await app.fetch('/lib/exe/ajax.php', {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded; charset=UTF-8',
      'x-requested-with': 'XMLHttpRequest',
    },
    body: new URLSearchParams(fields),
  })
  const text = await res.text()
  if (res.status !== 200) throw new Error(`ajax.php call=${fields['call']} answered ${res.status}`)
  return text
}

/** For each term the quick search may be called with: a page id only its suggestions list. */
const QUICK_EXPECT: Record<string, string> = {
  office: 'projects:office_move',
  contacts: 'team:contacts',
  retro: 'archive:2024-retro',
}

/**
 * Types a part of a page name into the search box and reads the suggestions the quick search
 * shows under it, without pressing Enter.
 */
export const quickSearch: Workflow = {
  id: 'quick_search',
  intent: 'which wiki pages have office in their name?',
  rewordings: {
    terse: 'page names with office',
    chatty:
      "I can't remember the exact page name, it had 'office' in it, can you list the matches?",
    withoutValue: 'find wiki pages by part of their name',
  },
  startPath: '/doku.php?id=start',
  signedIn: false,
  async play(page) {
    const box = page.locator('#qsearch__in')
    await box.click()
    await box.pressSequentially('office', { delay: 80 })
    await page.locator('#qsearch__out').getByText('office_move').waitFor()
  },
  key: {
    target: {
      method: 'POST',
      path: '/lib/exe/ajax.php',
      operation: { field: 'call', value: 'qsearch' },
    },
    inputs: [{ recorded: 'office', changed: ['contacts', 'retro'] }],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const term = 'contacts'
      const html = await ajaxCall(app, { call: 'qsearch', q: term })
      mustPass(
        await quickSearch.key.check(app, { status: 'succeeded', result: html }, session, [term]),
      )
    },
    async check(_app, run, _session, used) {
      return resultHolds(
        run.result,
        QUICK_EXPECT,
        used[0],
        'term',
        (want, value) => `the suggestions do not list ${want} for ${value}`,
      )
    },
  },
}

/** For each namespace the listing may be called with: a page only that namespace holds. */
const NAMESPACE_EXPECT: Record<string, string> = {
  meetings: 'meetings:2026-11-20',
  projects: 'projects:office_move',
  team: 'team:contacts',
}

/** Opens the sitemap and expands the `meetings` namespace to see its pages. */
export const listNamespace: Workflow = {
  id: 'list_namespace',
  intent: 'list the pages in the meetings namespace of the wiki',
  rewordings: {
    terse: 'pages in meetings',
    chatty: 'what pages do we have under meetings on the wiki? just show me the list',
    withoutValue: 'list the pages of a wiki namespace',
  },
  startPath: '/doku.php?id=start',
  signedIn: true,
  async play(page) {
    await page.getByRole('link', { name: 'Sitemap' }).first().click()
    await page.waitForURL(/do=index/)
    await page.getByRole('link', { name: 'meetings', exact: true }).click()
    await page.getByRole('link', { name: '2026-11-20', exact: true }).waitFor()
  },
  key: {
    target: {
      method: 'POST',
      path: '/lib/exe/ajax.php',
      operation: { field: 'call', value: 'index' },
    },
    inputs: [{ recorded: 'meetings', changed: ['projects', 'team'] }],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const ns = 'projects'
      const html = await ajaxCall(app, { id: 'start', idx: ns, call: 'index' })
      mustPass(
        await listNamespace.key.check(app, { status: 'succeeded', result: html }, session, [ns]),
      )
    },
    async check(_app, run, _session, used) {
      return resultHolds(
        run.result,
        NAMESPACE_EXPECT,
        used[0],
        'namespace',
        (want, value) => `the listing does not hold ${want} for ${value}`,
      )
    },
  },
}
