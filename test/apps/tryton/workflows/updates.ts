/**
 * Updates: a party renamed in its form (Save sends `model.party.party.write` with `[[id], {name},
 * context]`, the context holding `_timestamp: {"party.party,<id>": ...}` from the form's
 * `model.party.party.read`, which trytond compares with the record's own and refuses when it is
 * stale); a category added to a party by typing its name in the form's Categories field (sao
 * looks it up with `model.party.category.search_read` on `rec_name ilike`, and Save writes
 * `{categories: [["add", [<category id>]]]}`); and the user's own e-mail changed in the
 * Preferences dialog (`model.res.user.set_preferences` with `{email}`).
 */
import type { StorageState } from '../../../../src/shared/trace'
import type { AppInstance, Workflow } from '../../types'
import { mustPass, parties, rpcCall, rpcKey } from '../keys'
import { fillField, openMenu, openRow, settle, toolbar } from '../person'
import { categoryId, partyId } from '../seed'
import { call } from '../session'

/** A party's current `_timestamp` (what the form's read gives sao). */
async function stamp(app: AppInstance, session: StorageState, id: number): Promise<string> {
  const [row] = await rpcCall<Array<{ _timestamp: string }>>(
    app,
    session,
    'model.party.party.read',
    [id],
    ['_timestamp'],
  )
  return row?._timestamp ?? ''
}

const GLOBEX = partyId('Globex Industries')
const ACME = partyId('Acme Corporation')

/** Parties → double-clicks Globex Industries, replaces the name, Save. */
export const renameParty: Workflow = {
  id: 'rename_party',
  intent: "rename the party Globex Industries to 'Globex Corporation'",
  rewordings: {
    terse: 'Globex Industries -> Globex Corporation',
    chatty: "Globex changed their company name, could you update it to 'Globex Corporation'?",
    withoutValue: 'rename a party',
  },
  startPath: '/#tryton',
  signedIn: true,
  async play(page) {
    await openMenu(page, 'Parties')
    await openRow(page, 'Globex Industries')
    await fillField(page, 'Name:', 'Globex Corporation')
    await toolbar(page, 'Save')
  },
  key: {
    target: rpcKey('model.party.party.write'),
    inputs: [{ recorded: 'Globex Corporation', changed: ['Globex Holdings', 'Globex Group'] }],
    // The write carries the form's read's _timestamp (a revision token trytond checks).
    dependencies: [rpcKey('model.party.party.read')],
    mutating: true,
    async replayByHand(app, session) {
      // As sao sends it: the context holds the _timestamp the record was read with.
      const ts = await stamp(app, session, GLOBEX)
      await call(app.origin, session, 'model.party.party.write', [
        [GLOBEX],
        { name: 'Globex Holdings' },
        { _timestamp: { [`party.party,${GLOBEX}`]: ts } },
      ])
      mustPass(
        await renameParty.key.check(app, { status: 'succeeded', result: null }, session, [
          'Globex Holdings',
        ]),
      )
    },
    async check(app, _run, session, used) {
      const all = await parties(app, session)
      const globex = all.find((p) => p.id === GLOBEX)
      if (globex?.name !== used[0]) return `party ${GLOBEX} is named "${globex?.name}"`
      if (all.some((p) => p.name === 'Globex Corporation'))
        return 'a party is named the recorded Globex Corporation'
      return null
    },
  },
}

/** Parties → double-clicks Acme Corporation, types "Supplier" in Categories, picks it, Save. */
export const addCategory: Workflow = {
  id: 'add_category',
  intent: "put Acme Corporation in the 'Supplier' category",
  rewordings: {
    terse: 'Acme Corporation: add category Supplier',
    chatty: "turns out Acme also sells to us, can you tag them as a 'Supplier' too?",
    withoutValue: 'add a category to a party',
  },
  startPath: '/#tryton',
  signedIn: true,
  async play(page) {
    await openMenu(page, 'Parties')
    await openRow(page, 'Acme Corporation')
    const field = page.locator('input[name=categories]')
    await field.fill('Supplier')
    await settle(page)
    await field
      .locator('..')
      .locator('ul.dropdown-menu li', { hasText: /^\s*Supplier\s*$/ })
      .first()
      .click()
    await settle(page)
    await toolbar(page, 'Save')
  },
  key: {
    target: rpcKey('model.party.party.write'),
    inputs: [{ recorded: 'Supplier', changed: ['Prospect', 'Reseller'] }],
    // The category is named by its id: sao finds it by the typed name first; the write also
    // carries the party's _timestamp from the form's read, as the rename does.
    dependencies: [rpcKey('model.party.category.search_read'), rpcKey('model.party.party.read')],
    mutating: true,
    async replayByHand(app, session) {
      const [cat] = await rpcCall<Array<{ id: number }>>(
        app,
        session,
        'model.party.category.search_read',
        [['rec_name', 'ilike', '%Prospect%']],
        0,
        1000,
        null,
        ['rec_name'],
      )
      await rpcCall(app, session, 'model.party.party.write', [ACME], {
        categories: [['add', [cat?.id]]],
      })
      mustPass(
        await addCategory.key.check(app, { status: 'succeeded', result: null }, session, [
          'Prospect',
        ]),
      )
    },
    async check(app, _run, session, used) {
      const acme = (await parties(app, session)).find((p) => p.id === ACME)
      const want = categoryId(String(used[0]))
      if (!acme?.categories.includes(want))
        return `Acme Corporation's categories are ${JSON.stringify(acme?.categories)}, without ${String(used[0])} (${want})`
      if (acme.categories.includes(categoryId('Supplier')))
        return 'Acme Corporation got the recorded category Supplier'
      return null
    },
  },
}

/** Clicks the user's name in the top bar (Preferences), replaces the e-mail, OK. */
export const changeMyEmail: Workflow = {
  id: 'change_my_email',
  intent: "change my email address in my Tryton preferences to 'boss@example.org'",
  rewordings: {
    terse: 'my email: boss@example.org',
    chatty: "I've got a new address, can you set my own email in Tryton to boss@example.org?",
    withoutValue: 'change the email in my user preferences',
  },
  startPath: '/#tryton',
  signedIn: true,
  async play(page) {
    await page.getByText('Party', { exact: true }).first().waitFor()
    await page.locator('#user-preferences a').click()
    const dialog = page.locator('.modal-dialog:visible')
    await dialog.locator('input[type=email]').waitFor()
    await settle(page)
    await dialog.locator('input[type=email]').fill('boss@example.org')
    await dialog.getByRole('button', { name: /ok/i }).click()
    await settle(page)
  },
  key: {
    target: rpcKey('model.res.user.set_preferences'),
    inputs: [
      { recorded: 'boss@example.org', changed: ['owner@example.org', 'office@example.org'] },
    ],
    dependencies: [],
    mutating: true,
    async replayByHand(app, session) {
      await rpcCall(app, session, 'model.res.user.set_preferences', { email: 'owner@example.org' })
      mustPass(
        await changeMyEmail.key.check(app, { status: 'succeeded', result: null }, session, [
          'owner@example.org',
        ]),
      )
    },
    async check(app, _run, session, used) {
      const [user] = await rpcCall<Array<{ email: string | null }>>(
        app,
        session,
        'model.res.user.read',
        [1],
        ['email'],
      )
      if (user?.email !== used[0]) return `the admin's email is ${String(user?.email)}`
      return null
    },
  },
}
