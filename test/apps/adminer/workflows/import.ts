/**
 * Importing an SQL file in Adminer: the Import page (`import=`) has a File upload fieldset
 * (`sql_file[]`, several files allowed); Execute posts it as multipart with the page's token,
 * and Adminer runs the file's statements one by one and answers with a page that echoes each
 * statement and how many rows it affected (200, not a redirect).
 */
import type { Workflow } from '../../types'
import { resultText } from '../../match'
import { dbRead, getPage, mustPass, pageError, pageToken, plainText } from '../keys'
import { DB_QUERY } from '../session'

/** One imported file: its statements and the customers (name|email|city) they add. */
interface SqlFile {
  name: string
  rows: Array<[string, string, string]>
}

const insertOf = (file: SqlFile): string =>
  file.rows
    .map(
      ([name, email, city]) =>
        `INSERT INTO customers (name, email, city) VALUES ('${name}', '${email}', '${city}');\n`,
    )
    .join('')

/** The file the person uploads. */
const RECORDED: SqlFile = {
  name: 'new-customers.sql',
  rows: [
    ['Katherine Johnson', 'katherine@example.org', 'Hampton'],
    ['Chien-Shiung Wu', 'chien-shiung@example.org', 'New York'],
  ],
}

/** The other file a tool is called with (a plain HAR keeps no file bytes), and the replay's. */
const OTHER: SqlFile = {
  name: 'more-customers.sql',
  rows: [
    ['Dorothy Hodgkin', 'dorothy@example.org', 'Oxford'],
    ['Barbara McClintock', 'barbara@example.org', 'Hartford'],
    ['Rita Levi-Montalcini', 'rita@example.org', 'Turin'],
  ],
}

const bytesOf = (file: SqlFile): Uint8Array => new TextEncoder().encode(insertOf(file))

/** On the database page: clicks Import, picks the file, clicks Execute. */
export const importSqlFile: Workflow = {
  id: 'import_sql_file',
  intent: 'import the SQL file new-customers.sql into the shop database',
  rewordings: {
    terse: 'import new-customers.sql',
    chatty:
      'I have a file new-customers.sql with some INSERTs, could you run it against the shop database?',
    withoutValue: 'import an SQL file into the database',
  },
  startPath: '/?pgsql=127.0.0.1&username=ada&db=shop&ns=public',
  signedIn: true,
  async play(page) {
    await page.getByRole('link', { name: 'Import', exact: true }).first().click()
    await page.getByRole('heading', { name: 'Import' }).waitFor()
    await page.locator('input[name="sql_file[]"]').setInputFiles({
      name: RECORDED.name,
      mimeType: 'application/sql',
      buffer: Buffer.from(bytesOf(RECORDED)),
    })
    await page.getByRole('button', { name: 'Execute' }).first().click()
    await page.getByText(`${RECORDED.rows.length} queries executed OK`).waitFor()
  },
  key: {
    // The Import page's own address (`import=`, empty) tells this post apart.
    target: { method: 'POST', path: '/', operation: { field: 'import', value: '' } },
    // Only the file, which is no typed value: see `file`.
    inputs: [],
    // The Import page's form carries the token.
    dependencies: [{ method: 'GET', path: '/', operation: { field: 'import', value: '' } }],
    mutating: true,
    file: bytesOf(OTHER),
    async replayByHand(app, session) {
      const token = pageToken(await getPage(app, session, 'import='))
      const form = new FormData()
      form.append(
        'sql_file[]',
        new Blob([Buffer.from(bytesOf(OTHER))], { type: 'application/sql' }),
        OTHER.name,
      )
      form.append('token', token)
      const res = await app.fetch(`/?${DB_QUERY}&import=`, { method: 'POST', session, body: form })
      const html = await res.text()
      if (res.status !== 200) throw new Error(`the import answered ${res.status}`)
      mustPass(await this.check(app, { status: 'succeeded', result: html }, session, []))
    },
    async check(app, run) {
      // The run's page echoes the statements it ran: it names which file was sent (the
      // recording's tool sends the recorded file, the HAR's the other one); that file's
      // customers must then be in the table, once each.
      const text = plainText(resultText(run.result))
      const error = pageError(text)
      if (error) return `the import failed: ${error}`
      const sent = [RECORDED, OTHER].filter((f) => text.includes(`'${f.rows[0]![1]}'`))
      if (!sent.length) return 'the answer echoes no statement of either file'
      const emails = (await dbRead(app, 'select email from customers')).trim().split('\n')
      for (const file of sent)
        for (const [, email] of file.rows) {
          const count = emails.filter((e) => e === email).length
          if (count !== 1) return `${email} of ${file.name} is in customers ${count} times`
        }
      return null
    },
  },
}
