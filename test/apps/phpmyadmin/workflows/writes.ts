/**
 * phpMyAdmin workflows that change the database: insert a row, edit a row picked in the grid,
 * delete a row picked in the grid, add a column, create a database. Each is an XHR POST to
 * `index.php` carrying the session's token; rows are named by a `where_clause` SQL fragment that
 * the browse page holds for each row, columns by the md5 of their names.
 */
import type { Workflow } from '../../types'
import { dbRows, mustPass, postAjax } from '../keys'
import { CUSTOMERS } from '../seed'
import {
  ANY_PAGE,
  BROWSE,
  columnHash,
  linkText,
  logInByForm,
  rowField,
  openTab,
  settle,
} from './person'

const sqlText = (s: string) => `'${s.replace(/'/g, "''")}'`

/** The form fields of one row of the insert/edit form, as the form posts them. */
function rowFields(values: Record<string, string>, prev?: Record<string, string>) {
  const out: Array<[string, string]> = []
  for (const [column, value] of Object.entries(values)) {
    const h = columnHash(column)
    out.push([`fields_name[multi_edit][0][${h}]`, column])
    out.push([`funcs[multi_edit][0][${h}]`, ''])
    if (prev) out.push([`fields_prev[multi_edit][0][${h}]`, prev[column] ?? ''])
    out.push([`fields[multi_edit][0][${h}]`, value])
  }
  return out
}

/** From the customers table: the Insert tab, name, email and city typed into the first row, Go. */
export const insertRow: Workflow = {
  id: 'insert_row',
  intent:
    'add the customer Katherine Johnson with email katherine@example.org in the city Hampton to the shop database',
  rewordings: {
    terse: 'new customer Katherine Johnson, katherine@example.org, Hampton',
    chatty:
      "we've got a new customer, Katherine Johnson from Hampton, her email is katherine@example.org. can you put her in the customers table of the shop database?",
    withoutValue: 'insert a new customer row',
  },
  startPath: '/index.php?route=/sql&db=shop&table=customers&pos=0',
  signedIn: true,
  async play(page) {
    await settle(page)
    await openTab(page, 'Insert', rowField(page, 'name'))
    await rowField(page, 'name').fill('Katherine Johnson')
    await rowField(page, 'email').fill('katherine@example.org')
    await rowField(page, 'city').fill('Hampton')
    await page.locator('#insertForm').getByRole('button', { name: 'Go' }).first().click()
    await page.getByText('1 row inserted').first().waitFor()
  },
  key: {
    target: {
      method: 'POST',
      path: '/index.php',
      operation: [
        { field: 'route', value: '/table/replace' },
        { field: 'submit_type', value: 'insert' },
      ],
    },
    inputs: [
      { recorded: 'Katherine Johnson', changed: ['Barbara Liskov', 'Tim Berners-Lee'] },
      { recorded: 'katherine@example.org', changed: ['barbara@example.org', 'tim@example.org'] },
      { recorded: 'Hampton', changed: ['Boston', 'Geneva'] },
    ],
    dependencies: [ANY_PAGE],
    mutating: true,
    async replayByHand(app, session) {
      const used = ['Barbara Liskov', 'barbara@example.org', 'Boston']
      await postAjax(app, session, '/index.php?route=/table/replace', [
        ['db', 'shop'],
        ['table', 'customers'],
        ['goto', 'index.php?route=/table/sql'],
        ['sql_query', ''],
        ...rowFields({ name: used[0]!, email: used[1]!, city: used[2]! }),
        ['submit_type', 'insert'],
        ['after_insert', 'back'],
        ['ajax_page_request', 'true'],
      ])
      mustPass(await insertRow.key.check(app, { status: 'succeeded', result: null }, session, used))
    },
    async check(app, _run, _session, used) {
      const rows = await dbRows(
        app,
        `SELECT email, city FROM shop.customers WHERE name = ${sqlText(String(used[0]))}`,
      )
      if (rows.length !== 1) return `${rows.length} customers are named ${String(used[0])}`
      const [email, city] = rows[0]!
      return email === String(used[1]) && city === String(used[2])
        ? null
        : `${String(used[0])} has email ${email} and city ${city}`
    },
  },
}

/** The seeded price of each product the edit workflow and its runs change. */
const PRICES: Record<string, string> = {
  'Fountain Pen': '24.00',
  'Desk Lamp': '19.90',
  'Paper Tray': '8.75',
}

/** From the products table: Edit on the Fountain Pen row, a new price typed, Go. */
export const editRow: Workflow = {
  id: 'edit_row',
  intent: 'change the price of the Fountain Pen in the shop products table to 27.50',
  rewordings: {
    terse: 'Fountain Pen price 27.50',
    chatty:
      'the Fountain Pen got more expensive from our supplier, could you set its price to 27.50 in the products table?',
    withoutValue: "change a product's price",
  },
  startPath: '/index.php?route=/sql&db=shop&table=products&pos=0',
  signedIn: true,
  async play(page) {
    await settle(page)
    const row = page.locator('table.table_results tbody tr').filter({ hasText: 'Fountain Pen' })
    await linkText(row, 'Edit').click()
    await rowField(page, 'price').fill('27.50')
    await page.locator('#insertForm').getByRole('button', { name: 'Go' }).first().click()
    await page.getByText('1 row affected').first().waitFor()
  },
  key: {
    target: {
      method: 'POST',
      path: '/index.php',
      operation: [
        { field: 'route', value: '/table/replace' },
        { field: 'submit_type', value: 'save' },
      ],
    },
    inputs: [
      { recorded: 'Fountain Pen', changed: ['Desk Lamp', 'Paper Tray'] },
      { recorded: '27.50', changed: ['31.00', '9.25'] },
    ],
    // The row's where_clause (its id) is on the browse page, next to the name clicked.
    dependencies: [BROWSE],
    mutating: true,
    async replayByHand(app, session) {
      const used = ['Desk Lamp', '31.00']
      await postAjax(app, session, '/index.php?route=/table/replace', [
        ['db', 'shop'],
        ['table', 'products'],
        ['goto', 'index.php?route=/sql'],
        ['sql_query', 'SELECT * FROM `products`'],
        ['where_clause[0]', '`products`.`id` = 1'],
        ['clause_is_unique', '1'],
        ...rowFields({ price: used[1]! }, { price: '19.90' }),
        ['submit_type', 'save'],
        ['after_insert', 'back'],
        // The edit form's page-load flag: without it phpMyAdmin answers as to a grid edit.
        ['ajax_page_request', 'true'],
      ])
      mustPass(await editRow.key.check(app, { status: 'succeeded', result: null }, session, used))
    },
    async check(app, _run, _session, used) {
      const rows = await dbRows(app, 'SELECT name, price FROM shop.products ORDER BY id')
      const named = rows.filter((r) => r[0] === String(used[0]))
      if (named.length !== 1) return `${named.length} products are named ${String(used[0])}`
      if (named[0]![1] !== Number(used[1]).toFixed(2))
        return `${String(used[0])} costs ${named[0]![1]}, not ${String(used[1])}`
      // The run must not have changed another product (the recorded one above all).
      for (const [name, price] of rows) {
        const seeded = PRICES[name!]
        if (name !== String(used[0]) && seeded && price !== seeded && price !== '27.50')
          return `${name!} costs ${price!}: the run changed another product`
      }
      return null
    },
  },
}

/** Customers the delete workflow and its runs remove (nobody else reads them). */
const DELETED = ['Emmy Noether', 'Lise Meitner', 'Enrico Fermi']

/** From the customers table: Delete on the Emmy Noether row. */
export const deleteRow: Workflow = {
  id: 'delete_row',
  intent: 'delete the customer Emmy Noether from the customers table of the shop database',
  rewordings: {
    terse: 'delete customer Emmy Noether',
    chatty:
      'Emmy Noether closed her account with us, could you remove her row from the shop customers table?',
    withoutValue: 'delete a customer row',
  },
  startPath: '/index.php?route=/sql&db=shop&table=customers&pos=0',
  signedIn: true,
  async play(page) {
    await settle(page)
    const row = page.locator('table.table_results tbody tr').filter({ hasText: 'Emmy Noether' })
    await linkText(row, 'Delete').click()
    await page.getByText('1 row deleted').first().waitFor()
  },
  key: {
    target: { method: 'POST', path: '/index.php', operation: { field: 'route', value: '/sql' } },
    inputs: [{ recorded: 'Emmy Noether', changed: ['Lise Meitner', 'Enrico Fermi'] }],
    // The row's DELETE statement (with its id) is on the browse page, next to the name clicked.
    dependencies: [BROWSE],
    mutating: true,
    async replayByHand(app, session) {
      await postAjax(app, session, '/index.php', [
        ['route', '/sql'],
        ['db', 'shop'],
        ['table', 'customers'],
        ['sql_query', 'DELETE FROM `customers` WHERE `customers`.`id` = 6'],
        ['message_to_show', 'The row has been deleted.'],
        ['ajax_page_request', 'true'],
      ])
      mustPass(
        await deleteRow.key.check(app, { status: 'succeeded', result: null }, session, [
          'Lise Meitner',
        ]),
      )
    },
    async check(app, _run, _session, used) {
      const names = (await dbRows(app, 'SELECT name FROM shop.customers')).map((r) => r[0])
      if (names.includes(String(used[0]))) return `${String(used[0])} is still a customer`
      const lost = CUSTOMERS.map((c) => c[1]).filter(
        (n) => !DELETED.includes(n) && !names.includes(n),
      )
      return lost.length ? `the run also deleted ${lost.join(', ')}` : null
    },
  },
}

/** The columns of shop.customers: name and full type. */
async function customerColumns(app: Parameters<Workflow['play']>[1]) {
  return dbRows(
    app,
    "SELECT COLUMN_NAME, COLUMN_TYPE FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = 'shop' AND TABLE_NAME = 'customers'",
  )
}

/** From the customers table's structure: Go under "Add 1 column", name, VARCHAR, length, Save. */
export const addColumn: Workflow = {
  id: 'add_column',
  intent: 'add a column phone of type VARCHAR(20) to the customers table of the shop database',
  rewordings: {
    terse: 'customers: add column phone VARCHAR(20)',
    chatty:
      'we want to store phone numbers for customers too, can you add a phone column, VARCHAR(20), to the customers table?',
    withoutValue: 'add a column to the customers table',
  },
  startPath: '/index.php?route=/table/structure&db=shop&table=customers',
  signedIn: true,
  async play(page) {
    await settle(page)
    await page.locator('#addColumns').getByRole('button', { name: 'Go' }).click()
    await page.locator('input[name="field_name[0]"]').fill('phone')
    await page.locator('select[name="field_type[0]"]').selectOption('VARCHAR')
    await page.locator('input[name="field_length[0]"]').fill('20')
    await page.getByRole('button', { name: 'Save' }).click()
    await page.getByText('has been altered successfully').first().waitFor()
  },
  key: {
    target: {
      method: 'POST',
      path: '/index.php',
      // The form's first POST to the same route (num_fields=1) only draws the column form.
      operation: [
        { field: 'route', value: '/table/add-field' },
        { field: 'orig_num_fields', value: '1' },
      ],
    },
    inputs: [
      { recorded: 'phone', changed: ['mobile', 'fax'] },
      { recorded: '20', changed: ['30', '15'] },
    ],
    dependencies: [ANY_PAGE],
    mutating: true,
    async replayByHand(app, session) {
      const used = ['mobile', '30']
      await postAjax(app, session, '/index.php?route=/table/add-field', [
        ['db', 'shop'],
        ['table', 'customers'],
        ['field_where', 'after'],
        ['after_field', 'city'],
        ['orig_num_fields', '1'],
        ['orig_field_where', 'after'],
        ['orig_after_field', 'city'],
        ...['primary', 'unique', 'fulltext', 'spatial'].map((k): [string, string] => [
          `${k}_indexes`,
          '[]',
        ]),
        ['indexes', '[]'],
        ['field_name[0]', used[0]!],
        ['field_type[0]', 'VARCHAR'],
        ['field_length[0]', used[1]!],
        ['field_default_type[0]', 'NONE'],
        ['field_key[0]', 'none_0'],
        ['do_save_data', '1'],
      ])
      mustPass(await addColumn.key.check(app, { status: 'succeeded', result: null }, session, used))
    },
    async check(app, _run, _session, used) {
      const columns = await customerColumns(app)
      const column = columns.find((c) => c[0] === String(used[0]))
      if (!column) return `customers has no column ${String(used[0])}`
      return column[1] === `varchar(${String(used[1])})`
        ? null
        : `${String(used[0])} is ${column[1]!}, not varchar(${String(used[1])})`
    },
  },
}

/** Signs in, opens the Databases tab, types a name and clicks Create. */
export const createDatabase: Workflow = {
  id: 'create_database',
  intent: 'create a new database called inventory',
  rewordings: {
    terse: 'new database inventory',
    chatty:
      "hi! we're starting to track stock separately, could you log in and create an empty database named inventory?",
    withoutValue: 'create a new database',
  },
  startPath: '/index.php',
  signedIn: false,
  async play(page, app) {
    await logInByForm(page, app)
    await openTab(page, 'Databases', page.locator('#text_create_db'))
    await page.locator('#text_create_db').fill('inventory')
    await settle(page)
    await page.locator('#buttonGo').click()
    await page.getByText('Database: inventory').first().waitFor()
    await settle(page)
  },
  key: {
    target: {
      method: 'POST',
      path: '/index.php',
      operation: { field: 'route', value: '/server/databases/create' },
    },
    inputs: [{ recorded: 'inventory', changed: ['warehouse', 'analytics'] }],
    dependencies: [ANY_PAGE],
    mutating: true,
    async replayByHand(app, session) {
      await postAjax(app, session, '/index.php?route=/server/databases/create', [
        ['reload', '1'],
        ['new_db', 'warehouse'],
        ['db_collation', 'utf8mb4_general_ci'],
      ])
      mustPass(
        await createDatabase.key.check(app, { status: 'succeeded', result: null }, session, [
          'warehouse',
        ]),
      )
    },
    async check(app, _run, _session, used) {
      const names = (await dbRows(app, 'SHOW DATABASES')).map((r) => r[0])
      return names.includes(String(used[0])) ? null : `there is no database ${String(used[0])}`
    },
  },
}
