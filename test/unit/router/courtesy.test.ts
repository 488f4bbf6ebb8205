// Courtesy around a request (issue 10): apologies, hedges and thanks say nothing of what is asked.
import { describe, expect, it } from 'vitest'
import { withoutCourtesy } from '../../../src/main/router/courtesy'
import { parseIntent } from '../../../src/main/router/parseIntent'

describe('withoutCourtesy', () => {
  it('drops apologies before the request and thanks after it', () => {
    expect(
      withoutCourtesy(
        'Sorry to bother you, but could you delete the page Old Schedule? Thanks so much.',
      ),
    ).toBe('could you delete the page Old Schedule')
    expect(
      withoutCourtesy('Hope this isn’t a pain, but rename a.txt to b.txt, if you don’t mind'),
    ).toBe('rename a.txt to b.txt')
    expect(
      withoutCourtesy("Hope this isn't a pain, but rename a.txt to b.txt, if you don't mind"),
    ).toBe('rename a.txt to b.txt')
    expect(withoutCourtesy("update the page so it says 'Open at 9.' Thanks!")).toBe(
      "update the page so it says 'Open at 9.'",
    )
    expect(withoutCourtesy('could you upload x.xlsx when you get a chance? No rush at all.')).toBe(
      'could you upload x.xlsx',
    )
  })

  it('reads `would you mind doing` as the act asked, and hedges as plain asks', () => {
    expect(withoutCourtesy('Would you mind manually firing the inject node?')).toBe(
      'could you manually fire the inject node?',
    )
    expect(withoutCourtesy('Would you be able to start a new page?')).toBe(
      'could you start a new page?',
    )
    expect(withoutCourtesy('Could you possibly upload x.csv?')).toBe('Could you upload x.csv?')
    expect(parseIntent(withoutCourtesy('Would you mind deleting the page X?')).action).toBe(
      'delete',
    )
  })

  it('drops a greeting alone and the reason said before who asks', () => {
    expect(withoutCourtesy('hi, for the standup I need the details of redmine #4')).toBe(
      'I need the details of redmine #4',
    )
    expect(withoutCourtesy('morning! before the review I need the list of pages')).toBe(
      'I need the list of pages',
    )
    // (A reason that goes on into the request is the clause splitter's; a name is no greeting.)
    const goesOn = 'Before the call I want to re-read it, so bring up the page X'
    expect(withoutCourtesy(goesOn)).toBe(goesOn)
    expect(withoutCourtesy('hello world post please')).toBe('hello world post please')
  })

  it('writes chat shorthand out (pls, im, dont)', () => {
    expect(withoutCourtesy('pls bin untitled1.ipynb on jupyter')).toBe(
      'please bin untitled1.ipynb on jupyter',
    )
    expect(withoutCourtesy('log on to the wiki, im locked out and dont know why')).toBe(
      "log on to the wiki, I'm locked out and don't know why",
    )
    expect(withoutCourtesy('can u wipe test:sandbox off dokuwiki')).toBe(
      'can you wipe test:sandbox off dokuwiki',
    )
    expect(withoutCourtesy('tiddler Ideas shld be named Side Projects')).toBe(
      'tiddler Ideas should be named Side Projects',
    )
    const p = parseIntent(withoutCourtesy('dokuwiki: display meetings:2026-01-14 plz'))
    expect(p.core.map((w) => w.word)).not.toContain('plz')
  })

  it('keeps words that are what the request looks for', () => {
    // A thank-you said as the thing searched for, and a word ending in a courtesy's letters.
    expect(withoutCourtesy('search the wiki for thanks')).toBe('search the wiki for thanks')
    expect(withoutCourtesy('node search: humidity')).toBe('node search: humidity')
    expect(withoutCourtesy('thanks')).toBe('thanks')
  })
})
