/**
 * URL patterns of user.action, in the action file editor (`/edit-actions-list?f=2`, opened with
 * Edit in user.action's row of the status page). Each section has an Add link and each pattern
 * Edit and Remove links; their scripts ask with a prompt or a confirm and then follow
 * `edit-actions-add-url?f=2&v=<v>&s=<section line>&u=<pattern>`,
 * `edit-actions-url?f=2&v=<v>&p=<pattern line>&u=<new pattern>` or
 * `edit-actions-remove-url?f=2&v=<v>&p=<pattern line>`: GETs that change the file, answered by a
 * 302 to the list. `v` is the file's modification time (a write with another one gets the
 * "file was modified" page), so it is read from the list first, with the line numbers, which
 * shift as lines come and go. The editor's pages want a Referer from the interface (session.ts).
 */
import type { Workflow } from '../../types'
import {
  EDITOR_LIST,
  allPatterns,
  mustPass,
  readActionFile,
  sectionBlocking,
  sectionWith,
} from '../keys'
import { openActionFile, patternRow, sectionBox, writeThroughDialog } from '../person'
import { editorGet } from '../session'

/** A write by hand: reads the list for `v` and the lines, then GETs the write with a Referer. */
async function write(app: Parameters<typeof editorGet>[0], path: string): Promise<void> {
  const res = await editorGet(app, path)
  await res.arrayBuffer()
  if (res.status !== 302) throw new Error(`GET ${path} answered ${res.status}, not a redirect`)
}

/** In the "Tracking and ad servers." section, Add, types the host, OK. */
export const blockSite: Workflow = {
  id: 'block_site',
  intent:
    "block tracker.newsletters.test in Privoxy's user.action, with the tracking and ad servers",
  rewordings: {
    terse: 'privoxy block tracker.newsletters.test',
    chatty:
      "Those newsletter emails keep pinging tracker.newsletters.test, can you add it to Privoxy's tracking and ad servers block list?",
    withoutValue: 'add a site to the Privoxy tracking block list',
  },
  startPath: '/show-status',
  signedIn: false,
  async play(page, app) {
    await openActionFile(page, 'user.action', 'Edit')
    const add = sectionBox(page, 'Tracking and ad servers.').getByRole('link', {
      name: 'Add',
      exact: true,
    })
    await writeThroughDialog(
      page,
      app,
      'edit-actions-add-url',
      () => add.click(),
      'tracker.newsletters.test',
    )
    await patternRow(page, 'tracker.newsletters.test').waitFor()
  },
  key: {
    target: { method: 'GET', path: '/edit-actions-add-url' },
    inputs: [
      {
        recorded: 'tracker.newsletters.test',
        changed: ['pixel.mailopen.test', '.clicktrack-mail.test'],
      },
    ],
    // The file's version v and the section's line s.
    dependencies: [EDITOR_LIST],
    mutating: true,
    async replayByHand(app, session) {
      const file = await readActionFile(app)
      const s = sectionBlocking(file, 'Tracking and ad servers.')!.s
      await write(app, `/edit-actions-add-url?f=2&v=${file.v}&s=${s}&u=pixel.mailopen.test`)
      mustPass(
        await blockSite.key.check(app, { status: 'succeeded', result: null }, session, [
          'pixel.mailopen.test',
        ]),
      )
    },
    async check(app, _run, _session, used) {
      const file = await readActionFile(app)
      const pattern = String(used[0])
      const section = sectionWith(file, pattern)
      if (!section) return `user.action has no pattern ${pattern}`
      if (!section.actions.includes('+block{Tracking and ad servers.}'))
        return `${pattern} went to the section of ${section.actions.join(' ')}`
      if (allPatterns(file).includes('tracker.newsletters.test'))
        return 'the recorded pattern tracker.newsletters.test was added'
      return null
    },
  },
}

/** In the unblocking (`-block`) section, Add, types the host, OK. */
export const allowSite: Workflow = {
  id: 'allow_site',
  intent:
    'make Privoxy stop blocking wiki.partner.test by adding it to the -block section of user.action',
  rewordings: {
    terse: 'privoxy unblock wiki.partner.test',
    chatty:
      "Our partner's wiki at wiki.partner.test gets blocked by Privoxy, could you put it in the section of user.action that turns blocking off?",
    withoutValue: 'add a site to the Privoxy allowlist',
  },
  startPath: '/show-status',
  signedIn: false,
  async play(page, app) {
    await openActionFile(page, 'user.action', 'Edit')
    const box = page.locator('table.framed', {
      has: page.locator('td.action', { hasText: /^-block$/ }),
    })
    const add = box.getByRole('link', { name: 'Add', exact: true })
    await writeThroughDialog(
      page,
      app,
      'edit-actions-add-url',
      () => add.click(),
      'wiki.partner.test',
    )
    await patternRow(page, 'wiki.partner.test').waitFor()
  },
  key: {
    target: { method: 'GET', path: '/edit-actions-add-url' },
    inputs: [{ recorded: 'wiki.partner.test', changed: ['docs.partner.test', 'crm.partner.test'] }],
    dependencies: [EDITOR_LIST],
    mutating: true,
    async replayByHand(app, session) {
      const file = await readActionFile(app)
      const s = file.sections.find((x) => x.actions.join(' ') === '-block')!.s
      await write(app, `/edit-actions-add-url?f=2&v=${file.v}&s=${s}&u=docs.partner.test`)
      mustPass(
        await allowSite.key.check(app, { status: 'succeeded', result: null }, session, [
          'docs.partner.test',
        ]),
      )
    },
    async check(app, _run, _session, used) {
      const file = await readActionFile(app)
      const pattern = String(used[0])
      const section = sectionWith(file, pattern)
      if (!section) return `user.action has no pattern ${pattern}`
      if (section.actions.join(' ') !== '-block')
        return `${pattern} went to the section of ${section.actions.join(' ')}`
      if (allPatterns(file).includes('wiki.partner.test'))
        return 'the recorded pattern wiki.partner.test was added'
      return null
    },
  },
}

/** Edit on the row of wiki.corp.test, types the new pattern over the old one, OK. */
export const renamePattern: Workflow = {
  id: 'rename_pattern',
  intent: 'in Privoxy user.action, change the pattern wiki.corp.test to wiki.corp.example',
  rewordings: {
    terse: 'privoxy rename pattern wiki.corp.test wiki.corp.example',
    chatty:
      'The wiki moved to wiki.corp.example last week, can you update the old wiki.corp.test entry in the Privoxy user.action file?',
    withoutValue: 'edit a URL pattern in Privoxy user.action',
  },
  startPath: '/show-status',
  signedIn: false,
  async play(page, app) {
    await openActionFile(page, 'user.action', 'Edit')
    const edit = patternRow(page, 'wiki.corp.test').getByRole('link', { name: 'Edit', exact: true })
    await writeThroughDialog(page, app, 'edit-actions-url', () => edit.click(), 'wiki.corp.example')
    await patternRow(page, 'wiki.corp.example').waitFor()
  },
  key: {
    target: { method: 'GET', path: '/edit-actions-url' },
    inputs: [
      // The row the person picked, by its pattern (the request names its line p).
      { recorded: 'wiki.corp.test', changed: ['git.corp.test', 'jira.corp.test'] },
      { recorded: 'wiki.corp.example', changed: ['git.corp.example', 'jira.corp.example'] },
    ],
    dependencies: [EDITOR_LIST],
    mutating: true,
    async replayByHand(app, session) {
      const file = await readActionFile(app)
      const p = sectionWith(file, 'git.corp.test')!.patterns.find(
        (x) => x.pattern === 'git.corp.test',
      )!.p
      await write(app, `/edit-actions-url?f=2&v=${file.v}&p=${p}&u=git.corp.example`)
      mustPass(
        await renamePattern.key.check(app, { status: 'succeeded', result: null }, session, [
          'git.corp.test',
          'git.corp.example',
        ]),
      )
    },
    async check(app, _run, _session, used) {
      const file = await readActionFile(app)
      const [old, renamed] = used.map(String) as [string, string]
      const patterns = allPatterns(file)
      if (patterns.includes(old)) return `${old} is still in user.action`
      const section = sectionWith(file, renamed)
      if (!section) return `user.action has no pattern ${renamed}`
      if (section.actions.join(' ') !== '-block') return `${renamed} is not in the -block section`
      if (patterns.includes('wiki.corp.example')) return 'the recorded wiki.corp.example is there'
      if (!patterns.includes('wiki.corp.test'))
        return 'wiki.corp.test, the recorded row, was changed'
      return null
    },
  },
}

/** Remove on the row of miner.webmining.test, OK in the confirm. */
export const removePattern: Workflow = {
  id: 'remove_pattern',
  intent: 'remove miner.webmining.test from Privoxy user.action',
  rewordings: {
    terse: 'privoxy delete pattern miner.webmining.test',
    chatty:
      "miner.webmining.test got cleaned up and isn't a miner anymore, could you take it out of the Privoxy user.action rules?",
    withoutValue: 'delete a URL pattern from Privoxy user.action',
  },
  startPath: '/show-status',
  signedIn: false,
  async play(page, app) {
    await openActionFile(page, 'user.action', 'Edit')
    const remove = patternRow(page, 'miner.webmining.test').getByRole('link', {
      name: 'Remove',
      exact: true,
    })
    await writeThroughDialog(page, app, 'edit-actions-remove-url', () => remove.click())
    await sectionBox(page, 'Crypto miners.').waitFor()
    await patternRow(page, 'miner.webmining.test').waitFor({ state: 'detached' })
  },
  key: {
    target: { method: 'GET', path: '/edit-actions-remove-url' },
    inputs: [
      {
        recorded: 'miner.webmining.test',
        changed: ['.doubleclick-cdn.test', 'beacon.statsnow.test'],
      },
    ],
    dependencies: [EDITOR_LIST],
    mutating: true,
    async replayByHand(app, session) {
      const file = await readActionFile(app)
      const p = sectionWith(file, '.doubleclick-cdn.test')!.patterns.find(
        (x) => x.pattern === '.doubleclick-cdn.test',
      )!.p
      await write(app, `/edit-actions-remove-url?f=2&v=${file.v}&p=${p}`)
      mustPass(
        await removePattern.key.check(app, { status: 'succeeded', result: null }, session, [
          '.doubleclick-cdn.test',
        ]),
      )
    },
    async check(app, _run, _session, used) {
      const patterns = allPatterns(await readActionFile(app))
      const pattern = String(used[0])
      if (patterns.includes(pattern)) return `${pattern} is still in user.action`
      if (!patterns.includes('miner.webmining.test'))
        return 'the recorded pattern miner.webmining.test was removed'
      if (!patterns.includes('ads.bannerfarm.test')) return 'ads.bannerfarm.test was removed too'
      return null
    },
  },
}
