import { describe, expect, it } from 'vitest'
import { parseIntent } from '../../../src/main/router/parseIntent'
import { spokenAsWritten } from '../../../src/main/router/spoken'

describe('spokenAsWritten', () => {
  it('writes a spoken file name and a record’s spoken number as typed', () => {
    expect(spokenAsWritten('read me readme dot md on the server')).toBe(
      'read me readme.md on the server',
    )
    expect(spokenAsWritten('mark redmine issue forty-two as closed')).toBe(
      'mark redmine issue 42 as closed',
    )
    expect(spokenAsWritten('open version two point zero point one of date utils')).toBe(
      'open version 2.0.1 of date utils',
    )
  })

  it('leaves numbers that number nothing, and dots before no extension, as said', () => {
    expect(spokenAsWritten('show me one page')).toBe('show me one page')
    expect(spokenAsWritten('the dot matrix printer')).toBe('the dot matrix printer')
    // A file said by its name and type, ending the phrase; not a thing of that type.
    expect(spokenAsWritten('upload the survey results csv to the server')).toBe(
      'upload the survey-results.csv to the server',
    )
    expect(spokenAsWritten('show me the tidy csv package page')).toBe(
      'show me the tidy csv package page',
    )
    expect(spokenAsWritten('export the report as pdf')).toBe('export the report as pdf')
  })

  it('lets the parser read spoken values and skip a spoken greeting', () => {
    const p = parseIntent('hey remove the file backup dot zip from the notebook server')
    expect(p.verb?.verbClass).toBe('delete')
    expect(p.values.map((w) => w.word)).toContain('backup.zip')
    expect(p.core.map((w) => w.word)).not.toContain('hey')
  })
})
