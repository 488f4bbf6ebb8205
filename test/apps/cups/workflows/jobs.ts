/**
 * CUPS workflows on one job, picked by pressing a button in its row of the Jobs tab: each button
 * is its own little form, `POST /jobs/` with `org.cups.sid`, `OP=<cancel-job|hold-job|...>`,
 * `job_id` and `job_printer_uri` (the queue's path).
 */
import type { RequestKey, Workflow } from '../../types'
import { openTab, pressInJobRow, waitForText } from '../person'
import { jobById } from '../seed'
import { READS_A_PAGE, jobState, mustPass, postForm, type JobState } from '../session'

/** The job form's POST for `op`. */
function jobOp(op: string): RequestKey {
  return { method: 'POST', path: '/jobs/', operation: { field: 'OP', value: op } }
}

/** Posts the job form for `op` on job `id`, as its button does. */
async function postJobOp(
  app: Parameters<Workflow['play']>[1],
  op: string,
  id: number,
): Promise<void> {
  const job = jobById(id)
  const html = await postForm(app, '/jobs/', {
    OP: op,
    job_id: String(id),
    job_printer_uri: `/printers/${job.printer}`,
  })
  if (!html.includes(`Job ${id}</A> has been`))
    throw new Error(`${op} of job ${id} did not say done`)
}

/**
 * The check of a job write: job `used` is now `want`, and the recorded job `recorded` still has
 * its seeded state `seeded` (a tool that ignores its input would act on it).
 */
async function checkJob(
  app: Parameters<Workflow['play']>[1],
  used: unknown,
  want: JobState,
  recorded: number,
  seeded: JobState,
): Promise<string | null> {
  const id = Number(used)
  const now = await jobState(app, id)
  if (now !== want) return `job ${id} is ${now ?? 'not listed'}, not ${want}`
  const other = await jobState(app, recorded)
  if (other !== seeded) return `the recorded job ${recorded} is ${other ?? 'gone'}, not ${seeded}`
  return null
}

/** Presses "Cancel Job" in the row of "Expense claims" (job 2, held on office-laser). */
export const cancelJob: Workflow = {
  id: 'cancel_job',
  intent: 'cancel print job 2 (Expense claims) in CUPS',
  rewordings: {
    terse: 'cups cancel job 2',
    chatty:
      "oops, I sent the expense claims to the printer by mistake, it's job 2, can you cancel it in CUPS before it prints?",
    withoutValue: 'cancel a print job in CUPS',
  },
  startPath: '/jobs/',
  signedIn: false,
  async play(page) {
    await page.getByText('Expense claims').waitFor()
    await pressInJobRow(page, 'Expense claims', 'Cancel Job')
    await waitForText(page, /has been canceled/)
  },
  key: {
    target: jobOp('cancel-job'),
    inputs: [{ recorded: 2, changed: [3, 7] }],
    dependencies: [READS_A_PAGE],
    mutating: true,
    async replayByHand(app, session) {
      await postJobOp(app, 'cancel-job', 3)
      mustPass(await cancelJob.key.check(app, { status: 'succeeded', result: null }, session, [3]))
    },
    check: (app, _run, _session, used) => checkJob(app, used[0], 'canceled', 2, 'held'),
  },
}

/**
 * Presses "Hold Job" in the row of "Parking permits" (job 12, pending on the paused
 * reception-inkjet, so it waits instead of printing).
 */
export const holdJob: Workflow = {
  id: 'hold_job',
  intent: 'hold print job 12 (Parking permits) in CUPS',
  rewordings: {
    terse: 'cups hold job 12',
    chatty:
      "the parking permits are queued on the reception printer, job 12 I think, please put it on hold so it doesn't print yet",
    withoutValue: 'put a waiting print job on hold in CUPS',
  },
  startPath: '/jobs/',
  signedIn: false,
  async play(page) {
    await page.getByText('Parking permits').waitFor()
    await pressInJobRow(page, 'Parking permits', 'Hold Job')
    await waitForText(page, /has been held from printing/)
  },
  key: {
    target: jobOp('hold-job'),
    inputs: [{ recorded: 12, changed: [13, 14] }],
    dependencies: [READS_A_PAGE],
    mutating: true,
    async replayByHand(app, session) {
      await postJobOp(app, 'hold-job', 13)
      mustPass(await holdJob.key.check(app, { status: 'succeeded', result: null }, session, [13]))
    },
    check: (app, _run, _session, used) => checkJob(app, used[0], 'held', 12, 'pending'),
  },
}

/**
 * Presses "Release Job" in the row of "Welcome letter" (job 9, held on the paused
 * reception-inkjet: released, it waits as pending).
 */
export const releaseJob: Workflow = {
  id: 'release_job',
  intent: 'release the held print job 9 (Welcome letter) in CUPS',
  rewordings: {
    terse: 'cups release job 9',
    chatty:
      'the welcome letter has been sitting on hold for ages, it is job 9, could you release it so it can print?',
    withoutValue: 'release a held print job in CUPS',
  },
  startPath: '/',
  signedIn: false,
  async play(page) {
    await openTab(page, 'Jobs')
    await pressInJobRow(page, 'Welcome letter', 'Release Job')
    await waitForText(page, /has been released for printing/)
  },
  key: {
    target: jobOp('release-job'),
    inputs: [{ recorded: 9, changed: [10, 11] }],
    dependencies: [READS_A_PAGE],
    mutating: true,
    async replayByHand(app, session) {
      await postJobOp(app, 'release-job', 10)
      mustPass(
        await releaseJob.key.check(app, { status: 'succeeded', result: null }, session, [10]),
      )
    },
    check: (app, _run, _session, used) => checkJob(app, used[0], 'pending', 9, 'held'),
  },
}
