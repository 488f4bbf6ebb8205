import type { IncomingMessage } from 'node:http'
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify'
import { ServiceError } from '../../shared/errors'
import type { Authenticator } from './caller'
import { X_AUTH } from './openapi/routeSchema'

/** Request bodies at most this many bytes (docs/interface.md leaves body limits "not shown"). */
export const BODY_LIMIT_BYTES = 5 * 1024 * 1024

/**
 * JSON nested deeper than this is refused: tool inputs and answers are flat records, a few levels
 * deep at most, and the engine's canonical JSON and hashing recurse once per level.
 */
const MAX_BODY_DEPTH = 64

/**
 * The nesting depth of a parsed JSON value (a scalar is 0, `[]` is 1), counted without recursion
 * so a hostile body cannot overflow the stack here; stops counting once past `limit`.
 */
function jsonDepth(value: unknown, limit = Infinity): number {
  let deepest = 0
  const stack: Array<[unknown, number]> = [[value, 0]]
  while (stack.length) {
    const [item, depth] = stack.pop()!
    if (typeof item !== 'object' || item === null) continue
    const level = depth + 1
    if (level > deepest) deepest = level
    if (deepest > limit) return deepest
    for (const child of Array.isArray(item) ? item : Object.values(item)) stack.push([child, level])
  }
  return deepest
}

/**
 * Refuses a parsed body nested deeper than `MAX_BODY_DEPTH` (such `inputs`
 * answered 500 from the hash's recursion) with 400 `bad_request`, before any handler sees it.
 */
export function registerBodyGuards(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    if (jsonDepth(request.body, MAX_BODY_DEPTH) > MAX_BODY_DEPTH)
      throw new ServiceError(
        'bad_request',
        `The JSON body nests deeper than ${MAX_BODY_DEPTH} levels.`,
      )
  })
}

/**
 * The refusal of a body over `BODY_LIMIT_BYTES`: 413 (RFC 9110 §15.5.14) `payload_too_large`,
 * a code of ours (the interface's tables have none for size).
 */
function bodyTooLarge(): ServiceError {
  return new ServiceError(
    'payload_too_large',
    `The body is over ${BODY_LIMIT_BYTES / 1024 / 1024} MB, the most this service takes.`,
  )
}

/**
 * Most bytes of a refused body read and thrown away before the refusal is sent. A client that is
 * still sending when the server closes gets a reset (TCP RFC 9293 §3.6: closing with unread data)
 * and never reads the 413; past this the connection is cut anyway.
 */
const DRAIN_LIMIT_BYTES = 64 * 1024 * 1024
/** Longest wait for the rest of a refused body, ms. */
const DRAIN_TIMEOUT_MS = 30_000

/**
 * Reads the rest of a request body and throws it away, up to `DRAIN_LIMIT_BYTES` and
 * `DRAIN_TIMEOUT_MS`; resolves when it has ended, was cut off or the socket closed. Never rejects.
 */
export function drainBody(raw: IncomingMessage): Promise<void> {
  return new Promise((resolve) => {
    if (raw.complete || raw.destroyed) return resolve()
    let read = 0
    const done = () => {
      clearTimeout(timer)
      raw.off('data', onData)
      resolve()
    }
    const onData = (chunk: Buffer) => {
      read += chunk.length
      if (read > DRAIN_LIMIT_BYTES) done()
    }
    const timer = setTimeout(done, DRAIN_TIMEOUT_MS)
    timer.unref()
    raw.on('data', onData)
    raw.once('end', done)
    raw.once('close', done)
    raw.once('error', done)
    raw.resume()
  })
}

/** Fastify's body-parsing failures, as the service's refusals; null for any other error. */
export function bodyParseRefusal(error: FastifyError): ServiceError | null {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new ServiceError('bad_request', 'The body is not valid JSON.')
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ServiceError('bad_request', 'The body is required: send a JSON object.')
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ServiceError('bad_request', 'Send the body as application/json.')
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return bodyTooLarge()
  }
  if (error instanceof SyntaxError && error.statusCode === 400)
    return new ServiceError('bad_request', 'The body is not valid JSON.')
  return null
}

/**
 * The refusal of a request whose body could not be read, answered as a client should see it: a
 * caller without a valid credential hears 401 (or 403) first, whatever its body (RFC 9110 §15.5.2:
 * authentication is checked before the content), then the body's own refusal. A too-large body
 * is read to its end first, so the client gets the answer instead of a reset connection.
 */
export async function refuseUnreadBody(
  request: FastifyRequest,
  parseRefusal: ServiceError,
  auth: Authenticator,
): Promise<ServiceError> {
  if (parseRefusal.code === 'payload_too_large') await drainBody(request.raw)
  const needs = (request.routeOptions.schema as Record<string, unknown> | undefined)?.[X_AUTH]
  try {
    if (needs === 'key') auth.authenticate(request)
    else if (needs === 'owner') auth.requireOwner(request)
  } catch (error) {
    if (error instanceof ServiceError) return error
    throw error
  }
  return parseRefusal
}
