import { describe, expect, it } from 'vitest'
import {
  fieldsAsSentence,
  filtersAsSentence,
  labelledTextQuoted,
} from '../../../src/main/router/fields'

describe('fieldsAsSentence', () => {
  it('reads a record of fields as the sentence it stands for', () => {
    expect(
      fieldsAsSentence(
        'Action: rename file. Site: Jupyter. Target: data.json. New name: data-old.json',
      ),
    ).toBe('rename file "data.json" to "data-old.json" on Jupyter')
    expect(fieldsAsSentence('Step 3 -> open DokuWiki page. ID: howto:vpn_setup')).toBe(
      'open DokuWiki page "howto:vpn_setup"',
    )
  })

  it('keeps dots inside values and quotes, and says numbers and yes as a sentence does', () => {
    expect(
      fieldsAsSentence(
        'Step 5 -> edit page. Page: meetings:agenda. Content: "1. Budget 2. Hiring"',
      ),
    ).toBe('edit page "meetings:agenda" saying "1. Budget 2. Hiring"')
    expect(fieldsAsSentence('Action: add watcher. Site: Redmine. Issue: 7. User: jsmith')).toBe(
      'add watcher on issue #7 as jsmith on Redmine',
    )
    expect(fieldsAsSentence('Action: rename flow tab. From: Flow 1. To: Ingest. Deploy: yes')).toBe(
      'rename flow tab "Flow 1" to "Ingest" and deploy',
    )
  })

  it('leaves a sentence alone, and drops only the lead of a step without fields', () => {
    expect(fieldsAsSentence('Rename budget.xlsx to budget-2026.xlsx.')).toBe(
      'Rename budget.xlsx to budget-2026.xlsx.',
    )
    expect(fieldsAsSentence('Step 4 -> fetch issue 21 from the tracker')).toBe(
      'fetch issue 21 from the tracker',
    )
    // A lead followed by sentences that are no fields is no record.
    expect(fieldsAsSentence('Task: find the page. It is about parking.')).toBe(
      'Task: find the page. It is about parking.',
    )
  })
})

describe('fieldsAsSentence of a filter', () => {
  it('reads the fields after a filtering act as what the list is narrowed by', () => {
    expect(
      fieldsAsSentence('Action: filter issues. Site: Redmine. Status: open. Tracker: Bug'),
    ).toBe('filter issues by status "open" and tracker "Bug" on Redmine')
  })
})

describe('filtersAsSentence', () => {
  it('reads key=value filters as what a list is narrowed by', () => {
    expect(filtersAsSentence('filter issues status=open tracker = "Bug"')).toBe(
      'filter issues by status open and tracker "Bug"',
    )
    // (A query string in a URL stays as it is.)
    expect(filtersAsSentence('open doku.php?id=ops:oncall')).toBe('open doku.php?id=ops:oncall')
  })
})

describe('labelledTextQuoted', () => {
  it('quotes a text given unquoted after its label, to the end', () => {
    expect(labelledTextQuoted('tiddlywiki update tiddler Todo text Call the plumber')).toBe(
      'tiddlywiki update tiddler Todo text "Call the plumber"',
    )
    expect(labelledTextQuoted('new page Running Club body: Meet at the gate.')).toBe(
      'new page Running Club body: "Meet at the gate"',
    )
  })

  it('quotes a text after a colon in any case, but no quoted one', () => {
    expect(labelledTextQuoted('edit tiddler Ideas, new content: build a birdhouse')).toBe(
      'edit tiddler Ideas, new content: "build a birdhouse"',
    )
    const quoted = "New content: 'Next window: Sunday'. Action: replace the page text."
    expect(labelledTextQuoted(quoted)).toBe(quoted)
  })

  it("leaves the request's own words and quoted texts alone", () => {
    for (const intent of [
      'change the text of the page Home',
      'replace the text with "Closed"',
      'search the text for invoices',
    ])
      expect(labelledTextQuoted(intent)).toBe(intent)
  })
})
