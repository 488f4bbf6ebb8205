/**
 * Issue 26 item 2.5: tool and input names a person can read. A list or a search is named by its
 * object as said (`list_orders`), a filler word is never the object (`show only …` is no
 * `show_only`), and a typed value whose field had no label is described by the value, never as
 * "the field".
 */
import { describe, expect, it } from 'vitest'
import { intentToolName } from '../../../src/main/compiler/intentName'
import { typedIntoWords, type TypedValue } from '../../../src/main/compiler/typedValues'

describe('tool names from the intent', () => {
  it('names a list or a search by its object as said', () => {
    expect(intentToolName('list my orders', 'shop.example')).toBe('shop__list_orders')
    expect(intentToolName('search the pages for garlic', 'wiki.example')).toBe('wiki__search_pages')
  })

  it('never takes a filler for the object', () => {
    expect(intentToolName('show only the open issues', 'tracker.example')).toBe(
      'tracker__show_open_issues',
    )
    expect(intentToolName('just list the invoices', 'books.example')).toBe('books__list_invoices')
  })

  it('keeps a single object for other acts', () => {
    expect(intentToolName('delete the pages about rhubarb', 'wiki.example')).toBe(
      'wiki__delete_page',
    )
  })
})

describe('descriptions of typed inputs', () => {
  const typed = (name: string | null, fieldName: string | null): TypedValue => ({
    value: 'Night shift',
    fieldName,
    name,
    kind: 'fill',
    inputType: 'text',
    at: 0,
  })

  it('names the field by its label, else its name, else gives the value typed', () => {
    expect(typedIntoWords(typed('Label', 'label'), 'body label')).toBe(
      'What was typed into "Label" (body label)',
    )
    expect(typedIntoWords(typed(null, 'label'), 'body label')).toBe(
      'What was typed into "label" (body label)',
    )
    expect(typedIntoWords(typed(null, null), 'path segment 2')).toBe(
      'The value typed while recording ("Night shift"; path segment 2)',
    )
  })
})
