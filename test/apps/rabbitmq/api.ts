/**
 * What the answer keys of RabbitMQ do by hand, as a person with curl would: read a queue, a user
 * or a permission from the management API, look at a queue's messages without taking them
 * (`ack_requeue_true`: each comes back to its place), and search a run's result.
 */
import type { StorageState } from '../../../src/shared/trace'
import { delay } from '../childProcess'
import type { AppInstance } from '../types'

/** `/api/<kind>/<vhost>/<name>` with both parts escaped (`/` is `%2F`), as the UI's `esc()`. */
export function apiPath(kind: string, vhost: string, name: string, rest = ''): string {
  return `/api/${kind}/${encodeURIComponent(vhost)}/${encodeURIComponent(name)}${rest}`
}

/** GETs `path` signed in: the parsed answer, or null when RabbitMQ says 404. Throws otherwise. */
export async function getJson<T>(
  app: AppInstance,
  session: StorageState,
  path: string,
): Promise<T | null> {
  const res = await app.fetch(path, { session })
  if (res.status === 404) {
    await res.arrayBuffer()
    return null
  }
  if (!res.ok) throw new Error(`GET ${path} answered ${res.status}`)
  return (await res.json()) as T
}

/** Sends `method` `path` with a JSON `body` signed in; throws unless RabbitMQ answered 2xx. */
export async function send(
  app: AppInstance,
  session: StorageState,
  method: string,
  path: string,
  body?: unknown,
): Promise<unknown> {
  const res = await app.fetch(path, {
    method,
    session,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  const text = await res.text()
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status} ${text.slice(0, 200)}`)
  return text ? (JSON.parse(text) as unknown) : null
}

/** A queue as `GET /api/queues/<vhost>/<name>` gives it (the fields the checks read). */
export interface QueueInfo {
  name: string
  vhost: string
  durable: boolean
  arguments: Record<string, unknown>
  messages?: number
}

/** The queue, or null when it does not exist. */
export function readQueue(
  app: AppInstance,
  session: StorageState,
  vhost: string,
  name: string,
): Promise<QueueInfo | null> {
  return getJson<QueueInfo>(app, session, apiPath('queues', vhost, name))
}

/**
 * The queue's message count once the statistics (collected every second) agree with `want`, or
 * the last count seen after `waitMs`: a purge shows in the statistics a moment after it is done.
 */
export async function settledCount(
  app: AppInstance,
  session: StorageState,
  vhost: string,
  name: string,
  want: number,
  waitMs = 6000,
): Promise<number | null> {
  const deadline = Date.now() + waitMs
  for (;;) {
    const q = await readQueue(app, session, vhost, name)
    const count = q?.messages ?? null
    if (count === want || Date.now() > deadline) return count
    await delay(300)
  }
}

/**
 * The payloads of every message in the queue, in order, without taking them: a get with
 * `ack_requeue_true`, which puts each back in its place.
 */
export async function peekPayloads(
  app: AppInstance,
  session: StorageState,
  vhost: string,
  name: string,
): Promise<string[]> {
  const got = (await send(app, session, 'POST', apiPath('queues', vhost, name, '/get'), {
    count: 100,
    ackmode: 'ack_requeue_true',
    encoding: 'auto',
    truncate: 50000,
  })) as Array<{ payload: string }>
  return got.map((m) => m.payload)
}

/** A run's result as one searchable string (a string as it is, anything else as JSON). */
export function resultText(result: unknown): string {
  return typeof result === 'string' ? result : JSON.stringify(result ?? null)
}

/** Throws `problem` when it is not null (replayByHand reuses the checks this way). */
export function mustPass(problem: string | null): void {
  if (problem) throw new Error(problem)
}
