/**
 * A delete of a row picked in a list: Parties, click the row, the tab's menu (its title) →
 * Delete, OK in the confirmation; sao sends `model.party.party.delete` with `[[id], context]`,
 * the context holding the `_timestamp` the list's `model.party.party.read` gave that row.
 */
import type { Workflow } from '../../types'
import { mustPass, parties, partyNamed, rpcKey } from '../keys'
import { openMenu, row, settle } from '../person'
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
    // The row the person clicked, by the name it shows; the delete names it by the id behind
    // that name, which the list's read gives.
    inputs: [{ recorded: 'Old Mill Bakery', changed: ['Soylent Foods', 'Cyberdyne Systems'] }],
    // The list's read gives the id behind the name, and the _timestamp sao sends with it.
    dependencies: [rpcKey('model.party.party.read')],
    mutating: true,
    async replayByHand(app, session) {
      const id = (await partyNamed(app, session, 'Soylent Foods'))?.id
      if (id === undefined) throw new Error('there is no party Soylent Foods')
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
        await deleteParty.key.check(app, { status: 'succeeded', result: null }, session, [
          'Soylent Foods',
        ]),
      )
    },
    async check(app, _run, session, used) {
      const all = await parties(app, session)
      const names = all.map((p) => p.name)
      if (names.includes(String(used[0]))) return `the party ${String(used[0])} is still there`
      if (!names.includes('Old Mill Bakery'))
        return 'the recorded party Old Mill Bakery was deleted'
      if (all.length < 8) return `only ${all.length} parties are left`
      return null
    },
  },
}
