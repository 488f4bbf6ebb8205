/**
 * A delete of a row picked in a list: Parties, click the row, the tab's menu (its title) →
 * Delete, OK in the confirmation; sao sends `model.party.party.delete` with `[[id], context]`,
 * the context holding the `_timestamp` the list's `model.party.party.read` gave that row.
 */
import type { Workflow } from '../../types'
import { mustPass, parties, rpcKey } from '../keys'
import { openMenu, row, settle } from '../person'
import { partyId } from '../seed'
import { call } from '../session'

/** Parties → clicks Old Mill Bakery's row, Parties menu → Delete, OK. */
export const deleteParty: Workflow = {
  id: 'delete_party',
  intent: 'delete the party Old Mill Bakery',
  rewordings: {
    terse: 'delete party Old Mill Bakery',
    chatty: 'the Old Mill Bakery closed down, please remove them from our parties',
    withoutValue: 'delete a party',
  },
  startPath: '/#tryton',
  signedIn: true,
  async play(page) {
    await openMenu(page, 'Parties')
    await row(page, 'Old Mill Bakery').locator('td', { hasText: 'Old Mill Bakery' }).click()
    await settle(page)
    await page.locator('a.dropdown-toggle', { hasText: 'Parties' }).click()
    await page.locator('ul.dropdown-menu:visible li', { hasText: 'Delete' }).first().click()
    await page.locator('.modal-dialog:visible').getByRole('button', { name: /ok/i }).click()
    await settle(page)
    await page.locator('td', { hasText: 'Old Mill Bakery' }).waitFor({ state: 'detached' })
  },
  key: {
    target: rpcKey('model.party.party.delete'),
    // The row is named by its id (Old Mill Bakery is 7); the others are Soylent Foods and
    // Cyberdyne Systems.
    inputs: [
      {
        recorded: partyId('Old Mill Bakery'),
        changed: [partyId('Soylent Foods'), partyId('Cyberdyne Systems')],
      },
    ],
    // sao sends the _timestamp the list's read gave the row (a revision token trytond checks).
    dependencies: [rpcKey('model.party.party.read')],
    mutating: true,
    async replayByHand(app, session) {
      const id = partyId('Soylent Foods')
      const [r] = await call<Array<{ _timestamp: string }>>(
        app.origin,
        session,
        'model.party.party.read',
        [[id], ['_timestamp'], {}],
      )
      await call(app.origin, session, 'model.party.party.delete', [
        [id],
        { _timestamp: { [`party.party,${id}`]: r?._timestamp } },
      ])
      mustPass(
        await deleteParty.key.check(app, { status: 'succeeded', result: null }, session, [id]),
      )
    },
    async check(app, _run, session, used) {
      const ids = (await parties(app, session)).map((p) => p.id)
      if (ids.includes(Number(used[0]))) return `party ${String(used[0])} is still there`
      if (!ids.includes(partyId('Old Mill Bakery')))
        return 'the recorded party Old Mill Bakery was deleted'
      if (ids.length < 8) return `only ${ids.length} parties are left`
      return null
    },
  },
}
