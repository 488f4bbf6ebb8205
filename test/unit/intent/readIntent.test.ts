// Golden examples of each stage of the intent reader (issue 25 B, `src/main/intent/`): each stage
// is a small pure function with a table of what it gives; the last table is the whole pipeline.
import { describe, expect, it } from 'vitest'
import { actFamily, actOfNoun, actOfPhrasal, actOfVerb } from '../../../src/main/intent/act'
import { splitClauses } from '../../../src/main/intent/clauses'
import { languageName, readability } from '../../../src/main/intent/language'
import { normalise } from '../../../src/main/intent/normalise'
import { findObject } from '../../../src/main/intent/object'
import { readIntent } from '../../../src/main/intent/readIntent'
import { findSites, siteKey } from '../../../src/main/intent/site'
import { tagTokens } from '../../../src/main/intent/tokens'

describe('intent stage 1: normalise', () => {
  it.each([
    ['  find  “Old Draft”  ', 'find "Old Draft"'],
    ['rename ‘a’ – now', "rename 'a' - now"],
    ['ｄｅｌｅｔｅ the page', 'delete the page'],
    ['wait\u2026 list\u00A0pages', 'wait... list pages'],
  ])('%j → %j', (text, plain) => {
    expect(normalise(text)).toBe(plain)
  })
})

describe('intent stage 2: language and script', () => {
  it.each([
    ['delete the wiki page', true, 'Latin'],
    ['wiki', true, 'Latin'],
    ['rename "Übersicht" to "Plan"', true, 'Latin'],
    ['위키 페이지 삭제', false, 'Hangul'],
    ['フローBillingを削除', false, 'Han'],
    ['フロー', false, 'Katakana'],
    ['удалить страницу', false, 'Cyrillic'],
    ['supprimer la page du wiki', false, 'Latin'],
    ['borrar la página para el equipo', false, 'Latin'],
  ])('%j: readable %s (%s)', (text, readable, script) => {
    const r = readability(normalise(text))
    expect(r.readable).toBe(readable)
    expect(r.script).toBe(script)
  })

  it('names the language it guessed', () => {
    const r = readability('supprimer la page du wiki')
    expect(r.language).toBe('fr')
    expect(languageName(r.language!)).toBe('French')
  })
})

describe('intent stage 4: tokens from wink-nlp', () => {
  it('tags an imperative as a verb and gives lemmas', () => {
    const tokens = tagTokens('search the pages for invoices')
    expect(tokens.map((t) => [t.lower, t.pos, t.lemma])).toEqual([
      ['search', 'VERB', 'search'],
      ['the', 'DET', 'the'],
      ['pages', 'NOUN', 'page'],
      ['for', 'ADP', 'for'],
      ['invoices', 'NOUN', 'invoice'],
    ])
  })

  it('keeps a placeholder as one proper noun marking its value', () => {
    const [, value] = tagTokens('delete qvx0')
    expect(value).toMatchObject({ text: 'qvx0', pos: 'PROPN', value: 0 })
  })
})

describe('intent stage 5: clauses', () => {
  it.each([
    [
      'log in to the editor and manually trigger the inject node',
      ['log in to the editor', 'and manually trigger the inject node'],
      ['request', 'request'],
    ],
    [
      'because the printer moved , rewrite the page',
      ['because the printer moved', 'rewrite the page'],
      ['context', 'request'],
    ],
    ['open the page then delete it', ['open the page', 'delete it'], ['request', 'request']],
  ])('%j', (text, parts, roles) => {
    const clauses = splitClauses(tagTokens(text))
    expect(clauses.map((c) => c.tokens.map((t) => t.text).join(' '))).toEqual(
      parts.map((p) => p.replace(/^and /, '')),
    )
    expect(clauses.map((c) => c.role)).toEqual(roles)
  })
})

describe('intent stage 6: acts', () => {
  it.each([
    ['trash', 'delete'],
    ['pause', 'run'],
    ['rename', 'rename'],
    ['list', 'list'],
    ['find', 'search'],
    ['add', 'create'],
    ['edit', 'update'],
    ['upload', 'upload'],
    ['do', null],
    ['re-enable', 'update'],
    ['re-upload', 'upload'],
    ['re-do', null],
  ])('the verb %j says %s', (verb, act) => {
    expect(actOfVerb(verb)).toBe(act)
  })

  it('reads verbs with their particle and nouns that name an act', () => {
    expect(actOfPhrasal('log', 'in')).toBe('auth')
    expect(actOfPhrasal('sign', 'out')).toBe('logout')
    expect(actOfPhrasal('kick', 'off')).toBe('run')
    expect(actOfNoun('login')).toBe('auth')
    expect(actOfNoun('page')).toBeNull()
    expect(actFamily('rename')).toBe('write')
    expect(actFamily('search')).toBe('read')
    expect(actFamily('auth')).toBe('session')
  })
})

describe('intent stage 7: object', () => {
  it.each([
    ['list the open support issues', 0, 'issue', ['open', 'support', 'issue']],
    ['change the status of issue 4', 0, 'status', ['status']],
    ['trigger the inject node', 0, 'node', ['inject', 'node']],
  ])('%j → head %s', (text, verbAt, head, words) => {
    expect(findObject(tagTokens(text), verbAt)).toEqual({ head, words })
  })
})

describe('intent stage 8: site', () => {
  it('finds a site by its name spelt any way, and in the possessive', () => {
    const names = new Set(['nodered', 'dokuwiki', 'teamwiki'])
    expect(siteKey("Node-RED's")).toBe('nodered')
    expect(findSites(tagTokens('deploy the flows on Node RED'), names).sites).toEqual(['nodered'])
    expect(findSites(tagTokens("search the team wiki's pages"), names).sites).toEqual(['teamwiki'])
    expect(findSites(tagTokens('search the pages'), names).sites).toEqual([])
  })
})

describe('intent: the whole reading', () => {
  const names = new Set(['dokuwiki', 'teamwiki', 'redmine', 'verdaccio'])
  it.each([
    [
      'log in to the editor and manually trigger the inject node "run nightly"',
      { act: 'run', verb: 'trigger', head: 'node', sites: [], values: ['quoted:run nightly'] },
    ],
    [
      'The printer moved, so please rewrite the page Office Printer',
      { act: 'update', verb: 'rewrite', head: 'page', values: ['name:Office Printer'] },
    ],
    [
      'I need to delete the page Old Draft on the team wiki',
      { act: 'delete', head: 'page', sites: ['teamwiki'] },
    ],
    ['list open issues in Redmine', { act: 'list', head: 'issue', sites: ['redmine'] }],
    ['Verdaccio login', { act: 'auth', verb: null }],
    ['wiki', { act: null, head: 'wiki' }],
    ['a new page named Picnic', { act: 'create', head: 'page', values: ['name:Picnic'] }],
    ['what pages mention roadmap?', { act: 'read', head: 'page' }],
    [
      'rename budget.xlsx to budget-2026.xlsx',
      { act: 'rename', values: ['file:budget.xlsx', 'file:budget-2026.xlsx'] },
    ],
  ])('%j', (text, want) => {
    const r = readIntent(text, { siteNames: names })
    const got = {
      act: r.act,
      verb: r.verb,
      head: r.head,
      sites: r.sites,
      values: r.values.map((v) => `${v.kind}:${v.text}`),
    }
    expect(got).toMatchObject(want)
  })

  it('marks text in another script unreadable and still reads its values', () => {
    const r = readIntent('위키 페이지 "Budget" 삭제')
    expect(r.readability).toMatchObject({ readable: false, script: 'Hangul' })
    expect(r.values.map((v) => v.text)).toEqual(['Budget'])
  })
})
