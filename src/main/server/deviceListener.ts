import pg from 'pg'
import { toDevice, type DeviceHubContext, type DeviceRow, type Listener } from './deviceRecords'

const CHANNELS = ['sitecall_device_runs', 'sitecall_device_done', 'sitecall_devices'] as const

/** Adds `fn` to the waiters of `channel`; returns the function that removes it. */
function listen(ctx: DeviceHubContext, channel: string, fn: Listener): () => void {
  let set = ctx.listeners.get(channel)
  if (!set) ctx.listeners.set(channel, (set = new Set()))
  set.add(fn)
  return () => set.delete(fn)
}

/** Replaces the routing cache with `rows` (of workspace `only` when given, else of all). */
function loadCache(ctx: DeviceHubContext, rows: DeviceRow[], only?: string): void {
  if (only !== undefined) ctx.cache.delete(only)
  else ctx.cache.clear()
  for (const row of rows) {
    const list = ctx.cache.get(row.workspace) ?? []
    list.push(toDevice(row))
    ctx.cache.set(row.workspace, list)
  }
}

/** Connects again a second after the listener was lost, until it is back (or closed). */
function reconnect(ctx: DeviceHubContext): void {
  if (ctx.closed) return
  setTimeout(() => {
    if (ctx.closed) return
    connectListener(ctx).catch((error: unknown) => {
      ctx.onError?.(error)
      reconnect(ctx)
    })
  }, 1_000).unref()
}

/**
 * One listener connection: LISTEN on every channel, then the whole routing cache read. A
 * connection lost later connects again (`reconnect`); what was missed meanwhile is covered by
 * the waiters' re-reads and the cache read again on connecting. Rejects if unreachable.
 */
export async function connectListener(ctx: DeviceHubContext): Promise<void> {
  const c = new pg.Client({ connectionString: ctx.url, application_name: 'sitecall devices' })
  c.on('error', (error) => {
    // While it is being set up, the statement awaited below rejects instead.
    if (ctx.client !== c) return
    ctx.onError?.(error)
    ctx.client = null
    c.end().catch(() => undefined)
    reconnect(ctx)
  })
  c.on('notification', (message) => {
    if (message.channel === 'sitecall_devices' && message.payload) {
      const workspace = message.payload
      void c
        .query<DeviceRow>('SELECT * FROM devices WHERE workspace = $1', [workspace])
        .then(({ rows }) => loadCache(ctx, rows, workspace))
        .catch(() => undefined)
    }
    for (const fn of ctx.listeners.get(message.channel) ?? []) fn(message.payload ?? '')
  })
  try {
    await c.connect()
    for (const channel of CHANNELS) await c.query(`LISTEN ${channel}`)
    loadCache(ctx, (await c.query<DeviceRow>('SELECT * FROM devices')).rows)
  } catch (error) {
    await c.end().catch(() => undefined)
    throw error
  }
  if (ctx.closed) {
    await c.end().catch(() => undefined)
    return
  }
  ctx.client = c
}

/** Resolves on the first of: a notification on `channel` with `payload`, `ms`, `signal`. */
export function wake(
  ctx: DeviceHubContext,
  channel: string,
  payload: string,
  ms: number,
  signal?: AbortSignal,
): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer)
      off()
      ctx.polls.delete(done)
      signal?.removeEventListener('abort', done)
      resolve()
    }
    const timer = setTimeout(done, Math.max(0, ms))
    const off = listen(ctx, channel, (p) => {
      if (p === payload) done()
    })
    ctx.polls.add(done)
    signal?.addEventListener('abort', done)
  })
}

/** Answers every wait in flight (null) and refuses new long polls' waits (a draining node). */
export function endWaits(ctx: DeviceHubContext): void {
  ctx.stopped = true
  for (const done of [...ctx.polls]) done()
}

/** Ends every wait and the listener; waiters still pending resolve on their next database look. */
export async function closeListener(ctx: DeviceHubContext): Promise<void> {
  ctx.closed = true
  endWaits(ctx)
  const c = ctx.client
  ctx.client = null
  await c?.end().catch(() => undefined)
}
