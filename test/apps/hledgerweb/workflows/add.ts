/**
 * Adding transactions with the "Add a transaction" dialog: a urlencoded POST to `/add` holding
 * `_formid=identify-add`, the session's CSRF `_token` (printed in every page's form), `date`,
 * `description` and four `account`/`amount` pairs (unused rows sent empty; one empty amount is
 * the balancing posting hledger infers). hledger-web appends the transaction to the journal file
 * and answers 303 back to the journal.
 */
import type { AppInstance, Workflow } from '../../types'
import {
  ADD_FORM_PAGE,
  addByHand,
  mustPass,
  postedAmount,
  transactions,
  typedNumber,
} from '../keys'
import { addTransaction as fillAddForm } from '../person'

/** The values of a key's inputs, in order. */
type Five = [string, string, string, string, string]
type Seven = [string, string, string, string, string, string, string]

/**
 * The check of an add: null when the journal holds one transaction described `description`
 * dated `date` that posts each `[account, typed amount]` of `postings` (and the balancing rest
 * to `balancing`), else what is wrong.
 */
async function added(
  app: AppInstance,
  date: string,
  description: string,
  postings: Array<[string, string]>,
  balancing: string,
): Promise<string | null> {
  const found = (await transactions(app)).filter((t) => t.tdescription === description)
  if (found.length !== 1) return `the journal holds ${found.length} transactions "${description}"`
  const t = found[0]!
  if (t.tdate !== date) return `"${description}" is dated ${t.tdate}, not ${date}`
  let total = 0
  for (const [account, typed] of postings) {
    const amount = postedAmount(t, account)
    if (amount === null || Math.abs(amount - typedNumber(typed)) > 0.001)
      return `"${description}" posts ${String(amount)} to ${account}, not ${typed}`
    total += amount
  }
  const rest = postedAmount(t, balancing)
  if (rest === null || Math.abs(rest + total) > 0.001)
    return `"${description}" posts ${String(rest)} to ${balancing}, not ${-total}`
  return null
}

/** Opens the add dialog from the journal: a cash purchase of groceries. */
export const addTransaction: Workflow = {
  id: 'add_transaction',
  intent:
    "add a transaction to my hledger journal: 2026-03-28 'Bakery Hofer', 12.40 EUR from assets:cash to expenses:food:groceries",
  rewordings: {
    terse: 'hledger add 2026-03-28 Bakery Hofer 12.40 EUR groceries from cash',
    chatty:
      'I bought bread at Bakery Hofer on 2026-03-28 for 12.40 EUR in cash, could you book it under groceries?',
    withoutValue: 'add a transaction to my journal',
  },
  startPath: '/journal',
  signedIn: true,
  async play(page) {
    await fillAddForm(page, '2026-03-28', 'Bakery Hofer', [
      { account: 'expenses:food:groceries', amount: '12.40 EUR' },
      { account: 'assets:cash' },
    ])
  },
  key: {
    target: { method: 'POST', path: '/add' },
    // Every value the person typed: the date, the description, both accounts and the amount.
    inputs: [
      { recorded: '2026-03-28', changed: ['2026-03-29', '2026-03-30'] },
      { recorded: 'Bakery Hofer', changed: ['Florist Rosa', 'Bike Shop Lenz'] },
      { recorded: 'expenses:food:groceries', changed: ['expenses:household', 'expenses:fun'] },
      { recorded: '12.40 EUR', changed: ['8.90 EUR', '31.15 EUR'] },
      { recorded: 'assets:cash', changed: ['liabilities:creditcard', 'assets:bank:checking'] },
    ],
    dependencies: [ADD_FORM_PAGE],
    mutating: true,
    async replayByHand(app, session) {
      const used = addTransaction.key.inputs.map((input) => input.changed[0])
      const [date, description, account, amount, from] = used.map(String) as Five
      await addByHand(app, session, date, description, [
        [account, amount],
        [from, ''],
      ])
      mustPass(
        await addTransaction.key.check(app, { status: 'succeeded', result: null }, session, used),
      )
    },
    async check(app, _run, _session, used) {
      const [date, description, account, amount, from] = used.map(String) as Five
      return added(app, date, description, [[account, amount]], from)
    },
  },
}

/** The same dialog with three rows: one receipt split over two expense accounts, on the card. */
export const addSplitTransaction: Workflow = {
  id: 'add_split_transaction',
  intent:
    "record the 2026-03-21 'Supermarket Kaufland' card payment in hledger, split 60.00 EUR to expenses:food:groceries and 15.50 EUR to expenses:household, from liabilities:creditcard",
  rewordings: {
    terse: 'split Supermarket Kaufland 60.00 EUR groceries 15.50 EUR household card',
    chatty:
      'The Supermarket Kaufland receipt from the 21st of March 2026 had 60.00 EUR of food and 15.50 EUR of household stuff, paid by credit card. Can you book it split like that?',
    withoutValue: 'add a split transaction across several accounts',
  },
  startPath: '/journal',
  signedIn: true,
  async play(page) {
    await fillAddForm(page, '2026-03-21', 'Supermarket Kaufland', [
      { account: 'expenses:food:groceries', amount: '60.00 EUR' },
      { account: 'expenses:household', amount: '15.50 EUR' },
      { account: 'liabilities:creditcard' },
    ])
  },
  key: {
    target: { method: 'POST', path: '/add' },
    // Every value the person typed: the date, the description, three accounts, two amounts.
    inputs: [
      { recorded: '2026-03-21', changed: ['2026-03-22', '2026-03-23'] },
      { recorded: 'Supermarket Kaufland', changed: ['Drugstore DM', 'Market Hall Lindner'] },
      { recorded: 'expenses:food:groceries', changed: ['expenses:food:dining', 'expenses:health'] },
      { recorded: '60.00 EUR', changed: ['42.00 EUR', '18.30 EUR'] },
      { recorded: 'expenses:household', changed: ['expenses:fun', 'expenses:transport'] },
      { recorded: '15.50 EUR', changed: ['7.25 EUR', '22.10 EUR'] },
      { recorded: 'liabilities:creditcard', changed: ['assets:cash', 'assets:bank:checking'] },
    ],
    dependencies: [ADD_FORM_PAGE],
    mutating: true,
    async replayByHand(app, session) {
      const used = addSplitTransaction.key.inputs.map((input) => input.changed[0])
      const [date, description, first, firstAmount, second, secondAmount, from] = used.map(
        String,
      ) as Seven
      await addByHand(app, session, date, description, [
        [first, firstAmount],
        [second, secondAmount],
        [from, ''],
      ])
      mustPass(
        await addSplitTransaction.key.check(
          app,
          { status: 'succeeded', result: null },
          session,
          used,
        ),
      )
    },
    async check(app, _run, _session, used) {
      const [date, description, first, firstAmount, second, secondAmount, from] = used.map(
        String,
      ) as Seven
      return added(
        app,
        date,
        description,
        [
          [first, firstAmount],
          [second, secondAmount],
        ],
        from,
      )
    },
  },
}
