/**
 * CUPS workflows that only read: the search box of the printer list (a GET form,
 * `/printers/?QUERY=<text>`), and the Jobs tab (`/jobs/`, the active jobs, nothing typed).
 */
import { resultText } from '../../match'
import type { Workflow } from '../../types'
import { openTab, pressButton, typeInto } from '../person'
import { JOBS, PRINTERS } from '../seed'
import { getText, mustPass } from '../session'

/** The queue each search word finds (its name, description or location holds the word). */
const FOUND_BY: Record<string, string> = {
  lobby: 'lobby-color',
  warehouse: 'warehouse-labels',
  finance: 'finance-mono',
}

/** A word boundary that treats `-` as part of a queue's name (`office-laser`, not `laser`). */
function mentions(text: string, name: string): boolean {
  return new RegExp(`(^|[^\\w-])${name}($|[^\\w-])`).test(text)
}

/**
 * Opens the Printers tab, types a word in "Search in Printers" and presses Search: the list then
 * holds only the queues whose name, description or location matches.
 */
export const searchPrinters: Workflow = {
  id: 'search_printers',
  intent: 'search the CUPS printers for lobby',
  rewordings: {
    terse: 'cups printer search lobby',
    chatty:
      "I can never remember what the printer near the front desk is called, can you look up the printers that mention 'lobby' in CUPS?",
    withoutValue: 'search the printers in CUPS by a word',
  },
  startPath: '/',
  signedIn: false,
  async play(page) {
    await openTab(page, 'Printers')
    await typeInto(page, 'QUERY', 'lobby')
    await pressButton(page, 'Search')
    await page.waitForURL(/QUERY=lobby/)
    await page.locator('table.list').getByRole('link', { name: 'lobby-color' }).waitFor()
  },
  key: {
    target: { method: 'GET', path: '/printers/' },
    inputs: [{ recorded: 'lobby', changed: ['warehouse', 'finance'] }],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const word = 'warehouse'
      const html = await getText(app, `/printers/?QUERY=${word}`)
      mustPass(
        await searchPrinters.key.check(app, { status: 'succeeded', result: html }, session, [word]),
      )
    },
    async check(_app, run, _session, used) {
      const word = String(used[0])
      const want = FOUND_BY[word]
      if (!want) return `no seeded printer is found by ${word}`
      const text = resultText(run.result)
      if (!mentions(text, want)) return `the answer does not list ${want}`
      const others = PRINTERS.filter((p) => p.name !== want && mentions(text, p.name))
      return others.length
        ? `the answer also lists ${others.map((p) => p.name).join(', ')}: not the search for ${word}`
        : null
    },
  },
}

/**
 * Titles of jobs no write workflow touches: they are listed as active on every start and after
 * every other workflow's run.
 */
const STEADY_JOBS = [4, 5, 6, 8].map((id) => JOBS.find((j) => j.id === id)!.title)

/** Opens the Jobs tab: the active jobs (held and pending ones), nothing typed. */
export const listJobs: Workflow = {
  id: 'list_jobs',
  intent: 'list the print jobs waiting in CUPS',
  rewordings: {
    terse: 'cups active jobs',
    chatty:
      "what's sitting in the print queues right now? show me the CUPS jobs that haven't printed yet",
    withoutValue: 'show the CUPS job queue',
  },
  startPath: '/',
  signedIn: false,
  async play(page) {
    await openTab(page, 'Jobs')
    await page.getByText('Quarterly report').waitFor()
  },
  key: {
    target: { method: 'GET', path: '/jobs/' },
    inputs: [],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const html = await getText(app, '/jobs/')
      mustPass(await listJobs.key.check(app, { status: 'succeeded', result: html }, session, []))
    },
    async check(_app, run) {
      const text = resultText(run.result)
      const missing = STEADY_JOBS.filter((t) => !text.includes(t))
      return missing.length ? `the answer does not list the jobs ${missing.join(', ')}` : null
    },
  },
}
