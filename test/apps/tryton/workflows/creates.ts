/**
 * Creates: a party from the Parties list's New button (a form with one empty address; Save sends
 * `model.party.party.create` with `[{name, ..., addresses: [["create", [{street, postal_code,
 * city, ...}]]]}]`, answered with the new id), and a category from Categories → New
 * (`model.party.category.create`).
 */
import type { Workflow } from '../../types'
import { addressesOf, categories, mustPass, partyNamed, rpcCall, rpcKey } from '../keys'
import { fillField, openMenu, settle, toolbar } from '../person'

/** Parties → New, types the name, the street, postal code and city of its address, Save. */
export const createParty: Workflow = {
  id: 'create_party',
  intent: "add a new party 'Kramerica Industries' with the address 129 West 81st Street, New York",
  rewordings: {
    terse: 'new party Kramerica Industries, 129 West 81st Street, New York',
    chatty:
      "we've got a new customer, Kramerica Industries, they're at 129 West 81st Street in New York, can you add them?",
    withoutValue: 'create a party with an address',
  },
  startPath: '/#tryton',
  signedIn: true,
  async play(page) {
    await openMenu(page, 'Parties')
    await toolbar(page, 'New')
    await fillField(page, 'Name:', 'Kramerica Industries')
    await fillField(page, 'Street:', '129 West 81st Street')
    await fillField(page, 'City:', 'New York')
    await settle(page)
    await toolbar(page, 'Save')
    // Saved: trytond gave the new party its code, which the form now shows.
    const code = page.getByLabel('Code:', { exact: true }).first()
    await page.waitForFunction(
      (el) => (el as HTMLInputElement | null)?.value !== '',
      await code.elementHandle(),
    )
  },
  key: {
    target: rpcKey('model.party.party.create'),
    inputs: [
      { recorded: 'Kramerica Industries', changed: ['Pendant Publishing', 'Monks Diner'] },
      { recorded: '129 West 81st Street', changed: ['12 Park Place', '77 Elm Road'] },
      { recorded: 'New York', changed: ['Boston', 'Chicago'] },
    ],
    dependencies: [],
    mutating: true,
    async replayByHand(app, session) {
      await rpcCall(app, session, 'model.party.party.create', [
        {
          name: 'Pendant Publishing',
          addresses: [['create', [{ street: '12 Park Place', postal_code: '', city: 'Boston' }]]],
        },
      ])
      mustPass(
        await createParty.key.check(app, { status: 'succeeded', result: null }, session, [
          'Pendant Publishing',
          '12 Park Place',
          'Boston',
        ]),
      )
    },
    async check(app, _run, session, used) {
      const party = await partyNamed(app, session, String(used[0]))
      if (!party) return `there is no party ${String(used[0])}`
      const addresses = await addressesOf(app, session, party.id)
      if (!addresses.some((a) => a.street === used[1] && a.city === used[2]))
        return `${String(used[0])} has no address ${String(used[1])}, ${String(used[2])} (${JSON.stringify(addresses)})`
      if (await partyNamed(app, session, 'Kramerica Industries'))
        return 'the recorded party Kramerica Industries was created'
      return null
    },
  },
}

/** Categories → Categories, New, types the name, Save. */
export const createCategory: Workflow = {
  id: 'create_category',
  intent: "create a party category called 'Distributor'",
  rewordings: {
    terse: 'new category Distributor',
    chatty: "I'd like to tag some parties as distributors, can you make a 'Distributor' category?",
    withoutValue: 'add a party category',
  },
  startPath: '/#tryton',
  signedIn: true,
  async play(page) {
    await openMenu(page, 'Categories')
    await toolbar(page, 'New')
    await fillField(page, 'Name:', 'Distributor')
    await toolbar(page, 'Save')
  },
  key: {
    target: rpcKey('model.party.category.create'),
    inputs: [{ recorded: 'Distributor', changed: ['Wholesaler', 'Retailer'] }],
    dependencies: [],
    mutating: true,
    async replayByHand(app, session) {
      await rpcCall(app, session, 'model.party.category.create', [{ name: 'Wholesaler' }])
      mustPass(
        await createCategory.key.check(app, { status: 'succeeded', result: null }, session, [
          'Wholesaler',
        ]),
      )
    },
    async check(app, _run, session, used) {
      const names = [...(await categories(app, session)).values()]
      if (!names.includes(String(used[0]))) return `there is no category ${String(used[0])}`
      if (names.includes('Distributor')) return 'the recorded category Distributor was created'
      return null
    },
  },
}
