// Typing slips (issue 10): a word nothing knows is read as the known word one edit away.
import { describe, expect, it } from 'vitest'
import { createToolRouter, MIN_SCORE } from '../../../src/main/router/router'
import {
  correctSpelling,
  correctWord,
  type SpellingVocabulary,
} from '../../../src/main/router/spelling'
import { fileTool } from './fileTool'

/** A vocabulary of tool words (rank 0) and everyday words ranked by their order here. */
function vocabulary(toolWords: string[], everyday: string[]): SpellingVocabulary {
  const rankOf = new Map(everyday.map((w, i) => [w, 2 + i]))
  for (const w of toolWords) rankOf.set(w, 0)
  return {
    knows: (w) => rankOf.has(w),
    rank: (w) => rankOf.get(w) ?? null,
    common: (w) => everyday.includes(w),
  }
}

const WORDS = vocabulary(
  ['dokuwiki', 'rename', 'upload', 'folder'],
  ['the', 'file', 'what', 'every', 'read', 'me', 'back', 'end', 'smith', 'very', 'sung', 'fowler'],
)

describe('correctWord', () => {
  it('reads a swap, a dropped, an added or a wrong letter as the word meant', () => {
    expect(correctWord('renmae', WORDS)).toBe('rename')
    expect(correctWord('dokuwki', WORDS)).toBe('dokuwiki')
    expect(correctWord('uploadd', WORDS)).toBe('upload')
    expect(correctWord('uplkad', WORDS)).toBe('upload')
    expect(correctWord('waht', WORDS)).toBe('what')
  })

  it('prefers a word the tools say to an everyday one', () => {
    // `foler` is one edit from both; the tools' word wins.
    expect(correctWord('foler', WORDS)).toBe('folder')
  })

  it('leaves known words, compounds, short words and changed first letters alone', () => {
    expect(correctWord('rename', WORDS)).toBeNull()
    expect(correctWord('readme', WORDS)).toBeNull()
    expect(correctWord('backend', WORDS)).toBeNull()
    expect(correctWord('fil', WORDS)).toBeNull()
    expect(correctWord('jsmith', WORDS)).toBeNull()
    // Four letters: a swap after the first letter, or a letter dropped from a very frequent
    // word (`evry` is `every`, no `very`; `usng` is no `sung`).
    expect(correctWord('usng', WORDS)).toBeNull()
    expect(correctWord('evry', WORDS)).toBe('every')
  })
})

describe('correctSpelling', () => {
  it('corrects plain words and leaves quotes, values and names as written', () => {
    expect(correctSpelling('renmae the fiel on the dokuwki', WORDS)).toBe(
      'rename the file on the dokuwiki',
    )
    expect(correctSpelling('Renmae "uplkad" to uplkad.txt', WORDS)).toBe(
      'rename "uplkad" to uplkad.txt',
    )
    expect(correctSpelling("rename 'the uplkad folder' now", WORDS)).toBe(
      "rename 'the uplkad folder' now",
    )
    expect(correctSpelling('rename Uplkad, then uplkad.', WORDS)).toBe(
      'rename Uplkad, then upload.',
    )
  })
})

describe('router: slips', () => {
  const tools = [
    fileTool('rename_file', 'rename the file a.txt to b.txt', true),
    fileTool('upload_file', 'upload the file a.txt', true),
    fileTool('read_file', 'read the file a.txt', false),
  ]

  it('routes an intent whose verb and site carry slips to the tool meant', () => {
    const routed = createToolRouter().route('renmae report.docx to final.docx on filebox', tools)
    expect(routed.tools[0]?.id).toBe('rename_file')
    const slipped = createToolRouter().route('uplaod receipt.txt to the fileboxx', tools)
    expect(slipped.tools[0]?.id).toBe('upload_file')
    expect(slipped.tools[0]!.score).toBeGreaterThanOrEqual(MIN_SCORE)
  })
})
