import type { Page } from 'playwright-core'
import type { RequestKey, Workflow } from '../../types'
import { fieldValue } from '../http'
import type { StorageState } from '../../../../src/shared/trace'
import type { AppInstance } from '../../types'
import { judgeByHand, pageWithToken, postForm, readIssue, readIssues } from '../keys'
import { STATUS } from '../seed'

const NEW_SUBJECT = 'Checkout button overlaps the footer on phones'

/** Opens "New issue" from the project's issue list, types a subject and creates the issue. */
export const createIssue: Workflow = {
  id: 'create_issue',
  intent: `create a bug in the Website project titled "${NEW_SUBJECT}"`,
  rewordings: {
    terse: `new website bug: ${NEW_SUBJECT}`,
    chatty: `Please file a new bug in the Website project for me, the title should be "${NEW_SUBJECT}".`,
    withoutValue: 'create a bug in the Website project',
  },
  startPath: '/projects/website/issues',
  signedIn: true,
  async play(page) {
    await page.locator('#content').getByRole('link', { name: 'New issue' }).click()
    await page.waitForURL('**/projects/website/issues/new')
    await page.locator('#issue_subject').click()
    await page.locator('#issue_subject').pressSequentially(NEW_SUBJECT, { delay: 20 })
    await page.locator('#issue-form input[type=submit][name=commit]').click()
    await page
      .locator('#flash_notice')
      .getByText(/Issue #\d+ created/)
      .waitFor()
  },
  key: {
    // A multipart form post with the Rails authenticity_token of the new-issue page.
    target: { method: 'POST', path: '/projects/website/issues' },
    inputs: [
      {
        recorded: NEW_SUBJECT,
        changed: ['Pricing table misses the VAT note', 'Contact form sends every message twice'],
      },
    ],
    dependencies: [{ method: 'GET', path: '/projects/website/issues/new' }],
    mutating: true,
    async replayByHand(app, session) {
      const form = await pageWithToken(app, session, '/projects/website/issues/new')
      const res = await postForm(app, form.session, '/projects/website/issues', {
        authenticity_token: form.token,
        'issue[tracker_id]': '1',
        'issue[subject]': String(this.inputs[0]!.changed[0]),
        'issue[status_id]': String(STATUS.new),
        commit: 'Create',
      })
      if (res.status !== 302 || !/\/issues\/\d+$/.test(res.location))
        throw new Error(`the post answered ${res.status} ${res.location}`)
      await judgeByHand(this, app, session, res.body)
    },
    async check(app, _run, _session, used) {
      const issues = await readIssues(app, 'website')
      return issues.some((i) => i.subject === used[0])
        ? null
        : `no issue "${String(used[0])}" in the Website project`
    },
  },
}

/** Opens an issue's edit form (the "Edit" link of the issue page). */
async function openEditForm(page: Page): Promise<void> {
  await page.locator('#content .contextual').first().getByRole('link', { name: 'Edit' }).click()
  await page.locator('#issue-form').waitFor()
}

/** Submits the issue's edit form and waits for Redmine's "Successful update." */
async function submitEditForm(page: Page): Promise<void> {
  await page.locator('#issue-form input[type=submit][name=commit]').click()
  await page.locator('#flash_notice').getByText('Successful update.').waitFor()
}

/**
 * The issue edit form's post by hand: GET the issue page (token and lock_version), then
 * POST /issues/<id> with `_method=patch`, as Rails' form does.
 */
async function patchIssue(
  app: AppInstance,
  session: StorageState,
  id: number,
  fields: Record<string, string>,
): Promise<string> {
  const form = await pageWithToken(app, session, `/issues/${id}`)
  const res = await postForm(app, form.session, `/issues/${id}`, {
    _method: 'patch',
    authenticity_token: form.token,
    'issue[lock_version]': fieldValue(form.html, 'issue[lock_version]'),
    ...fields,
  })
  if (res.status !== 302 || !res.location.endsWith(`/issues/${id}`))
    throw new Error(`PATCH /issues/${id} answered ${res.status} ${res.location}`)
  return res.body
}

/**
 * The issue edit form's submit, the target of every edit of an issue: Rails' method override, a
 * POST whose form says _method=patch.
 */
const PATCH_ISSUE: RequestKey = {
  method: 'POST',
  path: /\/issues\/\d+/,
  operation: { field: '_method', value: 'patch' },
}

/** The issue page an edit reads first: its form holds the CSRF token and lock_version. */
const READ_ISSUE_PAGE: RequestKey = { method: 'GET', path: /\/issues\/\d+/ }

const STATUS_NAME: Record<string, string> = {
  [STATUS.inProgress]: 'In Progress',
  [STATUS.resolved]: 'Resolved',
  [STATUS.feedback]: 'Feedback',
}

/** Edits issue #1 and picks another status (the form reloads itself through edit.js). */
export const changeStatus: Workflow = {
  id: 'change_status',
  intent: 'set the status of issue #1 to In Progress',
  rewordings: {
    terse: 'issue 1 → in progress',
    chatty: "I've started working on issue 1, can you mark it as In Progress?",
    withoutValue: 'change the status of issue #1',
  },
  startPath: '/issues/1',
  signedIn: true,
  async play(page) {
    await openEditForm(page)
    // Picking a status makes the page POST the form to /issues/1/edit.js and swap the form.
    const reloaded = page.waitForResponse((r) => r.url().includes('/issues/1/edit.js'))
    await page.locator('#issue_status_id').selectOption({ label: 'In Progress' })
    await reloaded
    await submitEditForm(page)
    await page.locator('.issue .attributes .status').getByText('In Progress').waitFor()
  },
  key: {
    // Rails' method override: a POST whose form says _method=patch. The form also carries
    // issue[lock_version] (optimistic locking): a stale one is refused as a conflict.
    target: PATCH_ISSUE,
    inputs: [
      // The picked option's value is the status id, a number.
      { recorded: STATUS.inProgress, changed: [STATUS.resolved, STATUS.feedback] },
      // The intent names the issue, whose number is the path's last segment. Each run edits
      // another issue, neither already in the status it sets (#6 is New, #2 In Progress).
      { recorded: 1, changed: [6, 2] },
    ],
    dependencies: [READ_ISSUE_PAGE],
    mutating: true,
    async replayByHand(app, session) {
      const status = String(this.inputs[0]!.changed[0])
      const id = Number(this.inputs[1]!.changed[0])
      const body = await patchIssue(app, session, id, { 'issue[status_id]': status })
      await judgeByHand(this, app, session, body)
    },
    async check(app, _run, _session, used) {
      const issue = await readIssue(app, Number(used[1]))
      return String(issue.status.id) === String(used[0])
        ? null
        : `issue #${issue.id} is ${issue.status.name}, not ${STATUS_NAME[String(used[0])] ?? String(used[0])}`
    },
  },
}

const UPLOAD_NAME = 'release-notes.txt'
const UPLOAD_BYTES = Buffer.from('Release 2.4: dark mode in the header, faster login.\n')

/** Edits issue #5, picks a file to attach (uploaded at once by the page), and submits. */
export const uploadFile: Workflow = {
  id: 'upload_file',
  intent: `attach the file ${UPLOAD_NAME} to issue #5`,
  rewordings: {
    terse: `attach ${UPLOAD_NAME} to #5`,
    chatty: `Could you add my ${UPLOAD_NAME} file to issue 5 so the others can read it?`,
    withoutValue: 'attach a file to issue #5',
  },
  startPath: '/issues/5',
  signedIn: true,
  async play(page) {
    await openEditForm(page)
    const uploaded = page.waitForResponse((r) => r.url().includes('/uploads.js'))
    await page.locator('#issue-form input[type=file].file_selector').setInputFiles({
      name: UPLOAD_NAME,
      mimeType: 'text/plain',
      buffer: UPLOAD_BYTES,
    })
    await uploaded
    // The page writes the upload's token into a hidden field once the answer's script ran.
    await page.locator('#attachments_1 input.token').and(page.locator('[value]')).waitFor({
      state: 'attached',
    })
    await submitEditForm(page)
    await page.locator('.attachments').getByRole('link', { name: UPLOAD_NAME }).first().waitFor()
  },
  key: {
    // Two steps: the file's bytes go to POST /uploads.js?filename=... (X-CSRF-Token header),
    // whose JS answer holds a token; the edit form's PATCH then names attachments[1][token] and
    // attachments[1][filename].
    target: PATCH_ISSUE,
    inputs: [
      { recorded: UPLOAD_NAME, changed: ['changelog-2.5.txt', 'migration-guide.txt'] },
      // The intent names the issue, whose number is the path's last segment.
      { recorded: 5, changed: [6, 7] },
    ],
    dependencies: [{ method: 'POST', path: '/uploads.js' }, READ_ISSUE_PAGE],
    mutating: true,
    file: UPLOAD_BYTES,
    async replayByHand(app, session) {
      const name = String(this.inputs[0]!.changed[0])
      const id = Number(this.inputs[1]!.changed[0])
      const form = await pageWithToken(app, session, `/issues/${id}`)
      const upload = await app.fetch(
        `/uploads.js?attachment_id=1&filename=${encodeURIComponent(name)}&content_type=text%2Fplain`,
        {
          method: 'POST',
          session: form.session,
          headers: {
            'content-type': 'application/octet-stream',
            'x-csrf-token': form.token,
            'x-requested-with': 'XMLHttpRequest',
          },
          body: 'Notes written by hand.\n',
        },
      )
      const script = await upload.text()
      const fileToken = /val\('([^']+)'\)/.exec(script)?.[1]
      if (upload.status !== 200 || !fileToken)
        throw new Error(`POST /uploads.js answered ${upload.status} without a token`)
      const body = await patchIssue(app, form.session, id, {
        'attachments[1][filename]': name,
        'attachments[1][token]': fileToken,
      })
      await judgeByHand(this, app, session, body)
    },
    async check(app, _run, _session, used) {
      const issue = await readIssue(app, Number(used[1]), 'attachments')
      return issue.attachments?.some((a) => a.filename === used[0])
        ? null
        : `issue #${issue.id} has no attachment ${String(used[0])}`
    },
  },
}
