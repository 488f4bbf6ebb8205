/**
 * Adminer workflows that write. Every one posts a form with the page's CSRF `token`: the row
 * editor (`edit=<table>`, with `where[id]=` for an existing row, without for a new one), the
 * select page's Delete button (`check[]` holds the picked rows as `where[id]=7`), and the alter
 * table form (`create=<table>`, every column's definition again plus the new one). Adminer
 * answers a done write with a 302 back to a page.
 */
import type { RequestKey, Workflow } from '../../types'
import { ORDERS } from '../seed'
import { dbRead, getPage, mustPass, pageError, pageToken, postForm, sqlText } from '../keys'

const EDIT_ORDERS: RequestKey = {
  method: 'POST',
  path: '/',
  operation: { field: 'edit', value: 'orders' },
}

/** Sends a form whose write Adminer must answer with a redirect; throws with its error if not. */
async function postWrite(...args: Parameters<typeof postForm>): Promise<void> {
  const res = await postForm(...args)
  if (res.status !== 302)
    throw new Error(`${args[2]} answered ${res.status}: ${pageError(res.text) ?? 'no redirect'}`)
}

/** One seeded order's columns as psql prints them (`customer|product|quantity|status`). */
function seededOrder(id: number): string {
  const o = ORDERS.find((order) => order.id === id)!
  return `${o.customerId}|${o.productId}|${o.quantity}|${o.status}`
}

/** On the orders table: clicks "edit" in the row of order 1003, types shipped as its status, saves. */
export const editOrderStatus: Workflow = {
  id: 'edit_order_status',
  intent: 'set the status of order 1003 to shipped',
  rewordings: {
    terse: 'order 1003 shipped',
    chatty:
      'order 1003 just went out with the courier, can you mark it as shipped in the database?',
    withoutValue: "change an order's status",
  },
  startPath: '/?pgsql=127.0.0.1&username=ada&db=shop&ns=public&select=orders',
  signedIn: true,
  async play(page) {
    await page
      .locator('tr', { has: page.getByRole('cell', { name: '1003', exact: true }) })
      .getByRole('link', { name: 'edit' })
      .click()
    await page.waitForURL(/edit=orders/)
    const status = page.locator('[name="fields[status]"]')
    await status.click()
    await status.press('ControlOrMeta+a')
    await status.pressSequentially('shipped', { delay: 15 })
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await page.getByText('Item has been updated.').waitFor()
  },
  key: {
    target: EDIT_ORDERS,
    inputs: [
      // The id lands in the URL (where[id]=1003) and in the body (fields[id]).
      { recorded: '1003', changed: ['1006', '1009'] },
      { recorded: 'shipped', changed: ['cancelled', 'delivered'] },
    ],
    // The row editor: the token, and the row's other fields, which the form posts back as they are.
    dependencies: [{ method: 'GET', path: '/', operation: { field: 'edit', value: 'orders' } }],
    mutating: true,
    async replayByHand(app, session) {
      const used = this.inputs.map((i) => String(i.changed[0]))
      const id = Number(used[0])
      const order = ORDERS.find((o) => o.id === id)!
      const query = `edit=orders&where%5Bid%5D=${id}`
      const token = pageToken(await getPage(app, session, query))
      await postWrite(app, session, query, [
        ['fields[id]', String(id)],
        ['fields[customer_id]', String(order.customerId)],
        ['fields[product_id]', String(order.productId)],
        ['fields[quantity]', String(order.quantity)],
        ['fields[status]', used[1]!],
        ['fields[ordered_on]', order.orderedOn],
        ['save', '1'],
        ['token', token],
      ])
      mustPass(await this.check(app, { status: 'succeeded', result: null }, session, used))
    },
    async check(app, _run, _session, used) {
      const id = Number(used[0])
      const rows = await dbRead(
        app,
        `select id, customer_id, product_id, quantity, status from orders where id in (1003, ${id}) order by id`,
      )
      const byId = new Map(
        rows
          .trim()
          .split('\n')
          .map((r) => [r.split('|')[0], r]),
      )
      const seeded = seededOrder(id).split('|')
      const want = `${id}|${seeded.slice(0, 3).join('|')}|${String(used[1])}`
      if (byId.get(String(id)) !== want)
        return `order ${id} reads ${JSON.stringify(byId.get(String(id)))}, not ${want}`
      if (byId.get('1003') !== `1003|${seededOrder(1003)}`)
        return `order 1003 was changed: ${JSON.stringify(byId.get('1003'))}`
      return null
    },
  },
}

/** On the products table: clicks "New item", types name, price and stock, saves. */
export const addProduct: Workflow = {
  id: 'add_product',
  intent: "add a product called 'Desk organizer' priced 18.40 with 25 in stock",
  rewordings: {
    terse: 'new product Desk organizer 18.40 stock 25',
    chatty:
      "we started selling a desk organizer, could you add it to the products table: 'Desk organizer', price 18.40, 25 in stock?",
    withoutValue: 'add a new product to the shop',
  },
  startPath: '/?pgsql=127.0.0.1&username=ada&db=shop&ns=public&select=products',
  signedIn: true,
  async play(page) {
    await page.getByRole('link', { name: 'New item' }).click()
    await page.waitForURL(/edit=products/)
    await page.locator('[name="fields[name]"]').pressSequentially('Desk organizer', { delay: 15 })
    await page.locator('[name="fields[price]"]').pressSequentially('18.40', { delay: 15 })
    await page.locator('[name="fields[stock]"]').fill('25')
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await page.getByText('Item has been inserted.').first().waitFor()
  },
  key: {
    target: { method: 'POST', path: '/', operation: { field: 'edit', value: 'products' } },
    inputs: [
      { recorded: 'Desk organizer', changed: ['Bookshelf', 'Office chair'] },
      { recorded: '18.40', changed: ['129.00', '245.50'] },
      // A number field (type=number): an agent sends a number.
      { recorded: 25, changed: [3, 8] },
    ],
    // The new-item form carries the token.
    dependencies: [{ method: 'GET', path: '/', operation: { field: 'edit', value: 'products' } }],
    mutating: true,
    async replayByHand(app, session) {
      const used = this.inputs.map((i) => String(i.changed[0]))
      const token = pageToken(await getPage(app, session, 'edit=products'))
      await postWrite(app, session, 'edit=products', [
        ['fields[id]', ''],
        ['fields[name]', used[0]!],
        ['fields[price]', used[1]!],
        ['fields[stock]', used[2]!],
        ['save', '1'],
        ['token', token],
      ])
      mustPass(await this.check(app, { status: 'succeeded', result: null }, session, used))
    },
    async check(app, _run, _session, used) {
      const row = (
        await dbRead(app, `select price, stock from products where name = ${sqlText(used[0]!)}`)
      ).trim()
      const want = `${Number(used[1]).toFixed(2)}|${Number(used[2])}`
      if (row !== want)
        return `product ${String(used[0])} reads ${JSON.stringify(row)}, not ${want}`
      const recorded = await dbRead(
        app,
        "select count(*) from products where name = 'Desk organizer'",
      )
      if (recorded.trim() !== '0') return 'the recorded product Desk organizer was added too'
      return null
    },
  },
}

/** On the customers table: ticks the row of Niels Bohr, clicks Delete and confirms. */
export const deleteCustomer: Workflow = {
  id: 'delete_customer',
  intent: 'delete the customer Niels Bohr',
  rewordings: {
    terse: 'remove customer Niels Bohr',
    chatty:
      'Niels Bohr asked us to close his account, could you delete him from the customers table?',
    withoutValue: 'delete a customer',
  },
  startPath: '/?pgsql=127.0.0.1&username=ada&db=shop&ns=public&select=customers',
  signedIn: true,
  async play(page) {
    page.once('dialog', (dialog) => void dialog.accept())
    await page.locator('tr', { hasText: 'Niels Bohr' }).getByRole('checkbox').check()
    await page.getByRole('button', { name: 'Delete' }).click()
    await page.getByText('1 item has been affected.').waitFor()
  },
  key: {
    target: {
      method: 'POST',
      path: '/',
      operation: [
        { field: 'select', value: 'customers' },
        { field: 'delete', value: 'Delete' },
      ],
    },
    // The person picked the row by its name; the id (check[]=where[id]=7) is read off the list.
    inputs: [{ recorded: 'Niels Bohr', changed: ['Srinivasa Ramanujan', 'Lise Meitner'] }],
    dependencies: [
      { method: 'GET', path: '/', operation: { field: 'select', value: 'customers' } },
    ],
    mutating: true,
    async replayByHand(app, session) {
      const name = String(this.inputs[0]!.changed[0])
      const html = await getPage(app, session, 'select=customers')
      // Each row: <input type='checkbox' name='check[]' value='where%5Bid%5D=10'> ... the name.
      const row = html
        .split('<tr')
        .find((tr) => tr.includes(`>${name}<`) && tr.includes("name='check[]'"))
      const check = row && /name='check\[\]' value='([^']*)'/.exec(row)?.[1]
      if (!check) throw new Error(`the customers list has no row for ${name}`)
      await postWrite(app, session, 'select=customers', [
        ['check[]', check.replace(/&amp;/g, '&')],
        ['delete', 'Delete'],
        ['token', pageToken(html)],
      ])
      mustPass(await this.check(app, { status: 'succeeded', result: null }, session, [name]))
    },
    async check(app, _run, _session, used) {
      const names = (await dbRead(app, 'select name from customers')).trim().split('\n')
      if (names.includes(String(used[0]))) return `${String(used[0])} is still a customer`
      if (!names.includes('Niels Bohr')) return 'Niels Bohr, the recorded customer, was deleted'
      if (!names.includes('Grace Hopper')) return 'other customers were deleted too'
      return null
    },
  },
}

/** The products table's columns, in order, as `name type nullable` lines. */
function columnsOf(app: Parameters<typeof dbRead>[0]): Promise<string> {
  return dbRead(
    app,
    "select column_name || ' ' || data_type || ' ' || is_nullable from information_schema.columns where table_name = 'products' order by ordinal_position",
  )
}

/**
 * On the products table: Alter table, "+" (a row for a new column), types supplier, picks the
 * type text, ticks NULL (the rows have no value yet), saves.
 */
export const addColumn: Workflow = {
  id: 'add_column',
  intent: 'add a text column called supplier to the products table',
  rewordings: {
    terse: 'products: new column supplier (text)',
    chatty:
      'we want to track who supplies each product, could you add a supplier column of type text to the products table?',
    withoutValue: 'add a column to the products table',
  },
  startPath: '/?pgsql=127.0.0.1&username=ada&db=shop&ns=public&select=products',
  signedIn: true,
  async play(page) {
    await page.getByRole('link', { name: 'Alter table' }).click()
    await page.getByRole('heading', { name: 'Alter table: products' }).waitFor()
    // The "+" in the header adds a row for a new column (a post that redraws the form).
    await page.getByTitle('Add next').first().click()
    const name = page.locator('input[name="fields[5][field]"]')
    await name.pressSequentially('supplier', { delay: 15 })
    await page.locator('select[name="fields[5][type]"]').selectOption('text')
    await page.locator('input[name="fields[5][null]"]').check()
    await page.getByRole('button', { name: 'Save' }).last().click()
    await page.getByText('Table has been altered.').waitFor()
  },
  key: {
    target: { method: 'POST', path: '/', operation: { field: 'create', value: 'products' } },
    inputs: [
      { recorded: 'supplier', changed: ['warehouse', 'barcode'] },
      // Picked in the Type menu, and named by the intent.
      { recorded: 'text', changed: ['integer', 'date'] },
    ],
    // The alter form: the token and every column's definition, which the post repeats.
    dependencies: [{ method: 'GET', path: '/', operation: { field: 'create', value: 'products' } }],
    mutating: true,
    async replayByHand(app, session) {
      const [column, type] = this.inputs.map((i) => String(i.changed[0]))
      const token = pageToken(await getPage(app, session, 'create=products'))
      const field = (i: number, name: string, orig: string, type: string, extra: string[][]) => [
        [`fields[${i}][field]`, name],
        [`fields[${i}][orig]`, orig],
        [`fields[${i}][type]`, type],
        ...extra.map(([k, v]) => [`fields[${i}][${k}]`, v] as [string, string]),
      ]
      const fields = [
        ['name', 'products'],
        ...field(1, 'id', 'id', 'integer', [
          ['has_default', '1'],
          ['default', "nextval('products_id_seq')"],
        ]),
        ['auto_increment_col', '1'],
        ...field(2, 'name', 'name', 'text', []),
        ...field(3, 'price', 'price', 'numeric', [['length', '8,2']]),
        ...field(4, 'stock', 'stock', 'integer', [
          ['has_default', '1'],
          ['default', '0'],
        ]),
        ...field(5, column!, '', type!, [['null', '1']]),
        ['token', token],
      ] as Array<[string, string]>
      await postWrite(app, session, 'create=products', fields)
      const used = [column!, type!]
      mustPass(await this.check(app, { status: 'succeeded', result: null }, session, used))
    },
    async check(app, _run, _session, used) {
      const columns = (await columnsOf(app)).trim().split('\n')
      const base = ['id integer NO', 'name text NO', 'price numeric NO', 'stock integer NO']
      for (const col of base) if (!columns.includes(col)) return `products lost its column ${col}`
      const want = `${String(used[0])} ${String(used[1])} YES`
      if (!columns.includes(want))
        return `products has no ${String(used[1])} column ${String(used[0])}: ${columns.join(', ')}`
      if (columns.some((c) => c.startsWith('supplier ')))
        return 'the recorded column supplier was added too'
      return null
    },
  },
}
