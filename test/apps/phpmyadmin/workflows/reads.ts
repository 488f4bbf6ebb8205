/**
 * phpMyAdmin workflows that read: a table search (query by example), browsing a table, a typed
 * SQL query, and a CSV export. All but the browse are POSTs carrying the session's token.
 */
import type { Workflow } from '../../types'
import { mustPass, pageToken, postAjax, resultHolds, resultText } from '../keys'
import { ANY_PAGE, logInByForm, navLink, openTab, settle } from './person'

/** Who lives in each city searched (and nobody in the other cities searched). */
const BY_CITY: Record<string, string> = {
  Paris: 'Pierre Curie',
  London: 'Rosalind Franklin',
  Manchester: 'Alan Turing',
}

/** From the customers table: the Search tab, a city typed into the city row, Go. */
export const searchRows: Workflow = {
  id: 'search_rows',
  intent: 'find the customers in the city Paris in the shop database',
  rewordings: {
    terse: 'shop customers in Paris',
    chatty:
      'could you look up which of our customers in the shop database live in Paris? I need their emails',
    withoutValue: 'search the customers table by city',
  },
  startPath: '/index.php?route=/sql&db=shop&table=customers&pos=0',
  signedIn: true,
  async play(page) {
    await settle(page)
    await openTab(page, 'Search', page.locator('input[name="criteriaValues[3]"]'))
    await page.locator('input[name="criteriaValues[3]"]').fill('Paris')
    await page.locator('#tbl_search_form').getByRole('button', { name: 'Go' }).click()
    await page
      .locator('table.table_results td')
      .getByText('Pierre Curie', { exact: true })
      .waitFor()
  },
  key: {
    target: {
      method: 'POST',
      path: '/index.php',
      operation: { field: 'route', value: '/table/search' },
    },
    inputs: [{ recorded: 'Paris', changed: ['London', 'Manchester'] }],
    dependencies: [ANY_PAGE],
    mutating: false,
    async replayByHand(app, session) {
      const answer = await postAjax(app, session, '/index.php?route=/table/search', [
        ['db', 'shop'],
        ['table', 'customers'],
        ['criteriaColumnNames[3]', 'city'],
        ['criteriaColumnTypes[3]', 'varchar(60)'],
        ['criteriaColumnOperators[3]', 'LIKE'],
        ['criteriaValues[3]', 'London'],
        ['session_max_rows', '25'],
        ['orderByColumn', '--nil--'],
        ['order', 'ASC'],
        ['submit', 'Go'],
        ['displayAllColumns', 'true'],
      ])
      mustPass(
        await searchRows.key.check(app, { status: 'succeeded', result: answer }, session, [
          'London',
        ]),
      )
    },
    async check(_app, run, _session, used) {
      return resultHolds(run.result, BY_CITY, used[0])
    },
  },
}

/** From the shop database's table list: clicks the products table, which shows its rows. */
export const browseTable: Workflow = {
  id: 'browse_table',
  intent: 'show me the rows of the products table in the shop database',
  rewordings: {
    terse: 'products table rows',
    chatty: "what's in our products table right now? just list the rows of it in the shop database",
    withoutValue: 'list the rows of a table',
  },
  startPath: '/index.php?route=/database/structure&db=shop',
  signedIn: true,
  async play(page) {
    await settle(page)
    await page.locator('#tablesForm').getByRole('link', { name: 'products', exact: true }).click()
    await page
      .locator('table.table_results td')
      .getByText('Standing Desk', { exact: true })
      .waitFor()
  },
  key: {
    target: { method: 'GET', path: '/index.php', operation: { field: 'route', value: '/sql' } },
    inputs: [],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const res = await app.fetch(
        '/index.php?route=/sql&pos=0&db=shop&table=products&ajax_request=true&ajax_page_request=true',
        { session },
      )
      const answer = await res.text()
      if (res.status !== 200) throw new Error(`browse answered ${res.status}`)
      mustPass(
        await browseTable.key.check(app, { status: 'succeeded', result: answer }, session, []),
      )
    },
    async check(_app, run) {
      const text = resultText(run.result)
      const missing = ['Desk Lamp', 'Standing Desk', 'Whiteboard'].filter((n) => !text.includes(n))
      return missing.length ? `the result lacks the products ${missing.join(', ')}` : null
    },
  },
}

const SQL_ENGINEERING = "SELECT name, salary FROM employees WHERE department = 'Engineering'"
const SQL_RESEARCH = "SELECT name, salary FROM employees WHERE department = 'Research'"
const SQL_OPERATIONS = "SELECT name, salary FROM employees WHERE department = 'Operations'"
/** Who each query finds (and no other query finds). */
const BY_QUERY: Record<string, string> = {
  [SQL_ENGINEERING]: 'Katherine Johnson',
  [SQL_RESEARCH]: 'Edsger Dijkstra',
  [SQL_OPERATIONS]: 'Grace Hopper',
}

/** Signs in, opens the hr database, its SQL tab, types a query into the editor and runs it. */
export const runSql: Workflow = {
  id: 'run_sql',
  intent: `run the SQL query ${SQL_ENGINEERING} on the hr database`,
  rewordings: {
    terse: `hr: ${SQL_ENGINEERING}`,
    chatty: `can you log in to phpMyAdmin and run this on the hr database for me: ${SQL_ENGINEERING}`,
    withoutValue: 'run an SQL query on the hr database',
  },
  startPath: '/index.php',
  signedIn: false,
  async play(page, app) {
    await logInByForm(page, app)
    await navLink(page, 'hr').click()
    await page.locator('#tablesForm').getByRole('link', { name: 'employees' }).first().waitFor()
    await settle(page)
    await openTab(page, 'SQL', page.locator('#sqlqueryform .CodeMirror'))
    await page.locator('#sqlqueryform .CodeMirror').click()
    await page.keyboard.type(SQL_ENGINEERING, { delay: 10 })
    await page.locator('#button_submit_query').click()
    await page
      .locator('table.table_results td')
      .getByText('Katherine Johnson', { exact: true })
      .waitFor()
  },
  key: {
    target: { method: 'POST', path: '/index.php', operation: { field: 'route', value: '/import' } },
    inputs: [{ recorded: SQL_ENGINEERING, changed: [SQL_RESEARCH, SQL_OPERATIONS] }],
    dependencies: [ANY_PAGE],
    mutating: false,
    async replayByHand(app, session) {
      const answer = await postAjax(app, session, '/index.php?route=/import', [
        ['db', 'hr'],
        ['pos', '0'],
        ['goto', 'index.php?route=/database/sql'],
        ['sql_query', SQL_RESEARCH],
        ['sql_delimiter', ';'],
        ['SQL', 'Go'],
        ['ajax_page_request', 'true'],
      ])
      mustPass(
        await runSql.key.check(app, { status: 'succeeded', result: answer }, session, [
          SQL_RESEARCH,
        ]),
      )
    },
    async check(_app, run, _session, used) {
      return resultHolds(run.result, BY_QUERY, used[0])
    },
  },
}

/** A text only each table's CSV holds. */
const BY_TABLE: Record<string, string> = {
  orders: '2026-11-16',
  products: 'Standing Desk',
  customers: 'marie@example.org',
}

/** From the orders table: the Export tab, format CSV, Go; the browser downloads orders.csv. */
export const exportTable: Workflow = {
  id: 'export_table',
  intent: 'export the orders table of the shop database as CSV',
  rewordings: {
    terse: 'orders table to csv',
    chatty:
      'I need the orders table from the shop database as a CSV file for a spreadsheet, please',
    withoutValue: 'export a table as CSV',
  },
  startPath: '/index.php?route=/sql&db=shop&table=orders&pos=0',
  signedIn: true,
  async play(page) {
    await settle(page)
    await openTab(page, 'Export', page.locator('#plugins'))
    await page.locator('#plugins').selectOption('csv')
    const download = page.waitForEvent('download')
    await page.locator('#buttonGo').click()
    await (await download).path()
  },
  key: {
    target: { method: 'POST', path: '/index.php', operation: { field: 'route', value: '/export' } },
    inputs: [{ recorded: 'orders', changed: ['products', 'customers'] }],
    dependencies: [ANY_PAGE],
    mutating: false,
    async replayByHand(app, session) {
      const token = await pageToken(app, session)
      const body = new URLSearchParams({
        db: 'shop',
        table: 'products',
        export_type: 'table',
        export_method: 'quick',
        single_table: '1',
        quick_or_custom: 'quick',
        what: 'csv',
        allrows: '1',
        output_format: 'sendit',
        filename_template: '@TABLE@',
        charset: 'utf-8',
        compression: 'none',
        csv_separator: ',',
        csv_enclosed: '"',
        csv_escaped: '"',
        csv_terminated: 'AUTO',
        csv_null: 'NULL',
        csv_structure_or_data: 'data',
        token,
      })
      const res = await app.fetch('/index.php?route=/export', {
        method: 'POST',
        session,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body,
      })
      const csv = await res.text()
      if (res.status !== 200) throw new Error(`export answered ${res.status}`)
      mustPass(
        await exportTable.key.check(app, { status: 'succeeded', result: csv }, session, [
          'products',
        ]),
      )
    },
    async check(_app, run, _session, used) {
      return resultHolds(run.result, BY_TABLE, used[0])
    },
  },
}
