/**
 * Manager workflows that change an application. Every button of an application's row is its own
 * `<form method="POST">` whose action names the app and carries the page's CSRF nonce in the
 * query: `POST /manager/html/<stop|start|reload|undeploy|expire>?path=/reports&
 * org.apache.catalina.filters.CSRF_NONCE=<nonce>` with the session cookie (JSESSIONID, path
 * /manager) the page set; the nonce is only valid for that session. Tomcat answers 200 with the
 * Manager page again, its "Message:" box saying `OK - ...` or `FAIL - ...`. The upload is a
 * multipart POST of field `deployWar` to `/manager/html/upload?<nonce>`; the context path is the
 * file's name without `.war`.
 */
import type { Page } from 'playwright-core'
import type { AppInstance, Workflow } from '../../types'
import { MANAGER_PAGE, listApps, mustPass, postForm, startTimeOf } from '../keys'
import { expireIdle, messageShown, openAdmin, pressAppButton } from '../person'
import { OTHER_WAR, UPLOAD_NAME, UPLOAD_WAR, WAR_MARKERS, sessionsLeftAfter } from '../seed'
import { seededAtOf } from '../server'

/** What one row-button workflow is made of. */
interface RowAction {
  id: string
  intent: string
  rewordings: Workflow['rewordings']
  signedIn: boolean
  /** The row's button, and the action path segment it posts to. */
  button: string
  action: string
  /** The app the person picks, then the two the working check uses instead. */
  path: string
  changed: [string, string]
  /** The message Tomcat shows once it did it (before the path). */
  done: string
  /** Null when `app` is in the state the action leaves it in, else what is wrong. */
  changedState(instance: AppInstance, path: string): Promise<string | null>
  /** Null when the recorded app is still in its seeded state, else what is wrong. */
  untouched(instance: AppInstance, path: string): Promise<string | null>
}

async function running(instance: AppInstance, path: string): Promise<boolean | null> {
  const state = (await listApps(instance)).get(path)
  return state ? state.running : null
}

/** Builds the workflow: open the Manager, press the button in the app's row, wait for OK. */
function rowAction(spec: RowAction): Workflow {
  const workflow: Workflow = {
    id: spec.id,
    intent: spec.intent,
    rewordings: spec.rewordings,
    startPath: '/',
    signedIn: spec.signedIn,
    async play(page: Page, app: AppInstance) {
      await openAdmin(page, app, 'manager', spec.signedIn)
      await pressAppButton(page, spec.path, spec.button)
      await messageShown(page, `${spec.done} [${spec.path}]`)
    },
    key: {
      target: { method: 'POST', path: `/manager/html/${spec.action}` },
      inputs: [{ recorded: spec.path, changed: spec.changed }],
      // The nonce (and the session it belongs to) come from the Manager page.
      dependencies: [MANAGER_PAGE],
      mutating: true,
      async replayByHand(app, session) {
        const path = spec.changed[0]
        const message = await postForm(
          app,
          session,
          '/manager/html',
          `/manager/html/${spec.action}`,
          {
            path,
          },
        )
        if (!message.includes(`${spec.done} [${path}]`))
          throw new Error(`${spec.action} of ${path} said: ${message}`)
        mustPass(
          await workflow.key.check(app, { status: 'succeeded', result: null }, session, [path]),
        )
      },
      async check(app, _run, _session, used) {
        const path = String(used[0])
        return (await spec.changedState(app, path)) ?? (await spec.untouched(app, spec.path))
      },
    },
  }
  return workflow
}

/** Stops /reports (it stays deployed, listed `running: false`). */
export const stopApplication = rowAction({
  id: 'stop_application',
  intent: 'stop the application /reports in Tomcat',
  rewordings: {
    terse: 'tomcat stop /reports',
    chatty:
      "The reports app is misbehaving and hammering the database, could you stop /reports in the Tomcat manager for now? Don't undeploy it.",
    withoutValue: 'stop one of the Tomcat applications',
  },
  signedIn: true,
  button: 'Stop',
  action: 'stop',
  path: '/reports',
  changed: ['/inventory', '/helpdesk'],
  done: 'OK - Stopped application at context path',
  async changedState(app, path) {
    const r = await running(app, path)
    return r === false ? null : `${path} is ${r === null ? 'not deployed' : 'still running'}`
  },
  async untouched(app, path) {
    return (await running(app, path)) === true ? null : `${path} (recorded) was stopped too`
  },
})

/** Starts /legacy-portal, stopped since the start. */
export const startApplication = rowAction({
  id: 'start_application',
  intent: 'start the stopped application /legacy-portal in Tomcat',
  rewordings: {
    terse: 'start /legacy-portal',
    chatty:
      'Hey, the legacy portal is needed again for the audit, can you start /legacy-portal back up in Tomcat?',
    withoutValue: 'start a stopped Tomcat application',
  },
  signedIn: true,
  button: 'Start',
  action: 'start',
  path: '/legacy-portal',
  changed: ['/archive', '/old-billing'],
  done: 'OK - Started application at context path',
  async changedState(app, path) {
    const r = await running(app, path)
    return r === true ? null : `${path} is ${r === null ? 'not deployed' : 'still stopped'}`
  },
  async untouched(app, path) {
    return (await running(app, path)) === false ? null : `${path} (recorded) was started too`
  },
})

/** Reloads /billing: the server status then shows a start time after the seed. */
export const reloadApplication = rowAction({
  id: 'reload_application',
  intent: 'reload the application /billing in Tomcat',
  rewordings: {
    terse: 'reload /billing',
    chatty:
      'I just swapped a config file under /billing, could you hit Reload on that app in the Tomcat manager so it picks it up?',
    withoutValue: 'reload a Tomcat application',
  },
  signedIn: true,
  button: 'Reload',
  action: 'reload',
  path: '/billing',
  changed: ['/timesheets', '/payroll'],
  done: 'OK - Reloaded application at context path',
  async changedState(app, path) {
    const started = await startTimeOf(app, path)
    return started > seededAtOf(app.origin) && (await running(app, path)) === true
      ? null
      : `${path} was not reloaded (it last started ${new Date(started).toISOString()})`
  },
  async untouched(app, path) {
    return (await startTimeOf(app, path)) < seededAtOf(app.origin)
      ? null
      : `${path} (recorded) was reloaded too`
  },
})

/** Undeploys /wiki (its files go too). Not signed in at first: the person answers the prompt. */
export const undeployApplication = rowAction({
  id: 'undeploy_application',
  intent: 'undeploy the application /wiki from Tomcat',
  rewordings: {
    terse: 'undeploy /wiki',
    chatty:
      'We moved the team wiki to the new platform last week, so please remove /wiki from the Tomcat server entirely (undeploy it).',
    withoutValue: 'undeploy an application from Tomcat',
  },
  signedIn: false,
  button: 'Undeploy',
  action: 'undeploy',
  path: '/wiki',
  changed: ['/sandbox', '/demo'],
  done: 'OK - Undeployed application at context path',
  async changedState(app, path) {
    return (await running(app, path)) === null ? null : `${path} is still deployed`
  },
  async untouched(app, path) {
    return (await running(app, path)) === true ? null : `${path} (recorded) was undeployed too`
  },
})

/**
 * Types 60 into /shop's "with idle ≥ … minutes" box and presses "Expire sessions": `POST
 * /manager/html/expire?path=/shop&<nonce>` with `idle=60`. The seeded sessions were last used 0,
 * 90, 200, 400 and 800 minutes ago, so the count left tells the threshold used.
 */
export const expireSessions: Workflow = {
  id: 'expire_sessions',
  intent: 'expire the sessions of /shop in Tomcat that have been idle for 60 minutes or more',
  rewordings: {
    terse: 'expire /shop sessions idle >= 60 min',
    chatty:
      'The shop is holding on to a pile of stale sessions. Could you get Tomcat to expire every /shop session that has been idle at least 60 minutes?',
    withoutValue: "expire an application's idle sessions in Tomcat",
  },
  startPath: '/',
  signedIn: true,
  async play(page, app) {
    await openAdmin(page, app, 'manager', true)
    await expireIdle(page, '/shop', 60)
    await messageShown(page, 'sessions were expired')
  },
  key: {
    target: { method: 'POST', path: '/manager/html/expire' },
    inputs: [
      { recorded: '/shop', changed: ['/crm', '/portal'] },
      { recorded: 60, changed: [150, 300] },
    ],
    dependencies: [MANAGER_PAGE],
    mutating: true,
    async replayByHand(app, session) {
      const [path, idle] = ['/crm', 150]
      await postForm(
        app,
        session,
        '/manager/html',
        '/manager/html/expire',
        { path },
        new URLSearchParams({ idle: String(idle) }),
      )
      mustPass(
        await expireSessions.key.check(app, { status: 'succeeded', result: null }, session, [
          path,
          idle,
        ]),
      )
    },
    async check(app, _run, _session, used) {
      const [path, idle] = [String(used[0]), Number(used[1])]
      const apps = await listApps(app)
      const left = apps.get(path)?.sessions
      const want = sessionsLeftAfter(idle)
      if (left !== want)
        return `${path} has ${left ?? 'no'} sessions, not the ${want} idle less than ${idle} minutes`
      const recorded = apps.get('/shop')?.sessions
      return recorded === 5 ? null : `/shop (recorded) has ${recorded} sessions, not its seeded 5`
    },
  },
}

/** The context path a WAR of this file name is deployed at (`guestbook.war` → `/guestbook`). */
function contextOf(fileName: string): string {
  return `/${fileName.replace(/\.war$/i, '')}`
}

/**
 * "WAR file to deploy": picks guestbook.war, presses Deploy. Tomcat saves it under the name the
 * browser sent and deploys it at `/guestbook`.
 */
export const deployWar: Workflow = {
  id: 'deploy_war',
  intent: 'deploy the WAR file guestbook.war to Tomcat',
  rewordings: {
    terse: 'upload guestbook.war to tomcat',
    chatty:
      "I've built guestbook.war on my laptop, could you upload it through the Tomcat manager and deploy it?",
    withoutValue: 'deploy a WAR file on Tomcat',
  },
  startPath: '/',
  signedIn: true,
  async play(page, app) {
    await openAdmin(page, app, 'manager', true)
    await page.locator('#deployWarFile').setInputFiles({
      name: UPLOAD_NAME,
      mimeType: 'application/octet-stream',
      buffer: Buffer.from(UPLOAD_WAR),
    })
    await page
      .locator('form[enctype="multipart/form-data"]')
      .getByRole('button', { name: 'Deploy' })
      .click()
    // The answer's message is a bare "OK"; the list then has the new app's row.
    await messageShown(page, 'OK')
    await page.getByRole('link', { name: '/guestbook', exact: true }).waitFor()
  },
  key: {
    target: { method: 'POST', path: '/manager/html/upload' },
    // The file's name is the context path: a tool deploying another file must name it.
    inputs: [{ recorded: UPLOAD_NAME, changed: ['feedback.war', 'survey.war'] }],
    dependencies: [MANAGER_PAGE],
    mutating: true,
    file: OTHER_WAR,
    async replayByHand(app, session) {
      const name = 'feedback.war'
      const form = new FormData()
      form.append(
        'deployWar',
        new Blob([Buffer.from(OTHER_WAR)], { type: 'application/octet-stream' }),
        name,
      )
      await postForm(app, session, '/manager/html', '/manager/html/upload', {}, form)
      mustPass(
        await deployWar.key.check(app, { status: 'succeeded', result: null }, session, [name]),
      )
    },
    async check(app, _run, _session, used) {
      const path = contextOf(String(used[0]))
      const apps = await listApps(app)
      if (apps.get(path)?.running !== true) return `no running application at ${path}`
      const res = await app.fetch(`${path}/`)
      const page = await res.text()
      if (!WAR_MARKERS.some((m) => page.includes(`<h1>${m}</h1>`)))
        return `${path}/ does not serve an uploaded WAR's page (${res.status})`
      return apps.has('/guestbook') ? '/guestbook (recorded) was deployed too' : null
    },
  },
}
