/**
 * Workflows that change one download the person picks in the list. Every one ends in
 * `POST /jsonrpc` with `{"method": "editqueue", "params": [<command>, <argument>, [<NZBID>]]}`:
 * the command (`GroupPause`, `GroupSetPriority`...) and its argument sit in `params`, next to the
 * ids of the picked rows, which only `listgroups` (`GET /jsonrpc/listgroups`, polled every
 * second) gives for a name. Each answers `{"result": true}`, even for an id that is not in the
 * queue, so a key reads the queue back to see what happened.
 */
import type { Page } from 'playwright-core'
import type { AppInstance, RequestKey, Workflow } from '../../types'
import {
  downloadRow,
  openAnsweringLogin,
  openSignedIn,
  tickRow,
  toolbarButton,
  waitForStatus,
} from '../person'
import {
  call,
  groupNamed,
  groups,
  history,
  idOf,
  mustPass,
  poll,
  type Caller,
  type Group,
} from '../rpc'

/** `POST /jsonrpc` calling `method` (the web UI's writes). */
export const rpcTarget = (method: string): RequestKey => ({
  method: 'POST',
  path: '/jsonrpc',
  operation: { field: 'method', value: method },
})

/** `GET /jsonrpc/listgroups`: the download list, where a name's NZBID comes from. */
export const LISTGROUPS: RequestKey = { method: 'GET', path: '/jsonrpc/listgroups' }

/** What one row-action workflow is made of. */
interface RowAction {
  id: string
  intent: string
  rewordings: Workflow['rewordings']
  signedIn: boolean
  /** The row the person picks, then the two rows the working check uses instead. */
  row: string
  changed: [string, string]
  /** A second value the person picks (a priority, a category), with its two changed values. */
  value?: { recorded: string; changed: [string, string] }
  /** What the person does once the list is shown. */
  act(page: Page): Promise<void>
  /** The `editqueue` command and argument for `value` (the first changed one in a replay). */
  command(value: string | undefined): [string, string]
  /**
   * Whether the download `name` (its queue entry `row`, null when it left the queue) shows the
   * action done with `value`: null when it does, else what is wrong.
   */
  done(
    c: Caller,
    row: Group | null,
    name: string,
    value: string | undefined,
  ): Promise<string | null>
  /** What the recorded row must still look like on an instance where only a tool ran. */
  untouched(row: Group | null): string | null
}

/** Builds the workflow: open the list, do the action on the row, wait for the list to show it. */
function rowAction(spec: RowAction): Workflow {
  const open = spec.signedIn ? openSignedIn : openAnsweringLogin
  const workflow: Workflow = {
    id: spec.id,
    intent: spec.intent,
    rewordings: spec.rewordings,
    startPath: '/',
    signedIn: spec.signedIn,
    async play(page: Page, app: AppInstance) {
      await open(page, app)
      await spec.act(page)
    },
    key: {
      // Six workflows call `editqueue`: the command in its first argument tells them apart.
      target: {
        ...rpcTarget('editqueue'),
        operation: [
          { field: 'method', value: 'editqueue' },
          { field: 'params[0]', value: spec.command(spec.value?.recorded)[0] },
        ],
      },
      inputs: [{ recorded: spec.row, changed: spec.changed }, ...(spec.value ? [spec.value] : [])],
      // The NZBID behind the name the person clicked.
      dependencies: [LISTGROUPS],
      mutating: true,
      async replayByHand(app, session) {
        const c = { fetch: app.fetch, session }
        const row = spec.changed[0]
        const value = spec.value?.changed[0]
        const [command, argument] = spec.command(value)
        await call(c, 'editqueue', [command, argument, [await idOf(c, row)]])
        const used = value === undefined ? [row] : [row, value]
        mustPass(
          await workflow.key.check(app, { status: 'succeeded', result: null }, session, used),
        )
      },
      async check(app, _run, session, used) {
        const c = { fetch: app.fetch, session }
        const name = String(used[0])
        const value = used[1] === undefined ? undefined : String(used[1])
        // NZBGet applies an edit in its queue thread: give it a moment.
        let problem: string | null = 'not checked'
        await poll(async () => {
          problem = await spec.done(c, await groupNamed(c, name), name, value)
          return problem === null ? true : null
        })
        if (problem) return problem
        const recorded = spec.untouched(await groupNamed(c, spec.row))
        return recorded ? `${spec.row} (the recorded row) ${recorded}` : null
      },
    },
  }
  return workflow
}

/** "is PAUSED, not QUEUED" and the like, or null when `row` shows `status`. */
function statusProblem(row: Group | null, name: string, status: string): string | null {
  if (!row) return `${name} is not in the queue`
  return row.Status === status ? null : `${name} is ${row.Status}, not ${status}`
}

/** Ticks a queued download and presses Pause in the toolbar. */
export const pauseDownload = rowAction({
  id: 'pause_download',
  intent: 'pause the download Big Buck Bunny 2008 1080p BluRay x264 in NZBGet',
  rewordings: {
    terse: 'pause Big Buck Bunny 2008 1080p BluRay x264',
    chatty:
      'I need my bandwidth for a video call, can you pause Big Buck Bunny 2008 1080p BluRay x264 in NZBGet for now?',
    withoutValue: 'pause one of my NZBGet downloads',
  },
  signedIn: true,
  row: 'Big Buck Bunny 2008 1080p BluRay x264',
  changed: ['Sintel 2010 1080p BluRay x264', 'Tears of Steel 2012 1080p WEB-DL'],
  async act(page) {
    const name = 'Big Buck Bunny 2008 1080p BluRay x264'
    await tickRow(page, name)
    await toolbarButton(page, /^Pause selected/).click()
    await waitForStatus(page, name, 'PAUSED')
  },
  command: () => ['GroupPause', ''],
  done: async (_c, row, name) => statusProblem(row, name, 'PAUSED'),
  untouched: (row) => (row?.Status === 'QUEUED' ? null : `is ${row?.Status ?? 'gone'}, not QUEUED`),
})

/**
 * Clicks a paused download's status badge and picks Resume in its menu (signed out first: the
 * person answers the Basic login). The UI sends `GroupResume`, then `GroupPauseExtraPars` for
 * the same ids (it keeps the extra par2 volumes paused unless ParCheck is `force`), so the
 * target command is not the last `editqueue` of the recording.
 */
export const resumeDownload = rowAction({
  id: 'resume_download',
  intent: 'resume the paused download Night of the Living Dead 1968 720p BluRay in NZBGet',
  rewordings: {
    terse: 'resume Night of the Living Dead 1968 720p BluRay',
    chatty:
      'I paused Night of the Living Dead 1968 720p BluRay in NZBGet the other day and forgot about it, could you start it again?',
    withoutValue: 'resume a paused download in NZBGet',
  },
  signedIn: false,
  row: 'Night of the Living Dead 1968 720p BluRay',
  changed: ['Plan 9 from Outer Space 1957 720p BluRay', 'His Girl Friday 1940 720p BluRay'],
  async act(page) {
    const name = 'Night of the Living Dead 1968 720p BluRay'
    await downloadRow(page, name).locator('.label-status').click()
    await page.locator('#DownloadsActionsMenu').getByRole('link', { name: 'Resume' }).click()
    await waitForStatus(page, name, 'QUEUED')
  },
  command: () => ['GroupResume', ''],
  // With no news server a resumed download waits in the queue: QUEUED.
  done: async (_c, row, name) => statusProblem(row, name, 'QUEUED'),
  untouched: (row) => (row?.Status === 'PAUSED' ? null : `is ${row?.Status ?? 'gone'}, not PAUSED`),
})

/**
 * Ticks a download, presses Delete, and confirms with the dialog's default ("Move downloads to
 * history, keep already downloaded files"): `GroupParkDelete`. The download leaves the queue and
 * shows in the history as DELETED.
 */
export const deleteDownload = rowAction({
  id: 'delete_download',
  intent: 'delete the download The Cisco Kid S01E01 480p WEB from the NZBGet queue',
  rewordings: {
    terse: 'delete The Cisco Kid S01E01 480p WEB',
    chatty:
      "I don't want The Cisco Kid S01E01 480p WEB anymore, can you take it out of my NZBGet queue?",
    withoutValue: 'delete a download from the NZBGet queue',
  },
  signedIn: true,
  row: 'The Cisco Kid S01E01 480p WEB',
  changed: ['Bonanza S01E05 480p WEB', 'The Beverly Hillbillies S01E01 480p WEB'],
  async act(page) {
    const name = 'The Cisco Kid S01E01 480p WEB'
    await tickRow(page, name)
    await toolbarButton(page, /^Delete selected/).click()
    const dialog = page.locator('#ConfirmDialog')
    await dialog.getByText('How to delete selected downloads?').waitFor()
    await dialog.getByRole('link', { name: 'Delete', exact: true }).click()
    await downloadRow(page, name).waitFor({ state: 'detached' })
  },
  command: () => ['GroupParkDelete', ''],
  async done(c, row, name) {
    if (row) return `${name} is still in the queue (${row.Status})`
    const entry = (await history(c)).find((h) => h.Name === name)
    return entry?.Status.startsWith('DELETED')
      ? null
      : `${name} is not in the history as deleted (${entry?.Status ?? 'absent'})`
  },
  untouched: (row) => (row ? null : 'left the queue'),
})

/** Ticks a download and presses "Move to top": it becomes the first of the queue. */
export const moveToTop = rowAction({
  id: 'move_to_top',
  intent: 'move Dick Tracy S01E03 480p WEB to the top of the NZBGet queue',
  rewordings: {
    terse: 'top of queue: Dick Tracy S01E03 480p WEB',
    chatty:
      'Could you bump Dick Tracy S01E03 480p WEB to the very top of my NZBGet queue? I want to watch it tonight.',
    withoutValue: 'move a download to the top of the NZBGet queue',
  },
  signedIn: true,
  row: 'Dick Tracy S01E03 480p WEB',
  changed: ['Sherlock Holmes 1954 S01E02 480p WEB', 'Flash Gordon 1954 S01E01 480p WEB'],
  async act(page) {
    const name = 'Dick Tracy S01E03 480p WEB'
    await tickRow(page, name)
    await toolbarButton(page, /^Move selected nzb-files to the top/).click()
    await page
      .locator('#DownloadsTable tbody tr')
      .first()
      .getByRole('link', { name, exact: true })
      .waitFor()
  },
  // The UI sends the offset "0" with the command.
  command: () => ['GroupMoveTop', '0'],
  async done(c, row, name) {
    if (!row) return `${name} is not in the queue`
    const first = (await groups(c))[0]
    return first?.NZBName === name ? null : `the queue starts with ${first?.NZBName}, not ${name}`
  },
  // Not first (the changed row is), and still queued.
  untouched: (row) => (row ? null : 'left the queue'),
})

/** The priority menu's labels by the values NZBGet keeps. */
const PRIORITY_LABELS: Record<string, string> = {
  '900': 'Force',
  '100': 'Very High',
  '50': 'High',
  '0': 'Normal',
  '-50': 'Low',
  '-100': 'Very Low',
}

/** Clicks a download's priority icon (column P) and picks "Very High" in its menu. */
export const setPriority = rowAction({
  id: 'set_priority',
  intent: 'set the priority of Musopen Beethoven Symphony No 9 FLAC to very high in NZBGet',
  rewordings: {
    terse: 'very high priority Musopen Beethoven Symphony No 9 FLAC',
    chatty:
      'Hey, could you make Musopen Beethoven Symphony No 9 FLAC download before everything else? Give it very high priority in NZBGet.',
    withoutValue: "change a download's priority in NZBGet",
  },
  signedIn: true,
  row: 'Musopen Beethoven Symphony No 9 FLAC',
  changed: ['Kimiko Ishizaka Bach Goldberg Variations FLAC', 'Musopen Chopin Nocturnes FLAC'],
  // The menu's item "Very High" is the value 100 (High 50, Force 900).
  value: { recorded: '100', changed: ['50', '900'] },
  async act(page) {
    const row = downloadRow(page, 'Musopen Beethoven Symphony No 9 FLAC')
    await row.locator('td.priority-cell div[data-nzbid]').click()
    await page
      .locator('#PriorityMenu')
      .getByRole('link', { name: 'Very High', exact: true })
      .click()
    await row.locator('td.priority-cell [title="Very high priority"]').waitFor()
  },
  command: (value) => ['GroupSetPriority', String(value)],
  async done(_c, row, name, value) {
    if (!row) return `${name} is not in the queue`
    return String(row.MaxPriority) === value
      ? null
      : `${name} has priority ${row.MaxPriority} (${PRIORITY_LABELS[String(row.MaxPriority)] ?? '?'}), not ${value}`
  },
  untouched: (row) =>
    row?.MaxPriority === 0 ? null : `has priority ${row?.MaxPriority ?? 'gone'}, not 0 (Normal)`,
})

/**
 * Clicks a download's category cell and picks "Movies" in its menu: `GroupApplyCategory` (set
 * the category and apply its post-processing settings).
 */
export const setCategory = rowAction({
  id: 'set_category',
  intent: 'put the download Moby Dick 1956 720p WEB in the category Movies in NZBGet',
  rewordings: {
    terse: 'category Movies for Moby Dick 1956 720p WEB',
    chatty:
      'Moby Dick 1956 720p WEB ended up without a category in NZBGet, could you file it under Movies so it lands in the right folder?',
    withoutValue: 'change the category of a download in NZBGet',
  },
  signedIn: true,
  row: 'Moby Dick 1956 720p WEB',
  changed: ['Librivox Pride and Prejudice MP3', 'Ubuntu Noble Desktop amd64 ISO'],
  value: { recorded: 'Movies', changed: ['Audiobooks', 'Software'] },
  async act(page) {
    const row = downloadRow(page, 'Moby Dick 1956 720p WEB')
    // The category cell (the fifth) holds the menu's opener, "None" while there is none.
    await row.locator('td').nth(4).locator('div[data-nzbid]').click()
    await page
      .locator('#DownloadsCategoryMenu')
      .getByRole('link', { name: 'Movies', exact: true })
      .click()
    await row
      .locator('td')
      .nth(4)
      .filter({ hasText: /^Movies$/ })
      .waitFor()
  },
  command: (value) => ['GroupApplyCategory', String(value)],
  async done(_c, row, name, value) {
    if (!row) return `${name} is not in the queue`
    return row.Category === value ? null : `${name} is in category "${row.Category}", not ${value}`
  },
  untouched: (row) =>
    row?.Category === '' ? null : `is in category "${row?.Category ?? 'gone'}", not none`,
})
