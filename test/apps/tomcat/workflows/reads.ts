/**
 * Tomcat reads with nothing typed: the Manager's list of applications (the page itself, opened
 * after answering the Basic prompt) and the server status page (its "Server Status" link).
 */
import type { Workflow } from '../../types'
import { MANAGER_PAGE, mustPass, resultText } from '../keys'
import { openAdmin } from '../person'

/** Apps no workflow stops, undeploys or renames, with their display names. */
const STEADY = [
  ['/inventory', 'Inventory Service'],
  ['/billing', 'Billing Portal'],
  ['/legacy-portal', 'Legacy Portal'],
  ['/shop', 'Web Shop'],
] as const

/** Opens the Manager not signed in (answers the prompt): the page lists every application. */
export const listApplications: Workflow = {
  id: 'list_applications',
  intent: 'list the applications deployed on my Tomcat server',
  rewordings: {
    terse: 'tomcat deployed apps',
    chatty:
      "Can you pull up Tomcat's manager and tell me which web applications are deployed on the server right now?",
    withoutValue: 'show what is deployed in Tomcat',
  },
  startPath: '/',
  signedIn: false,
  async play(page, app) {
    await openAdmin(page, app, 'manager', false)
    await page.getByRole('link', { name: '/legacy-portal', exact: true }).waitFor()
  },
  key: {
    target: MANAGER_PAGE,
    inputs: [],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const res = await app.fetch(MANAGER_PAGE.path as string, { session })
      const html = await res.text()
      if (res.status !== 200) throw new Error(`GET /manager/html answered ${res.status}`)
      mustPass(
        await listApplications.key.check(app, { status: 'succeeded', result: html }, session, []),
      )
    },
    async check(_app, run) {
      const text = resultText(run.result)
      const missing = STEADY.filter(([path, name]) => !text.includes(path) || !text.includes(name))
      return missing.length === 0
        ? null
        : `the answer does not list ${missing.map(([p]) => p).join(', ')} with their names`
    },
  },
}

/** From the Manager, clicks "Server Status": Tomcat and JVM versions, memory, connector threads. */
export const serverStatus: Workflow = {
  id: 'server_status',
  intent: "show my Tomcat server's status (JVM memory and connector threads)",
  rewordings: {
    terse: 'tomcat server status',
    chatty:
      "The server feels sluggish today, could you open Tomcat's server status and show me how the JVM memory and the connector threads look?",
    withoutValue: 'check how the Tomcat server is doing',
  },
  startPath: '/',
  signedIn: true,
  async play(page, app) {
    await openAdmin(page, app, 'manager', true)
    await page.getByRole('link', { name: 'Server Status', exact: true }).first().click()
    await page.getByText('Max threads:').first().waitFor()
  },
  key: {
    target: { method: 'GET', path: '/manager/status' },
    inputs: [],
    // The status page takes the nonce the link carries but does not check it.
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const res = await app.fetch('/manager/status', { session })
      const html = await res.text()
      if (res.status !== 200) throw new Error(`GET /manager/status answered ${res.status}`)
      mustPass(
        await serverStatus.key.check(app, { status: 'succeeded', result: html }, session, []),
      )
    },
    async check(app, run) {
      const text = resultText(run.result)
      const connector = `http-nio-127.0.0.1-${new URL(app.origin).port}`
      for (const want of ['Apache Tomcat/10.1', 'Free Memory', 'Max threads', connector])
        if (!text.includes(want)) return `the answer is not the server status (no "${want}")`
      return null
    },
  },
}
