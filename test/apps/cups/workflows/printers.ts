/**
 * CUPS workflows on queues: the Maintenance menu of a queue's page (`POST /printers/<name>`
 * `OP=stop-printer`), its Administration menu (`POST /admin` `OP=set-printer-options` /
 * `set-allowed-users` with the queue's name in the body), and the add-printer wizard of the
 * Administration tab (five `POST /admin` `OP=add-printer` steps, the last two multipart).
 */
import type { AppInstance, Workflow } from '../../types'
import { clickPrinter, pickFromMenu, pressButton, typeInto, waitForText } from '../person'
import {
  READS_A_PAGE,
  getText,
  mediaDefault,
  mustPass,
  postForm,
  printerHeading,
  printerPage,
} from '../session'

/** Picks "Pause Printer" from the Maintenance menu of warehouse-labels. */
export const pausePrinter: Workflow = {
  id: 'pause_printer',
  intent: 'pause the printer warehouse-labels in CUPS',
  rewordings: {
    terse: 'cups pause warehouse-labels',
    chatty:
      "the label printer at the loading dock is out of labels, can you pause warehouse-labels in CUPS so jobs don't pile up and fail?",
    withoutValue: 'pause a printer in CUPS',
  },
  startPath: '/printers/',
  signedIn: false,
  async play(page) {
    await clickPrinter(page, 'warehouse-labels')
    await pickFromMenu(page, 'maintenance', 'Pause Printer')
    await waitForText(page, /has been paused/)
  },
  key: {
    target: {
      method: 'POST',
      path: /\/printers\/[^/]+/,
      operation: { field: 'OP', value: 'stop-printer' },
    },
    inputs: [{ recorded: 'warehouse-labels', changed: ['design-plotter', 'lobby-color'] }],
    dependencies: [READS_A_PAGE],
    mutating: true,
    async replayByHand(app, session) {
      const html = await postForm(app, '/printers/design-plotter', { OP: 'stop-printer' })
      if (!html.includes('has been paused')) throw new Error('Pause Printer did not say done')
      mustPass(
        await pausePrinter.key.check(app, { status: 'succeeded', result: null }, session, [
          'design-plotter',
        ]),
      )
    },
    async check(app, _run, _session, used) {
      const name = String(used[0])
      const heading = printerHeading(await printerPage(app, name))
      if (!/\(Paused,/.test(heading)) return `${name} is not paused: ${heading}`
      const recorded = printerHeading(await printerPage(app, 'warehouse-labels'))
      return /\(Idle,/.test(recorded) ? null : `warehouse-labels changed too: ${recorded}`
    },
  },
}

/** The `media=` default a queue's page shows for each PageSize of the generic PostScript PPD. */
const MEDIA: Record<string, string> = {
  Letter: 'na_letter_8.5x11in',
  A4: 'iso_a4_210x297mm',
  A5: 'iso_a5_148x210mm',
  Legal: 'na_legal_8.5x14in',
}

/**
 * On office-laser's page, picks Administration → Set Default Options, picks A4 as Media Size and
 * presses Set Default Options: `POST /admin` with every option of the form.
 */
export const setDefaultOptions: Workflow = {
  id: 'set_default_options',
  intent: 'set the default paper size of the printer office-laser to A4 in CUPS',
  rewordings: {
    terse: 'cups office-laser default media A4',
    chatty:
      'everything from the office laser comes out on US Letter and we only stock A4, could you make A4 the default paper size for office-laser?',
    withoutValue: "change a CUPS printer's default paper size",
  },
  startPath: '/printers/',
  signedIn: false,
  async play(page) {
    await clickPrinter(page, 'office-laser')
    await pickFromMenu(page, 'administration', 'Set Default Options')
    await page.getByRole('heading', { name: 'Set Default Options for office-laser' }).waitFor()
    await page.locator('select[name="PageSize"]').selectOption({ label: 'A4' })
    await pressButton(page, 'Set Default Options')
    await waitForText(page, /default options have been set successfully/)
  },
  key: {
    target: {
      method: 'POST',
      path: '/admin',
      operation: [
        { field: 'OP', value: 'set-printer-options' },
        { field: 'PageSize', value: 'A4' },
      ],
    },
    inputs: [
      { recorded: 'office-laser', changed: ['lobby-color', 'design-plotter'] },
      { recorded: 'A4', changed: ['A5', 'Legal'] },
    ],
    dependencies: [READS_A_PAGE],
    mutating: true,
    async replayByHand(app, session) {
      const [name, size] = ['lobby-color', 'A5']
      // Every field of the options form, as the browser posts it, with the new Media Size.
      const html = await postForm(app, '/admin', {
        PRINTER_NAME: name,
        OP: 'set-printer-options',
        PageSize: size,
        InputSlot: 'Default',
        Duplex: 'None',
        Option1: 'False',
        job_sheets_start: 'none',
        job_sheets_end: 'none',
        printer_error_policy: 'retry-job',
        printer_op_policy: 'default',
      })
      if (!html.includes('default options have been set'))
        throw new Error('Set Default Options did not say done')
      mustPass(
        await setDefaultOptions.key.check(app, { status: 'succeeded', result: null }, session, [
          name,
          size,
        ]),
      )
    },
    async check(app, _run, _session, used) {
      const [name, size] = used.map(String) as [string, string]
      const want = MEDIA[size]
      const got = mediaDefault(await printerPage(app, name))
      if (got !== want) return `${name}'s default media is ${got}, not ${want} (${size})`
      const recorded = mediaDefault(await printerPage(app, 'office-laser'))
      return recorded === MEDIA.Letter
        ? null
        : `office-laser's default media changed too (${recorded})`
    },
  },
}

/**
 * The users the Set Allowed Users form of `name` shows (its `users` field, split), and whether
 * they are the allowed list (the checked radio). Opening the form is a POST that changes nothing.
 */
async function allowedUsers(
  app: AppInstance,
  name: string,
): Promise<{ users: string[]; allowed: boolean }> {
  const html = await postForm(app, '/admin', { OP: 'set-allowed-users', printer_name: name })
  const value = /NAME='users'[^>]*VALUE='([^']*)'/.exec(html)?.[1]
  if (value === undefined) throw new Error(`the Set Allowed Users form of ${name} has no users`)
  const users = value
    .split(/[\s,]+/)
    .filter(Boolean)
    .sort()
  const allowed = /VALUE='requesting-user-name-allowed'[^>]*checked/i.test(html)
  return { users, allowed }
}

/**
 * On finance-mono's page, picks Administration → Set Allowed Users, types two users, picks
 * "Allow these users to print" and presses Set Allowed Users.
 */
export const setAllowedUsers: Workflow = {
  id: 'set_allowed_users',
  intent: 'allow only the users frank and grace to print on finance-mono in CUPS',
  rewordings: {
    terse: 'cups finance-mono allowed users frank grace',
    chatty:
      'only frank and grace from payroll should be able to use the finance printer, can you lock finance-mono down to those two?',
    withoutValue: 'restrict who may print on a CUPS printer',
  },
  startPath: '/printers/',
  signedIn: false,
  async play(page) {
    await clickPrinter(page, 'finance-mono')
    await pickFromMenu(page, 'administration', 'Set Allowed Users')
    await page.getByRole('heading', { name: 'Allowed Users For finance-mono' }).waitFor()
    await typeInto(page, 'users', 'frank grace')
    await page.getByLabel('Allow these users to print').check()
    await pressButton(page, 'Set Allowed Users')
    await waitForText(page, /has been\s+modified successfully/)
  },
  key: {
    target: {
      method: 'POST',
      path: '/admin',
      operation: [
        { field: 'OP', value: 'set-allowed-users' },
        { field: 'type', value: 'requesting-user-name-allowed' },
      ],
    },
    inputs: [
      { recorded: 'finance-mono', changed: ['warehouse-labels', 'design-plotter'] },
      { recorded: 'frank grace', changed: ['heidi', 'dave erin'] },
    ],
    dependencies: [READS_A_PAGE],
    mutating: true,
    async replayByHand(app, session) {
      const [name, users] = ['warehouse-labels', 'heidi']
      const html = await postForm(app, '/admin', {
        OP: 'set-allowed-users',
        PRINTER_NAME: name,
        users,
        type: 'requesting-user-name-allowed',
      })
      if (!html.includes('modified successfully'))
        throw new Error('Set Allowed Users did not say done')
      mustPass(
        await setAllowedUsers.key.check(app, { status: 'succeeded', result: null }, session, [
          name,
          users,
        ]),
      )
    },
    async check(app, _run, _session, used) {
      const [name, users] = used.map(String) as [string, string]
      const want = users
        .split(/[\s,]+/)
        .filter(Boolean)
        .sort()
      const got = await allowedUsers(app, name)
      if (!got.allowed || got.users.join(' ') !== want.join(' '))
        return `${name} allows ${got.allowed ? got.users.join(', ') || 'everyone' : 'everyone'}, not ${want.join(', ')}`
      const recorded = await allowedUsers(app, 'finance-mono')
      return recorded.users.length === 0
        ? null
        : `finance-mono's users changed too (${recorded.users.join(', ')})`
    },
  },
}

/** The driver the person picks: Generic → Generic PostScript Printer. */
const PPD = 'drv:///sample.drv/generic.ppd'

/**
 * Administration → Add Printer: picks AppSocket/HP JetDirect, types the connection URI, the
 * queue's name, description and location, picks Generic → Generic PostScript Printer, presses
 * Add Printer.
 */
export const addPrinter: Workflow = {
  id: 'add_printer',
  intent:
    "add a printer named hr-laser in CUPS, description 'HR laser printer', location 'HR office', at socket://10.0.0.50:9100, generic PostScript driver",
  rewordings: {
    terse: 'cups add printer hr-laser socket://10.0.0.50:9100 "HR laser printer" "HR office"',
    chatty:
      "we just plugged a new laser into the network for HR at 10.0.0.50 (port 9100). Please set it up in CUPS as hr-laser, describe it as 'HR laser printer', location 'HR office', the generic PostScript driver is fine",
    withoutValue: 'add a network printer to CUPS',
  },
  startPath: '/admin',
  signedIn: false,
  async play(page) {
    await pressButton(page, 'Add Printer')
    await page.getByLabel('AppSocket/HP JetDirect').check()
    await pressButton(page, 'Continue')
    await typeInto(page, 'DEVICE_URI', 'socket://10.0.0.50:9100')
    await pressButton(page, 'Continue')
    await typeInto(page, 'PRINTER_NAME', 'hr-laser')
    await typeInto(page, 'PRINTER_INFO', 'HR laser printer')
    await typeInto(page, 'PRINTER_LOCATION', 'HR office')
    await pressButton(page, 'Continue')
    await page.locator('select[name="PPD_MAKE"]').selectOption('Generic')
    await pressButton(page, 'Continue')
    await page.locator('select[name="PPD_NAME"]').selectOption(PPD)
    await pressButton(page, 'Add Printer')
    await waitForText(page, /has been added/)
  },
  key: {
    target: {
      method: 'POST',
      path: '/admin',
      operation: [
        { field: 'OP', value: 'add-printer' },
        { field: 'PPD_NAME', value: PPD },
      ],
    },
    inputs: [
      { recorded: 'hr-laser', changed: ['mailroom-laser', 'legal-laser'] },
      { recorded: 'HR laser printer', changed: ['Mailroom laser printer', 'Legal team laser'] },
      { recorded: 'HR office', changed: ['Mailroom', 'Legal, floor 5'] },
      {
        recorded: 'socket://10.0.0.50:9100',
        changed: ['socket://10.0.0.51:9100', 'socket://10.0.0.52:9100'],
      },
    ],
    dependencies: [READS_A_PAGE],
    mutating: true,
    async replayByHand(app, session) {
      const used = [
        'mailroom-laser',
        'Mailroom laser printer',
        'Mailroom',
        'socket://10.0.0.51:9100',
      ]
      const [name, info, location, uri] = used as [string, string, string, string]
      // The wizard's last step, as the browser posts it (multipart: the form can carry a PPD).
      const html = await postForm(
        app,
        '/admin',
        {
          OP: 'add-printer',
          printer_name: name,
          BAUDRATE: '',
          BITS: '',
          PARITY: '',
          FLOW: '',
          PRINTER_NAME: name,
          PRINTER_INFO: info,
          PRINTER_LOCATION: location,
          DEVICE_URI: uri,
          PRINTER_IS_SHARED: '',
          PPD_MAKE: 'Generic',
          PPD_NAME: PPD,
        },
        true,
      )
      if (!html.includes('has been added')) throw new Error('Add Printer did not say done')
      mustPass(
        await addPrinter.key.check(app, { status: 'succeeded', result: null }, session, used),
      )
    },
    async check(app, _run, _session, used) {
      const [name, info, location, uri] = used.map(String) as [string, string, string, string]
      const html = await getText(app, `/printers/${encodeURIComponent(name)}`)
      const field = (label: string): string | undefined =>
        new RegExp(`${label}:</TH><TD>([^<]*)`).exec(html)?.[1]?.trim()
      // An unknown queue's page is the same template with its fields unfilled (`{device_uri}`).
      if (!/^[^{]/.test(field('Connection') ?? '')) return `there is no printer ${name}`
      const want = { Description: info, Location: location, Connection: uri }
      for (const [label, value] of Object.entries(want)) {
        const got = field(label)?.replace(/&#39;/g, "'").replace(/&amp;/g, '&')
        if (got !== value) return `${name}'s ${label} is ${got}, not ${value}`
      }
      const recorded = await getText(app, '/printers/hr-laser')
      return /Connection:<\/TH><TD>[^<\s{]/.test(recorded)
        ? 'the recorded printer hr-laser was added too'
        : null
    },
  },
}
