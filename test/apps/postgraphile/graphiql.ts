/**
 * What the scripted developer does in PostGraphile's enhanced GraphiQL: wait for the page to
 * load the schema, type an operation into the query editor (CodeMirror 5), type JSON into the
 * Query Variables editor, press the run button and read the answer from the result pane.
 *
 * GraphiQL's editors auto-close brackets and quotes, and typing a closing character that is
 * already next to the cursor steps over it; so an operation typed on one line, as written, ends
 * up exactly as written. A newline would make the editor "explode" `{}` onto two lines and the
 * later `}` would then be inserted twice, which is why every operation here is one line.
 */
import type { Locator, Page } from 'playwright-core'

/** The query editor (left, top). */
const QUERY_EDITOR = '.query-editor .CodeMirror'
/** The result pane (right). */
const RESULT = '.result-window .CodeMirror'

/**
 * Waits until GraphiQL has loaded the schema (its introspection): the explorer on the left then
 * lists the query fields.
 */
export async function waitForGraphiql(page: Page): Promise<void> {
  await page.locator(QUERY_EDITOR).waitFor({ timeout: 30_000 })
  await page
    .locator('.graphiql-explorer-root')
    .getByText('tasksDueBefore', { exact: true })
    .waitFor({ timeout: 30_000 })
}

/** The text a CodeMirror editor holds now. */
function editorValue(editor: Locator): Promise<string> {
  return editor.evaluate((el) =>
    (el as unknown as { CodeMirror: { getValue(): string } }).CodeMirror.getValue(),
  )
}

/**
 * Clicks into `editor`, selects all it holds and types `text` over it, as a developer replaces
 * the previous operation; closes the autocomplete list that typing opens. Throws when the editor
 * does not end up holding exactly `text` (the scripted person's typing went wrong).
 */
async function typeOver(page: Page, editor: Locator, text: string): Promise<void> {
  await editor.click()
  await page.keyboard.press('Control+A')
  await page.keyboard.type(text, { delay: 12 })
  await page.keyboard.press('Escape')
  const now = await editorValue(editor)
  if (now !== text) throw new Error(`the editor holds ${JSON.stringify(now)}, not what was typed`)
}

/** Types `operation` (one line) into the query editor, replacing what it held. */
export function typeQuery(page: Page, operation: string): Promise<void> {
  return typeOver(page, page.locator(QUERY_EDITOR), operation)
}

/** Types `json` (one line) into the Query Variables editor, replacing what it held. */
export function typeVariables(page: Page, json: string): Promise<void> {
  // The bottom panel's first pane; the second, hidden until its tab is clicked, is the Request
  // Headers editor.
  const editor = page.locator('.variable-editor .codemirrorWrap').first().locator('.CodeMirror')
  return typeOver(page, editor, json)
}

/**
 * Presses the run button and waits until the result pane shows an answer that holds `expect`
 * (a field name or value only the new answer has); returns the pane's text.
 */
export async function runAndWait(page: Page, expect: string): Promise<string> {
  await page.locator('.execute-button').click()
  const result = page.locator(RESULT)
  const deadline = Date.now() + 30_000
  let text = ''
  while (Date.now() < deadline) {
    text = await editorValue(result)
    if (text.includes(expect)) return text
    await page.waitForTimeout(150)
  }
  throw new Error(`the result pane never showed ${expect}: ${text.slice(0, 300)}`)
}

/**
 * The first value of `"field": <value>` in the result pane's JSON text, as the developer reads
 * it off the screen to type it into the next operation (an id, a nodeId).
 */
export function readField(resultText: string, field: string): string {
  const answer = JSON.parse(resultText) as unknown
  let found: string | null = null
  const walk = (value: unknown): void => {
    if (found !== null || value === null || typeof value !== 'object') return
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      if (k === field && (typeof v === 'string' || typeof v === 'number')) {
        found = String(v)
        return
      }
      walk(v)
    }
  }
  walk(answer)
  if (found === null) throw new Error(`the result shows no ${field}`)
  return found
}
