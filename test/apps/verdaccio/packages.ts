import type { Workflow } from '../types'
import { getJson, namesIn, orThrow, parsed } from './answers'
import { PRIVATE_PACKAGE } from './seed'

/** The sidebar answer of a package page: every version, and the one shown as `latest`. */
interface Sidebar {
  versions?: Record<string, { name?: string; description?: string }>
  latest?: { name?: string; version?: string; description?: string }
}

const sidebarPath = (name: string) => `/-/verdaccio/data/sidebar/${encodeURIComponent(name)}`

/** What each package's page says (the seed's descriptions), to check a detail answer by. */
const DESCRIPTIONS: Record<string, string> = {
  'tidy-csv': 'Parse and tidy CSV files',
  'lunar-phase': 'Phase of the moon for a given date',
  'lunar-calendar': 'Lunisolar calendar conversions',
}

/** Clicks a package in the home page's list and waits for its page (readme and sidebar). */
export const packageDetail: Workflow = {
  id: 'package_detail',
  intent: 'show the details of the tidy-csv package',
  rewordings: {
    terse: 'tidy-csv package info',
    chatty: "What can you tell me about the tidy-csv package in our registry? I'd like its details",
    withoutValue: 'show the details of a package in the registry',
  },
  startPath: '/',
  signedIn: false,
  async play(page) {
    await page.getByRole('link', { name: 'tidy-csv', exact: true }).first().click()
    await page.waitForURL('**/-/web/detail/tidy-csv')
    await page.getByText('Reads messy CSV').waitFor()
    await page.getByText('Parse and tidy CSV files').first().waitFor()
  },
  key: {
    target: { method: 'GET', path: sidebarPath('tidy-csv') },
    inputs: [{ recorded: 'tidy-csv', changed: ['lunar-phase', 'lunar-calendar'] }],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const name = String(this.inputs[0]!.changed[0])
      const result = await getJson((p) => app.fetch(p, { session }), sidebarPath(name))
      orThrow(await this.check(app, { status: 'succeeded', result }, session, [name]))
    },
    async check(_app, run, _session, used) {
      const name = String(used[0])
      const sidebar = parsed(run.result) as Sidebar | null
      const latest = sidebar?.latest
      return latest?.name === name && latest.description === DESCRIPTIONS[name]
        ? null
        : `the answer describes ${latest?.name ?? 'nothing'}, not ${name}`
    },
  },
}

/**
 * Opens lunar-phase, its Versions tab, and the older release 1.1.0 in it: the page of one
 * version asks for the sidebar with `?v=<version>`.
 */
export const openOldVersion: Workflow = {
  id: 'open_old_version',
  intent: 'show version 1.1.0 of the lunar-phase package',
  rewordings: {
    terse: 'lunar-phase@1.1.0',
    chatty:
      'Could you pull up the older 1.1.0 release of lunar-phase for me? I need to see what it was',
    withoutValue: 'show an older version of a package',
  },
  startPath: '/',
  signedIn: false,
  async play(page) {
    await page.getByRole('link', { name: 'lunar-phase', exact: true }).first().click()
    await page.waitForURL('**/-/web/detail/lunar-phase')
    await page.getByRole('tab', { name: 'Versions' }).click()
    await page.getByRole('link', { name: '1.1.0', exact: true }).click()
    await page.waitForURL('**/-/web/detail/lunar-phase/v/1.1.0')
    await page.getByText('npm install lunar-phase@1.1.0', { exact: true }).waitFor()
  },
  key: {
    target: {
      method: 'GET',
      path: sidebarPath('lunar-phase'),
      operation: { field: 'v', value: '1.1.0' },
    },
    inputs: [
      { recorded: 'lunar-phase', changed: ['tidy-csv', 'lunar-calendar'] },
      { recorded: '1.1.0', changed: ['2.0.3', '0.4.1'] },
    ],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const used = this.inputs.map((i) => i.changed[0])
      const path = `${sidebarPath(String(used[0]))}?v=${encodeURIComponent(String(used[1]))}`
      const result = await getJson((p) => app.fetch(p, { session }), path)
      orThrow(await this.check(app, { status: 'succeeded', result }, session, used))
    },
    async check(_app, run, _session, used) {
      const latest = (parsed(run.result) as Sidebar | null)?.latest
      return latest?.name === String(used[0]) && latest.version === String(used[1])
        ? null
        : `the answer shows ${latest?.name ?? '?'}@${latest?.version ?? '?'}, not ${used.join('@')}`
    },
  },
}

/**
 * Signed in, opens the home page: the package list now holds the private `@team` package, which
 * Verdaccio only lists for a request with the user's JWT.
 */
export const listPackagesSignedIn: Workflow = {
  id: 'list_packages_signed_in',
  intent: 'list all packages in our npm registry, including the private team ones',
  rewordings: {
    terse: 'all registry packages incl. private',
    chatty:
      "I'm signed in to Verdaccio, can you give me the full list of packages, private ones too?",
    withoutValue: 'list the packages in the registry',
  },
  startPath: '/',
  signedIn: true,
  async play(page) {
    // The home page loads the list on open; the person waits until it shows the private one.
    await page.getByRole('link', { name: PRIVATE_PACKAGE.name, exact: true }).first().waitFor()
    await page.getByRole('link', { name: 'tidy-csv', exact: true }).first().waitFor()
  },
  key: {
    target: { method: 'GET', path: '/-/verdaccio/data/packages' },
    inputs: [],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const result = await getJson((p) => app.fetch(p, { session }), '/-/verdaccio/data/packages')
      orThrow(await this.check(app, { status: 'succeeded', result }, session, []))
    },
    async check(_app, run) {
      const names = namesIn(run.result)
      return names.includes(PRIVATE_PACKAGE.name) && names.includes('tidy-csv')
        ? null
        : `the list holds [${names.join(', ')}]: the private ${PRIVATE_PACKAGE.name} is missing`
    },
  },
}
