import { gunzipSync, gzip } from 'node:zlib'

/**
 * A result text longer than this (UTF-8 bytes) is stored gzip-compressed: JSON answers shrink about
 * 9×, and below this the compression costs more than the bytes it saves.
 */
export const COMPRESS_ABOVE_BYTES = 4096

/** How a run's `result` column holds the result's JSON text. */
export type ResultCodec = 'json' | 'gzip'

/** A result as the runs table stores it: the JSON text, or its gzip bytes. */
export interface StoredResult {
  codec: ResultCodec
  data: string | Buffer
  /** Bytes the column holds (counted by the retention limit). */
  bytes: number
}

/**
 * Encodes a result's JSON text for the runs table: as is up to `COMPRESS_ABOVE_BYTES`, else gzip
 * (RFC 1952) at level 1, the fastest, on libuv's thread pool so the event loop goes on serving
 * calls meanwhile.
 */
export async function encodeResult(text: string): Promise<StoredResult> {
  const utf8 = Buffer.byteLength(text)
  if (utf8 <= COMPRESS_ABOVE_BYTES) return { codec: 'json', data: text, bytes: utf8 }
  const data = await new Promise<Buffer>((resolve, reject) =>
    gzip(text, { level: 1 }, (error, out) => (error ? reject(error) : resolve(out))),
  )
  return { codec: 'gzip', data, bytes: data.length }
}

/** The JSON text of a stored result (`codec` null: a row written before codecs, plain text). */
export function decodeResult(codec: string | null, data: string | Buffer): string {
  if (codec === 'gzip') return gunzipSync(data as Buffer).toString('utf8')
  return typeof data === 'string' ? data : data.toString('utf8')
}
