import type { FastifyInstance } from 'fastify'
import { ServiceError } from '../../shared/errors'

/** Request bodies at most this many bytes (the spec leaves body limits "not shown"). */
export const BODY_LIMIT_BYTES = 5 * 1024 * 1024

/**
 * JSON nested deeper than this is refused: tool inputs and answers are flat records, a few levels
 * deep at most, and the engine's canonical JSON and hashing recurse once per level.
 */
export const MAX_BODY_DEPTH = 64

/**
 * The nesting depth of a parsed JSON value (a scalar is 0, `[]` is 1), counted without recursion
 * so a hostile body cannot overflow the stack here; stops counting once past `limit`.
 */
export function jsonDepth(value: unknown, limit = Infinity): number {
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
 * a code of ours (the spec's tables have none for size).
 */
export function bodyTooLarge(): ServiceError {
  return new ServiceError(
    'payload_too_large',
    `The body is over ${BODY_LIMIT_BYTES / 1024 / 1024} MB, the most this service takes.`,
  )
}
