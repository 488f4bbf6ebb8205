/**
 * The Scan/Learn tab: the person pastes a raw message into "Message source" and clicks "Scan
 * message" (`POST /checkv2`), "Upload SPAM" (`POST /learnspam`) or "Upload HAM"
 * (`POST /learnham`). Each request's body is the pasted text as it is.
 */
import type { Page } from 'playwright-core'
import type { AppInstance, Workflow } from '../../types'
import { message } from '../seed'
import { resultText } from '../session'
import { openTab, signInFromDialog, waitForNotice } from '../ui'

/** Signs in, opens Scan/Learn and pastes `text` into the message source box. */
async function pasteMessage(page: Page, app: AppInstance, text: string): Promise<void> {
  await signInFromDialog(page, app)
  await openTab(page, 'Scan/Learn')
  const source = page.locator('#scanMsgSource')
  await source.click()
  // A person pastes a message's source; typing it key by key would take minutes.
  await source.fill(text)
}

/** The messages scanned: the recorded one, then one per changed run, with the symbol each hits. */
const SCAN = {
  recorded: message({
    from: 'Prize Desk <prizes@casino-deals.test>',
    subject: 'Free money inside',
    id: 'scan-1001@casino-deals.test',
    body: 'Your account has been selected for a free money transfer, reply with your card number to receive it.',
  }),
  changed: [
    message({
      from: 'Online Pharmacy <sales@cheap-pills.example>',
      subject: 'Discount refill',
      id: 'scan-2002@cheap-pills.example',
      body: 'Refill your prescription with our discount pharmacy, fast delivery to your door with tracking included.',
    }),
    message({
      from: 'The Boss <boss@corp.example>',
      subject: 'Board meeting moved',
      id: 'scan-3003@corp.example',
      body: 'Team, the board meeting moved to Thursday at ten, please update your calendars and bring the slides.',
    }),
  ] as [string, string],
}

/** What scanning each message must show: its Message-ID and the local symbol it hits. */
const SCAN_EXPECT: Record<string, { id: string; symbol: string }> = {
  [SCAN.recorded]: { id: 'scan-1001@casino-deals.test', symbol: 'BLOCKED_SENDER' },
  [SCAN.changed[0]]: { id: 'scan-2002@cheap-pills.example', symbol: 'BLOCKED_SENDER' },
  [SCAN.changed[1]]: { id: 'scan-3003@corp.example', symbol: 'ALLOWED_SENDER' },
}

export const scanMessage: Workflow = {
  id: 'scan_message',
  intent:
    'scan this message in Rspamd and show its score and symbols: the one from prizes@casino-deals.test with subject "Free money inside"',
  rewordings: {
    terse: 'rspamd scan message',
    chatty:
      'I got a weird mail from prizes@casino-deals.test saying "Free money inside", can you run it through Rspamd and tell me what it scores?',
    withoutValue: 'check a pasted message with Rspamd',
  },
  startPath: '/',
  signedIn: false,
  async play(page, app) {
    await pasteMessage(page, app, SCAN.recorded)
    await page.locator('button[data-upload="scan"]').click()
    // The result table lists the message's Message-ID once `POST /checkv2` answered.
    await page.locator('#scanResult').waitFor({ state: 'visible', timeout: 30_000 })
    await page
      .locator('#historyTable_scan tbody tr', { hasText: 'scan-1001@casino-deals.test' })
      .first()
      .waitFor({ timeout: 30_000 })
  },
  key: {
    target: { method: 'POST', path: '/checkv2' },
    inputs: [{ recorded: SCAN.recorded, changed: SCAN.changed }],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const res = await app.fetch('/checkv2', { method: 'POST', body: SCAN.changed[0], session })
      const problem = await scanMessage.key.check(
        app,
        { status: res.ok ? 'ok' : 'error', result: await res.text() },
        session,
        [SCAN.changed[0]],
      )
      if (problem) throw new Error(problem)
    },
    async check(_app, run, _session, used) {
      const want = SCAN_EXPECT[String(used[0])]
      if (!want) return 'the check was called with a message it does not know'
      const text = resultText(run.result)
      if (!text.includes(`"message-id":"${want.id}"`) && !text.includes(want.id))
        return `the result is not the scan of ${want.id}`
      if (!text.includes(want.symbol)) return `the scan of ${want.id} does not show ${want.symbol}`
      if (text.includes('scan-1001@casino-deals.test'))
        return 'the result is the scan of the recorded message'
      return null
    },
  },
}

/** Messages to learn: the recorded one, then one per changed run (each long enough for Bayes). */
function learnMessages(as: 'spam' | 'ham'): { recorded: string; changed: [string, string] } {
  const m = (id: string, from: string, subject: string, body: string) =>
    message({ from, subject, id: `${as}-${id}`, body })
  return as === 'spam'
    ? {
        recorded: m(
          'learn-5001@promo.example',
          'Deals <deals@promo.example>',
          'Replica watches 90% off',
          'Luxury replica watches at ninety percent off, only this weekend, order now while stocks last.',
        ),
        changed: [
          m(
            'learn-5002@promo.example',
            'Loans <loans@promo.example>',
            'Instant loan approved',
            'Your instant loan of five thousand dollars is approved, no credit check, click to receive the money.',
          ),
          m(
            'learn-5003@promo.example',
            'Weight Loss <slim@promo.example>',
            'Lose 10 kilos in a week',
            'Our miracle tea melts ten kilos in one week without diet or sport, thousands of happy customers.',
          ),
        ],
      }
    : {
        recorded: m(
          'learn-6001@corp.example',
          'Dave <dave@corp.example>',
          'Release notes 2.4',
          'Hi all, the release notes for version 2.4 are in the wiki, please review the migration section today.',
        ),
        changed: [
          m(
            'learn-6002@corp.example',
            'Erin <erin@corp.example>',
            'Holiday rota',
            'The holiday rota for December is attached, tell me by Friday if you need to swap any of your days.',
          ),
          m(
            'learn-6003@corp.example',
            'Frank <frank@corp.example>',
            'Server maintenance window',
            'The mail server gets a kernel update on Sunday night between two and four, expect a short outage.',
          ),
        ],
      }
}

/** A learn workflow: paste, click "Upload SPAM" / "Upload HAM", wait for the green notice. */
function learnWorkflow(as: 'spam' | 'ham'): Workflow {
  const texts = learnMessages(as)
  const subject = (text: string) => /^Subject: (.*)$/m.exec(text)?.[1] ?? ''
  const wf: Workflow = {
    id: `learn_${as}`,
    intent: `teach Rspamd that the message "${subject(texts.recorded)}" is ${as}`,
    rewordings: {
      terse: `rspamd learn ${as}`,
      chatty: `Could you feed the mail "${subject(texts.recorded)}" to Rspamd's Bayes filter as ${as}? It keeps getting it wrong.`,
      withoutValue: `train Rspamd with a message as ${as}`,
    },
    startPath: '/',
    signedIn: false,
    async play(page, app) {
      await pasteMessage(page, app, texts.recorded)
      await page.locator(`button[data-upload="${as}"]`).click()
      await waitForNotice(page, 'Data successfully uploaded')
    },
    key: {
      target: { method: 'POST', path: `/learn${as}` },
      inputs: [{ recorded: texts.recorded, changed: texts.changed }],
      dependencies: [],
      mutating: true,
      async replayByHand(app, session) {
        const res = await app.fetch(`/learn${as}`, {
          method: 'POST',
          body: texts.changed[0],
          session,
        })
        if (!res.ok) throw new Error(`learn${as} answered ${res.status}: ${await res.text()}`)
        const problem = await wf.key.check(
          app,
          { status: 'ok', result: await res.text() },
          session,
          [texts.changed[0]],
        )
        if (problem) throw new Error(problem)
      },
      async check(app, _run, session, used) {
        // Learning a message twice is refused by the learn cache ("already learned as spam"):
        // the one way to ask Rspamd whether this very message was learned, and as what.
        const res = await app.fetch(`/learn${as}`, {
          method: 'POST',
          body: String(used[0]),
          session,
        })
        const text = await res.text()
        if (res.ok) return `the message "${subject(String(used[0]))}" had not been learned`
        return text.includes(`already learned as ${as}`)
          ? null
          : `relearning "${subject(String(used[0]))}" as ${as} answered ${res.status}: ${text}`
      },
    },
  }
  return wf
}

export const learnSpam = learnWorkflow('spam')
export const learnHam = learnWorkflow('ham')
