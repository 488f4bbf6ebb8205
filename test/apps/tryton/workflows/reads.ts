/**
 * Reads: a search of the party list by the filter box (sao sends `model.party.party.search` with
 * the domain `[["rec_name","ilike","%<text>%"]]`, which answers ids only, then
 * `model.party.party.read` of those ids for the list's columns), and a party's e-mail looked up in
 * its form (search, then the form's `model.party.party.read` that answers the ids of its contact
 * mechanisms, then `model.party.contact_mechanism.read` of those ids, which holds the address).
 */
import type { Workflow } from '../../types'
import { mentions, mustPass, rpcCall, rpcKey } from '../keys'
import { openMenu, openRow, searchList } from '../person'
import { PARTIES } from '../seed'

/** Parties → types "Globex" in the filter, Enter; reads the rows. */
export const searchParties: Workflow = {
  id: 'search_parties',
  intent: "find the parties whose name contains 'Globex'",
  rewordings: {
    terse: 'parties matching Globex',
    chatty: "can you look up which parties we have with 'Globex' in the name?",
    withoutValue: 'search the parties by name',
  },
  startPath: '/#tryton',
  signedIn: true,
  async play(page) {
    await openMenu(page, 'Parties')
    await searchList(page, 'Globex')
    await page.locator('td', { hasText: 'Globex Industries' }).first().waitFor()
  },
  key: {
    target: rpcKey('model.party.party.read'),
    inputs: [{ recorded: 'Globex', changed: ['Umbrella', 'Vandelay'] }],
    dependencies: [rpcKey('model.party.party.search')],
    mutating: false,
    async replayByHand(app, session) {
      const ids = await rpcCall<number[]>(
        app,
        session,
        'model.party.party.search',
        [['rec_name', 'ilike', '%Umbrella%']],
        0,
        1000,
        [['name', 'ASC']],
      )
      const rows = await rpcCall(app, session, 'model.party.party.read', ids, ['code', 'name'])
      mustPass(
        await searchParties.key.check(app, { status: 'succeeded', result: rows }, session, [
          'Umbrella',
        ]),
      )
    },
    async check(_app, run, _session, used) {
      const want = PARTIES.find((p) => p.name.includes(String(used[0])))?.name ?? String(used[0])
      if (!mentions(run.result, want)) return `the answer does not show the party ${want}`
      if (mentions(run.result, 'Globex Industries'))
        return 'the answer shows the recorded Globex Industries'
      return null
    },
  },
}

/** Parties → types "Initech", Enter, opens the row; reads the e-mail in Contact Mechanisms. */
export const lookupEmail: Workflow = {
  id: 'lookup_email',
  intent: "what is the email address of the party 'Initech'?",
  rewordings: {
    terse: 'Initech email',
    chatty: 'I need to write to Initech, what email do we have on file for them?',
    withoutValue: "look up a party's email address",
  },
  startPath: '/#tryton',
  signedIn: true,
  async play(page) {
    await openMenu(page, 'Parties')
    await searchList(page, 'Initech')
    await openRow(page, 'Initech')
    await page.locator('td', { hasText: 'contact@initech.example' }).first().waitFor()
  },
  key: {
    target: rpcKey('model.party.contact_mechanism.read'),
    inputs: [{ recorded: 'Initech', changed: ['Hooli', 'Stark Supplies'] }],
    dependencies: [rpcKey('model.party.party.search'), rpcKey('model.party.party.read')],
    mutating: false,
    async replayByHand(app, session) {
      const ids = await rpcCall<number[]>(
        app,
        session,
        'model.party.party.search',
        [['rec_name', 'ilike', '%Hooli%']],
        0,
        1000,
        null,
      )
      const [party] = await rpcCall<Array<{ contact_mechanisms: number[] }>>(
        app,
        session,
        'model.party.party.read',
        ids,
        ['contact_mechanisms'],
      )
      const rows = await rpcCall(
        app,
        session,
        'model.party.contact_mechanism.read',
        party?.contact_mechanisms ?? [],
        ['type', 'value'],
      )
      mustPass(
        await lookupEmail.key.check(app, { status: 'succeeded', result: rows }, session, ['Hooli']),
      )
    },
    async check(_app, run, _session, used) {
      const party = PARTIES.find((p) => p.name === used[0])
      if (!party) return `no seeded party ${String(used[0])}`
      if (!mentions(run.result, party.email)) return `the answer does not hold ${party.email}`
      if (mentions(run.result, 'contact@initech.example'))
        return "the answer holds the recorded Initech's address"
      return null
    },
  },
}
