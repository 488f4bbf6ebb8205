import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Readable } from 'node:stream'
import { HAR_MAX_BYTES, type AppResult } from '../../shared/appApi'
import { ServiceError } from '../../shared/errors'
import { drainBody } from '../surface/bodyGuards'
import { harTooLarge, harUploads, type HarUpload, type HarUploads } from './harUploads'
import type { Authenticator } from '../surface/caller'
import { routeSchema } from '../surface/openapi/routeSchema'
import { json } from '../surface/openapi/docParts'

/** Where web mode streams a HAR file before `recorder.importHar {uploadId}` imports it. */
const HAR_UPLOAD_PATH = '/app-api/har-upload'

/**
 * `POST /app-api/har-upload`: the HAR file as the raw body (`application/octet-stream`, up to
 * {@link HAR_MAX_BYTES}), written to a temp file as it arrives, so the browser can show the
 * upload's progress and nothing holds the file whole in memory. Answers the app contract's
 * envelope `{ok: true, value: {uploadId, bytes}}`. Owner token only, checked before a byte is
 * read; a body over the limit (declared or counted) is 413 `payload_too_large` naming the limit.
 */
export function registerHarUploadRoute(
  app: FastifyInstance,
  deps: { auth: Authenticator },
  uploads: Pick<HarUploads, 'receive'> = harUploads,
): void {
  void app.register(async (scoped) => {
    // The raw body goes to the upload as a stream: Fastify's own parsers would buffer it.
    scoped.addContentTypeParser(
      'application/octet-stream',
      { bodyLimit: HAR_MAX_BYTES },
      async (request: FastifyRequest, payload: Readable) => {
        const declared = Number(request.headers['content-length'])
        if (declared > HAR_MAX_BYTES) {
          await drainBody(request.raw)
          throw harTooLarge()
        }
        return uploads.receive(payload)
      },
    )
    scoped.post(
      HAR_UPLOAD_PATH,
      {
        bodyLimit: HAR_MAX_BYTES,
        schema: routeSchema({
          summary: `Stream a HAR file (up to ${HAR_MAX_BYTES / 1024 / 1024} MB) for \`recorder.importHar\`; answers \`{ok, value: {uploadId, bytes}}\`.`,
          tag: 'app',
          auth: 'owner',
          body: {
            // Any bytes: the file is read as HAR 1.2 when `recorder.importHar` takes it.
            schema: { description: 'The HAR file, as it is on disk.' },
            contentType: 'application/octet-stream',
            required: true,
          },
          responses: { '200': json('An AppResult with the upload id and its size in bytes.') },
          errors: ['bad_request', 'payload_too_large'],
        }),
        // Before the body is read: a caller without the owner token sends nothing to disk.
        onRequest: async (request) => deps.auth.requireOwner(request),
      },
      async (request): Promise<AppResult<HarUpload>> => {
        // Fastify's own JSON and text parsers still answer other content types on this path.
        if (!isHarUpload(request.body))
          throw new ServiceError('bad_request', 'Send the HAR file as application/octet-stream.')
        return { ok: true, value: request.body }
      },
    )
  })
}

/** What the octet-stream parser above leaves as the body: an upload's id and size. */
function isHarUpload(body: unknown): body is HarUpload {
  return (
    typeof body === 'object' &&
    body !== null &&
    'uploadId' in body &&
    typeof body.uploadId === 'string' &&
    'bytes' in body &&
    typeof body.bytes === 'number'
  )
}
