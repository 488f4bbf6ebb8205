/**
 * The manage page's file actions on the journal. Edit shows the whole file in one textarea and
 * posts it back urlencoded to `/edit/<path>` (`_formid=identify-edit`, `_token`, `f1` = the
 * file's new text, with the browser's CRLF line ends); Upload posts a chosen file as multipart
 * to `/upload/<path>` (`_formid=identify-upload`, `_token`, `file`). Both overwrite the journal
 * and answer 303. `<path>` is the journal's absolute path, the same on every start.
 */
import type { Workflow } from '../../types'
import {
  addByHand,
  fileAction,
  journalText,
  mustPass,
  pageOf,
  postForm,
  tokenOf,
  transactions,
} from '../keys'
import { openManage } from '../person'
import {
  JOURNAL_SEGMENT,
  OTHER_JOURNAL,
  SEED_JOURNAL,
  UPLOAD_MARKERS,
  UPLOADED_JOURNAL,
} from '../seed'

/** The price directive the person appends to the journal in the editor. */
const PRICE_LINE = 'P 2026-03-31 USD 0.92 EUR'

/** The journal's text with `line` appended, as a browser posts a textarea (CRLF line ends). */
function withLine(line: string): string {
  return `${SEED_JOURNAL}${line}\n`.replace(/\n/g, '\r\n')
}

/** The wrench button, Edit, then a new last line typed at the end of the file; Save. */
export const editJournal: Workflow = {
  id: 'edit_journal',
  intent: `open my journal file in hledger-web's editor and append the price line '${PRICE_LINE}'`,
  rewordings: {
    terse: `append ${PRICE_LINE} to main.journal`,
    chatty: `The dollar was at 0.92 euro at the end of March, could you add '${PRICE_LINE}' at the bottom of my journal file?`,
    withoutValue: 'edit my journal file',
  },
  startPath: '/journal',
  signedIn: true,
  async play(page) {
    await openManage(page)
    await page.getByRole('link', { name: 'Edit', exact: true }).click()
    await page.waitForURL(/\/edit\//)
    const text = page.locator('textarea[name=f1]')
    await text.click()
    await text.press('Control+End')
    await text.pressSequentially(`${PRICE_LINE}\n`, { delay: 20 })
    const saved = page.waitForResponse((r) => r.request().method() === 'POST')
    await page.getByRole('button', { name: 'Save' }).click()
    await saved
    await page.waitForLoadState('load')
  },
  key: {
    target: fileAction('POST', 'edit'),
    inputs: [
      {
        recorded: withLine(PRICE_LINE),
        changed: [withLine('P 2026-03-31 GBP 1.17 EUR'), withLine('P 2026-03-31 CHF 1.06 EUR')],
      },
    ],
    dependencies: [fileAction('GET', 'edit')],
    mutating: true,
    async replayByHand(app, session) {
      const path = `/edit/${JOURNAL_SEGMENT}`
      const token = tokenOf(await pageOf(app, session, path))
      const f1 = withLine('P 2026-03-31 GBP 1.17 EUR')
      await postForm(
        app,
        session,
        path,
        new URLSearchParams({ _formid: 'identify-edit', _token: token, f1 }),
      )
      mustPass(
        await editJournal.key.check(app, { status: 'succeeded', result: null }, session, [f1]),
      )
    },
    async check(app, _run, session, used) {
      const line = /P 2026-03-31 [A-Z]{3} [\d.]+ EUR/.exec(String(used[0]))?.[0]
      if (!line) return 'the changed text holds no price line'
      const text = (await journalText(app, session)).replace(/\r\n/g, '\n')
      if (!text.includes(line)) return `the journal file lacks "${line}"`
      if (text.includes(PRICE_LINE)) return `the journal file holds the recorded "${PRICE_LINE}"`
      if (!text.includes('2026-02-14 Sushi Bar Kaito')) return 'the rest of the journal is gone'
      return null
    },
  },
}

/**
 * Added after each upload's check: a transaction only the journal on the server holds, so the
 * next check can tell a new upload (which replaces the file and drops it) from the last one.
 */
const SENTINEL = 'Upload check sentinel'

/** The wrench button, Upload, picks the file from disk, Upload. */
export const uploadJournal: Workflow = {
  id: 'upload_journal',
  intent: 'replace my hledger journal by uploading the file main-2026-q1.journal',
  rewordings: {
    terse: 'upload main-2026-q1.journal',
    chatty:
      'I fixed my books offline in main-2026-q1.journal, could you upload it to hledger-web so it replaces the journal there?',
    withoutValue: 'upload a journal file to hledger-web',
  },
  startPath: '/journal',
  signedIn: true,
  async play(page) {
    await openManage(page)
    await page.getByRole('link', { name: 'Upload', exact: true }).click()
    await page.waitForURL(/\/upload\//)
    await page.locator('#file').setInputFiles({
      name: 'main-2026-q1.journal',
      mimeType: 'application/octet-stream',
      buffer: Buffer.from(UPLOADED_JOURNAL),
    })
    const saved = page.waitForResponse((r) => r.request().method() === 'POST')
    await page.getByRole('button', { name: 'Upload' }).click()
    await saved
    await page.waitForLoadState('load')
  },
  key: {
    target: fileAction('POST', 'upload'),
    inputs: [],
    dependencies: [fileAction('GET', 'upload')],
    mutating: true,
    file: OTHER_JOURNAL,
    async replayByHand(app, session) {
      const path = `/upload/${JOURNAL_SEGMENT}`
      const token = tokenOf(await pageOf(app, session, path))
      const body = new FormData()
      body.append('_formid', 'identify-upload')
      body.append('_token', token)
      body.append('file', new Blob([new TextDecoder().decode(OTHER_JOURNAL)]), 'other.journal')
      await postForm(app, session, path, body)
      mustPass(
        await uploadJournal.key.check(app, { status: 'succeeded', result: null }, session, []),
      )
    },
    async check(app, _run, session) {
      const descriptions = new Set((await transactions(app)).map((t) => t.tdescription))
      if (!UPLOAD_MARKERS.some((m) => descriptions.has(m)))
        return `the journal holds neither uploaded file (${UPLOAD_MARKERS.join(', ')})`
      if (descriptions.has(SENTINEL)) return 'the journal was not replaced since the last upload'
      if (!descriptions.has('Sushi Bar Kaito')) return 'the journal lost the seeded transactions'
      await addByHand(app, session, '2026-03-31', SENTINEL, [
        ['expenses:household', '1.00 EUR'],
        ['assets:cash', ''],
      ])
      return null
    },
  },
}
