// The router's noun groups (issue 10): short forms people type are the nouns tools say.
import { describe, expect, it } from 'vitest'
import { nounSynonyms } from '../../../src/main/router/lexicon'
import { stem } from '../../../src/main/router/text'

describe('nounSynonyms', () => {
  it('reads dir as a directory and ns as a namespace', () => {
    expect(nounSynonyms(stem('dir')).has(stem('directory'))).toBe(true)
    expect(nounSynonyms(stem('ns')).has(stem('namespace'))).toBe(true)
    expect(nounSynonyms(stem('ns')).has(stem('directory'))).toBe(false)
  })
})
