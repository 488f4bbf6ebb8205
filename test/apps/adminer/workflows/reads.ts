/**
 * Adminer workflows that read: a table's rows filtered by a typed value (the Search fieldset of
 * the select page, a GET with `where[0][...]`), a table's rows with nothing typed, an SQL command
 * typed in the SQL box (a form post of `query`), and a table exported as CSV (a form post of
 * `export=Export` to the select page, answered with the CSV as text).
 */
import type { Workflow } from '../../types'
import { resultText } from '../../match'
import { getPage, mustPass, pageKey, pageToken, plainText, postForm } from '../keys'
import { logInOnForm, openTable } from './person'

/** A read's check: the result holds `want` and not `notWant` (which a read ignoring the input would show). */
function holds(
  result: unknown,
  want: Record<string, { has: string; not: string }>,
  used: string | number | boolean | undefined,
): string | null {
  const value = String(used)
  const expected = want[value]
  if (!expected) return `no expectation for ${JSON.stringify(value)}`
  const text = plainText(resultText(result))
  if (!text.includes(expected.has)) return `the result lacks ${expected.has} (asked: ${value})`
  if (text.includes(expected.not))
    return `the result shows ${expected.not}, which ${JSON.stringify(value)} does not select`
  return null
}

/** Customers by city: who lives there, and one who does not (never deleted by a workflow). */
const BY_CITY: Record<string, { has: string; not: string }> = {
  London: { has: 'Rosalind Franklin', not: 'Grace Hopper' },
  Paris: { has: 'Marie Curie', not: 'Grace Hopper' },
  Rome: { has: 'Enrico Fermi', not: 'Grace Hopper' },
}

/** On the customers table: opens Search, picks the city column, types London, clicks Select. */
export const searchCustomers: Workflow = {
  id: 'search_customers',
  intent: 'find the customers in London',
  rewordings: {
    terse: 'customers city London',
    chatty: 'can you look up which of our customers live in London in the shop database?',
    withoutValue: 'find the customers of a city',
  },
  startPath: '/?pgsql=127.0.0.1&username=ada&db=shop&ns=public&select=customers',
  signedIn: true,
  async play(page) {
    await page.getByRole('link', { name: 'Search', exact: true }).click()
    await page.locator('select[name="where[0][col]"]').selectOption('city')
    await page.locator('input[name="where[0][val]"]').fill('London')
    await page.getByRole('button', { name: 'Select', exact: true }).click()
    await page.waitForURL(/where%5B0%5D%5Bval%5D=London/)
    await page.getByRole('cell', { name: 'Rosalind Franklin' }).waitFor()
  },
  key: {
    target: {
      method: 'GET',
      path: '/',
      operation: [
        { field: 'select', value: 'customers' },
        { field: 'where[0][col]', value: 'city' },
      ],
    },
    inputs: [{ recorded: 'London', changed: ['Paris', 'Rome'] }],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const city = String(this.inputs[0]!.changed[0])
      const query = new URLSearchParams({
        select: 'customers',
        'where[0][col]': 'city',
        'where[0][op]': '=',
        'where[0][val]': city,
        limit: '50',
      })
      const html = await getPage(app, session, query.toString())
      mustPass(await this.check(app, { status: 'succeeded', result: html }, session, [city]))
    },
    async check(_app, run, _session, used) {
      return holds(run.result, BY_CITY, used[0])
    },
  },
}

/** Signs in on the login form, then clicks "select" next to products in the menu. */
export const listProducts: Workflow = {
  id: 'list_products',
  intent: 'list the products in the shop database',
  rewordings: {
    terse: 'shop products',
    chatty: 'could you show me all the products we have in the shop database, with prices?',
    withoutValue: 'show the products table',
  },
  startPath: '/',
  signedIn: false,
  async play(page, app) {
    await logInOnForm(page, app)
    await openTable(page, 'products')
    await page.getByRole('cell', { name: 'Label printer' }).waitFor()
  },
  key: {
    target: pageKey('select', 'products'),
    inputs: [],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const html = await getPage(app, session, 'select=products')
      mustPass(await this.check(app, { status: 'succeeded', result: html }, session, []))
    },
    async check(_app, run) {
      const text = plainText(resultText(run.result))
      // Seeded products no workflow touches, and no row of another table.
      for (const name of ['Fountain pen', 'Label printer', 'Whiteboard'])
        if (!text.includes(name)) return `the result lacks the product ${name}`
      if (text.includes('Grace Hopper')) return 'the result shows customers, not products'
      return null
    },
  },
}

/** SQL commands and what their result shows (`has`) and does not (`not`, not in the query). */
const QUERIES: Record<string, { has: string; not: string }> = {
  "SELECT name, email FROM customers WHERE city = 'London'": {
    has: 'rosalind@example.org',
    not: 'grace@example.org',
  },
  'SELECT name, price FROM products WHERE price > 50': { has: 'Whiteboard', not: 'Stapler' },
  "SELECT name, email FROM customers WHERE city = 'Erlangen'": {
    has: 'emmy@example.org',
    not: 'grace@example.org',
  },
}

/** Signs in on the login form, clicks "SQL command", types the query, clicks Execute. */
export const runSql: Workflow = {
  id: 'run_sql',
  intent: "run the SQL query SELECT name, email FROM customers WHERE city = 'London'",
  rewordings: {
    terse: "sql: SELECT name, email FROM customers WHERE city = 'London'",
    chatty:
      "please run this on the shop database for me and tell me what comes back: SELECT name, email FROM customers WHERE city = 'London'",
    withoutValue: 'run an SQL query on the shop database',
  },
  startPath: '/',
  signedIn: false,
  async play(page, app) {
    await logInOnForm(page, app)
    await page.getByRole('link', { name: 'SQL command' }).click()
    // The SQL box is a highlighted contenteditable over a hidden textarea: type as a person.
    await page.locator('pre.sqlarea').click()
    await page.keyboard.type("SELECT name, email FROM customers WHERE city = 'London'", {
      delay: 10,
    })
    await page.getByRole('button', { name: 'Execute' }).click()
    await page.getByRole('cell', { name: 'rosalind@example.org' }).waitFor()
  },
  key: {
    // Every post goes to `/`; only the SQL command's form has the Limit rows field (left empty).
    // The query would name it better, but the URL's `sql=` and the body's `query` both hold
    // it, and match.ts compares a multipart body's filled field URL-encoded.
    target: { method: 'POST', path: '/', operation: { field: 'limit', value: '' } },
    inputs: [
      {
        recorded: "SELECT name, email FROM customers WHERE city = 'London'",
        changed: [
          'SELECT name, price FROM products WHERE price > 50',
          "SELECT name, email FROM customers WHERE city = 'Erlangen'",
        ],
      },
    ],
    // The SQL page's form carries the CSRF token.
    dependencies: [{ method: 'GET', path: '/' }],
    mutating: false,
    async replayByHand(app, session) {
      const query = String(this.inputs[0]!.changed[0])
      const token = pageToken(await getPage(app, session, 'sql='))
      const res = await postForm(app, session, 'sql=', [
        ['query', query],
        ['limit', ''],
        ['token', token],
      ])
      if (res.status !== 200) throw new Error(`the SQL command answered ${res.status}`)
      mustPass(await this.check(app, { status: 'succeeded', result: res.text }, session, [query]))
    },
    async check(_app, run, _session, used) {
      return holds(run.result, QUERIES, used[0])
    },
  },
}

/** What a table's export shows (`has`), and a column of the recorded table (orders) it does not. */
const EXPORTS: Record<string, { has: string; not: string }> = {
  orders: { has: 'ordered_on', not: 'grace@example.org' },
  customers: { has: 'grace@example.org', not: 'ordered_on' },
  products: { has: 'Fountain pen', not: 'ordered_on' },
}

/**
 * What an export in `format` shows of the customers' or products' row 2 (Grace Hopper, Fountain
 * pen): a CSV line with commas, a TSV line with tabs, or an SQL INSERT.
 */
const FORMATS: Record<string, RegExp> = {
  csv: /(Grace Hopper|Fountain pen)"?,/,
  tsv: /(Grace Hopper|Fountain pen)"?\t/,
  sql: /INSERT INTO "(customers|products)"/,
}

/** On the orders table: opens the Export fieldset, picks CSV, clicks Export (opens the text). */
export const exportTable: Workflow = {
  id: 'export_table',
  intent: 'export the orders table as CSV',
  rewordings: {
    terse: 'orders to csv',
    chatty: 'I need the orders table of the shop database as a CSV file, can you export it?',
    withoutValue: 'export a table of the database',
  },
  startPath: '/?pgsql=127.0.0.1&username=ada&db=shop&ns=public&select=orders',
  signedIn: true,
  async play(page) {
    await page.locator('a[href="#fieldset-export"]').click()
    const fieldset = page.locator('#fieldset-export')
    await fieldset.locator('select[name="format"]').selectOption('csv')
    await fieldset.getByRole('button', { name: 'Export' }).click()
    // "open" shows the CSV as a plain text page.
    await page.getByText('ordered_on').first().waitFor()
  },
  key: {
    target: {
      method: 'POST',
      path: '/',
      operation: [
        { field: 'select', value: 'orders' },
        { field: 'export', value: 'Export' },
      ],
    },
    inputs: [
      { recorded: 'orders', changed: ['customers', 'products'] },
      // Picked in the Format menu, and named by the intent.
      { recorded: 'csv', changed: ['tsv', 'sql'] },
    ],
    dependencies: [pageKey('select', 'orders')],
    mutating: false,
    async replayByHand(app, session) {
      const [table, format] = this.inputs.map((i) => String(i.changed[0]))
      const token = pageToken(await getPage(app, session, `select=${table}`))
      const res = await postForm(app, session, `select=${table}`, [
        ['output', 'text'],
        ['format', format!],
        ['export', 'Export'],
        ['token', token],
      ])
      if (res.status !== 200) throw new Error(`the export answered ${res.status}`)
      const used = [table!, format!]
      mustPass(await this.check(app, { status: 'succeeded', result: res.text }, session, used))
    },
    async check(_app, run, _session, used) {
      const problem = holds(run.result, EXPORTS, used[0])
      if (problem) return problem
      const format = FORMATS[String(used[1])]
      if (!format) return `no expectation for the format ${String(used[1])}`
      return format.test(plainText(resultText(run.result)))
        ? null
        : `the export is not in the format ${String(used[1])}`
    },
  },
}
