import {
  brotliCompress,
  brotliCompressSync,
  brotliDecompressSync,
  constants,
  gunzipSync,
  type BrotliOptions,
} from 'node:zlib'

/**
 * A result text longer than this (UTF-8 bytes) is stored compressed: JSON answers shrink about
 * 10×, and below this the compression costs more than the bytes it saves.
 */
const COMPRESS_ABOVE_BYTES = 4096

/**
 * Up to this many bytes a result is compressed on the calling thread: Brotli at quality 1 takes
 * about 1 µs per KB here, less than handing the bytes to libuv's pool and back costs the event
 * loop (the bench's profile: about 130 µs of main-thread time per 72 KB answer with async gzip,
 * 70 µs compressing in place). Larger results go to the pool so one huge answer never holds
 * the loop for long.
 */
const COMPRESS_IN_PLACE_BYTES = 1024 * 1024

/**
 * How a run's `result` column holds the result's JSON text: as is, Brotli (RFC 7932), or gzip
 * (RFC 1952, rows written before Brotli; still read).
 */
type ResultCodec = 'json' | 'br' | 'gzip'

/** A result as the runs table stores it: the JSON text, or its compressed bytes. */
export interface StoredResult {
  codec: ResultCodec
  data: string | Buffer
  /** Bytes the column holds (counted by the retention limit). */
  bytes: number
}

/** Quality 1 (of 0–11): the fastest setting that still finds the repeats of a JSON list. */
const brotliOptions = (size: number): BrotliOptions => ({
  params: {
    [constants.BROTLI_PARAM_QUALITY]: 1,
    [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    [constants.BROTLI_PARAM_SIZE_HINT]: size,
  },
})

/**
 * Encodes a result's JSON text for the runs table: as is up to `COMPRESS_ABOVE_BYTES`, else
 * Brotli. `utf8`, when the caller has it, is the text's UTF-8 encoding (the bytes the site
 * sent): compressed as they are instead of encoding the text again.
 */
export async function encodeResult(text: string, utf8?: Buffer): Promise<StoredResult> {
  const size = utf8?.length ?? Buffer.byteLength(text)
  if (size <= COMPRESS_ABOVE_BYTES) return { codec: 'json', data: text, bytes: size }
  const input = utf8 ?? Buffer.from(text)
  const data =
    size <= COMPRESS_IN_PLACE_BYTES
      ? brotliCompressSync(input, brotliOptions(size))
      : await new Promise<Buffer>((resolve, reject) =>
          brotliCompress(input, brotliOptions(size), (error, out) =>
            error ? reject(error) : resolve(out),
          ),
        )
  return { codec: 'br', data, bytes: data.length }
}

/** The JSON text of a stored result (`codec` null: a row written before codecs, plain text). */
export function decodeResult(codec: string | null, data: string | Buffer): string {
  if (codec === 'br') return brotliDecompressSync(data as Buffer).toString('utf8')
  if (codec === 'gzip') return gunzipSync(data as Buffer).toString('utf8')
  return typeof data === 'string' ? data : data.toString('utf8')
}
