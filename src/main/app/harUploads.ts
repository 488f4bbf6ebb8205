import { randomUUID } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { once } from 'node:events'
import type { Readable } from 'node:stream'
import { finished } from 'node:stream/promises'
import { HAR_MAX_BYTES } from '../../shared/appApi'
import { ServiceError } from '../../shared/errors'

/** A HAR file received whole, waiting for `recorder.importHar` to take it. */
export interface HarUpload {
  uploadId: string
  /** Bytes received. */
  bytes: number
}

/**
 * HAR files streamed to the app (`POST /app-api/har-upload`) before they are imported: each is
 * written to a private temp folder as it arrives (never held whole in memory), then taken once
 * by its id. One per process, shared by the route and the `recorder.importHar` handler.
 */
export interface HarUploads {
  /**
   * Writes `body` to a file, refusing it past `maxBytes` (default {@link HAR_MAX_BYTES}):
   * 413 `payload_too_large` saying the limit in MB, the part written removed.
   */
  receive(body: Readable, options?: { maxBytes?: number }): Promise<HarUpload>
  /** The file of `uploadId` (no longer listed), or null when unknown, taken or expired. */
  take(uploadId: string): string | null
  /** Removes a taken file and its folder. Never rejects. */
  remove(path: string): Promise<void>
}

/** Bytes past the limit still read (and dropped) before a refused upload is cut off. */
const DRAIN_BYTES = 64 * 1024 * 1024

/** An upload not imported within this long is removed (ms). */
const KEEP_MS = 10 * 60_000

/** The refusal of a HAR over `maxBytes`, with the limit and how to make a smaller file. */
export function harTooLarge(maxBytes: number = HAR_MAX_BYTES): ServiceError {
  const mb = Math.round(maxBytes / 1024 / 1024)
  return new ServiceError(
    'payload_too_large',
    `The HAR file is over ${mb} MB, the most Sitecall imports. Record just the workflow (clear the DevTools network log, do it once, save as HAR), or keep only Fetch/XHR requests.`,
  )
}

/** A registry of {@link HarUploads} in the OS temp folder. */
function createHarUploads(): HarUploads {
  const waiting = new Map<string, { path: string; timer: NodeJS.Timeout }>()
  const remove = async (path: string) => {
    await rm(join(path, '..'), { recursive: true, force: true }).catch(() => undefined)
  }
  return {
    async receive(body, options = {}) {
      const maxBytes = options.maxBytes ?? HAR_MAX_BYTES
      // mkdtemp makes the folder 0700: a HAR carries the site's cookies.
      const dir = await mkdtemp(join(tmpdir(), 'sitecall-har-'))
      const path = join(dir, 'upload.har')
      let bytes = 0
      const file = createWriteStream(path, { mode: 0o600 })
      try {
        for await (const chunk of body as AsyncIterable<Buffer>) {
          bytes += chunk.length
          // Past the limit the rest is read and dropped, so the client hears the refusal
          // rather than a reset connection; a body far past it is cut off (the loop's end).
          if (bytes > maxBytes + DRAIN_BYTES) break
          if (bytes > maxBytes) continue
          if (!file.write(chunk)) await once(file, 'drain')
        }
        file.end()
        await finished(file)
      } catch {
        file.destroy()
        await rm(dir, { recursive: true, force: true })
        throw new ServiceError('bad_request', 'The upload was cut off before the file ended.')
      }
      if (bytes > maxBytes) {
        await rm(dir, { recursive: true, force: true })
        throw harTooLarge(maxBytes)
      }
      const uploadId = `har_${randomUUID()}`
      const timer = setTimeout(() => {
        waiting.delete(uploadId)
        void remove(path)
      }, KEEP_MS)
      timer.unref()
      waiting.set(uploadId, { path, timer })
      return { uploadId, bytes }
    },
    take(uploadId) {
      const upload = waiting.get(uploadId)
      if (!upload) return null
      waiting.delete(uploadId)
      clearTimeout(upload.timer)
      return upload.path
    },
    remove,
  }
}

/** The process's uploads: the route receives into it, `recorder.importHar` takes from it. */
export const harUploads: HarUploads = createHarUploads()
