import { createReadStream } from 'node:fs'
import { readFile, stat } from 'node:fs/promises'
import { pipeline } from 'node:stream/promises'
import { parser } from 'stream-json'
import { pick } from 'stream-json/filters/pick.js'
import { streamValues } from 'stream-json/streamers/stream-values.js'
import { isServiceError, ServiceError } from '../../shared/errors'
import type { Trace } from '../../shared/trace'
import { traceToHar, type HarExportOptions } from './har/exportTrace'
import { HarTraceBuilder, type HarImportOptions } from './har/traceBuilder'
import type { Har, HarEntry, HarPage } from './har/types'

export type { Har, HarEntry } from './har/types'
export type { HarExportOptions } from './har/exportTrace'
export type { HarImportOptions } from './har/traceBuilder'

/**
 * Imports a parsed HAR 1.2 object (or its JSON text) into a trace with no actions. Dialects of
 * Chrome DevTools, Firefox, Playwright and mitmproxy are read: base64 bodies, missing bodies,
 * redirects, pseudo-headers, `_resourceType` or an inferred type,
 * `postData.text` or `params`, page URLs through `pageref`. The recorder's secret redaction runs
 * on every exchange. Errors: 400 `invalid_input` when the input is not JSON, has no
 * `log.entries` list, or holds an entry without a request method and URL.
 */
export function importHar(har: Har | string, options: HarImportOptions): Trace {
  return importWhole(har, options)
}

function importWhole(har: Har | string, options: HarImportOptions, path?: string): Trace {
  let parsed: unknown = har
  if (typeof har === 'string') {
    try {
      parsed = JSON.parse(har)
    } catch (error) {
      throw notHar(`it is not valid JSON (${(error as Error).message})`, path)
    }
  }
  const log = (parsed as Partial<Har> | null)?.log
  if (!log || !Array.isArray(log.entries)) throw notHar('it has no "log.entries" list', path)
  const builder = new HarTraceBuilder(options)
  for (const page of Array.isArray(log.pages) ? log.pages : []) builder.addPage(page)
  log.entries.forEach((entry) => addEntry(builder, entry))
  return builder.finish()
}

/** Files up to this size are parsed whole; larger ones are streamed. */
const STREAM_ABOVE_BYTES = 32 * 1024 * 1024

/**
 * Imports a HAR file by streaming it (stream-json) when it is larger than `streamAboveBytes`
 * (default 32 MiB): `log.pages` and `log.entries` are parsed one item at a time, so a HAR of
 * hundreds of MB needs memory for the exchanges kept, not for the whole text. Same conversion
 * and errors as {@link importHar}; a missing or unreadable file is 400 `invalid_input` naming
 * the path.
 */
export async function importHarFile(
  path: string,
  options: HarImportOptions & { streamAboveBytes?: number },
): Promise<Trace> {
  let size: number
  try {
    const info = await stat(path)
    if (!info.isFile()) throw new Error('not a file')
    size = info.size
  } catch (error) {
    throw new ServiceError(
      'invalid_input',
      `Cannot read the HAR file ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.`,
    )
  }
  // JSON.parse is several times faster than a streaming parser; memory only matters for big files.
  if (size <= (options.streamAboveBytes ?? STREAM_ABOVE_BYTES)) {
    return importWhole(await readFile(path, 'utf8'), options, path)
  }
  const builder = new HarTraceBuilder(options)
  let sawEntries = false
  const filter = (stack: Array<string | number | null>): boolean => {
    if (stack[0] !== 'log') return false
    if (stack[1] === 'entries') sawEntries = true
    return (
      stack.length === 3 &&
      (stack[1] === 'entries' || stack[1] === 'pages') &&
      typeof stack[2] === 'number'
    )
  }
  try {
    await pipeline(
      createReadStream(path),
      parser.asStream({ streamValues: false }),
      pick.asStream({ filter }),
      streamValues.asStream(),
      async (items: AsyncIterable<{ value: unknown }>) => {
        for await (const { value } of items) {
          // Pages and entries come through one stream: an entry is the one with a request.
          if (value && typeof value === 'object' && 'request' in value)
            addEntry(builder, value as HarEntry)
          else builder.addPage(value as HarPage)
        }
      },
    )
  } catch (error) {
    if (isServiceError(error)) throw error
    throw notHar(`it is not valid JSON (${(error as Error).message})`, path)
  }
  if (!sawEntries) throw notHar('it has no "log.entries" list', path)
  return builder.finish()
}

/**
 * Exports any trace as HAR 1.2 (`log.version` 1.2, creator Sitecall, pages, entries with
 * request, response, cache, timings and `_resourceType`); the result validates against the HAR
 * 1.2 JSON Schema of `har-schema`.
 */
export function exportHar(trace: Trace, options: HarExportOptions): Har {
  return traceToHar(trace, options)
}

function addEntry(builder: HarTraceBuilder, entry: HarEntry): void {
  try {
    builder.addEntry(entry)
  } catch (error) {
    throw new ServiceError('invalid_input', `Not a usable HAR: ${(error as Error).message}`)
  }
}

function notHar(why: string, path?: string): ServiceError {
  return new ServiceError(
    'invalid_input',
    `${path ? `${path} is` : 'This is'} not a HAR 1.2 file: ${why}.`,
  )
}
