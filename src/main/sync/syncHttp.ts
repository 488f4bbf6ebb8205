import type { SyncChanges } from '../store/toolSyncRepository'
import type { ToolSpec } from '../../shared/toolSpec'
import { safeJson } from '../../shared/safeJson'

/** What the server answered one push. */
export type PushAnswer =
  /** `before`: the workspace's revision just before this change. */
  | { kind: 'applied'; revision: number; before: number }
  /** 409 `stale_revision`: the server's version (`tool` null: deleted there). */
  | { kind: 'stale'; current: { revision: number; tool: ToolSpec | null } }
  /** Any other refusal (`credential_in_tool`, `conflict`...): pushing it again will not help. */
  | { kind: 'refused'; status: number; code: string; message: string }

/** The sync routes of one team server (docs/team-server.md "Sync"), as this desktop calls them. */
export interface SyncServer {
  /** `GET /v1/sync/tools?since=`: one page of changes. */
  pull(since: number): Promise<SyncChanges>
  /** `PUT /v1/sync/tools/{id}` under operation key `opKey`. */
  push(tool: ToolSpec, baseRevision: number, opKey: string): Promise<PushAnswer>
  /** `DELETE /v1/sync/tools/{id}?baseRevision=` under `opKey`. */
  remove(toolId: string, baseRevision: number, opKey: string): Promise<PushAnswer>
}

export interface SyncServerOptions {
  serverUrl: string
  /** `X-Service-Workspace`, or null for the account's first workspace. */
  workspace: string | null
  /**
   * The bearer token to send; called again with `renew: true` once after a 401 (an access
   * token that expired), and that answer is final.
   */
  bearer(renew: boolean): Promise<string>
  /** The fetch to use (tests drop answers with it); default the global one. */
  fetch?: typeof fetch
  /** Longest one request may take, ms; default 30,000. */
  timeoutMs?: number
}

/** A refusal of the server that is not a push's answer: 401, 403, 5xx, a bad page. */
export class SyncHttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message)
    this.name = 'SyncHttpError'
  }
}

/**
 * The HTTP client of a team server's sync routes. A network failure or timeout rejects (the
 * caller keeps its outbox and sends the same operation key next time); 401 is retried once with
 * a renewed token; other refusals of a pull reject with `SyncHttpError`.
 */
export function createSyncServer(options: SyncServerOptions): SyncServer {
  const doFetch = options.fetch ?? fetch
  const base = options.serverUrl.replace(/\/+$/, '')
  const send = async (
    method: string,
    path: string,
    headers: Record<string, string>,
    body?: unknown,
  ): Promise<{ status: number; json: Record<string, unknown> }> => {
    for (const renew of [false, true]) {
      const res = await doFetch(`${base}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${await options.bearer(renew)}`,
          accept: 'application/json',
          ...(options.workspace ? { 'x-service-workspace': options.workspace } : {}),
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...headers,
        },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
      })
      const text = await res.text()
      if (res.status === 401 && !renew) continue
      const json = safeJson(text) as Record<string, unknown> | undefined
      if (json === undefined)
        throw new SyncHttpError(
          res.status,
          'bad_answer',
          `${method} ${path}: not JSON (${res.status})`,
        )
      return { status: res.status, json }
    }
    throw new Error('unreachable')
  }
  const refusal = (status: number, json: Record<string, unknown>) => {
    const error = (json.error ?? {}) as { code?: string; message?: string }
    return { code: error.code ?? 'unknown', message: error.message ?? `HTTP ${status}` }
  }
  const answer = (status: number, json: Record<string, unknown>): PushAnswer => {
    if (status === 200)
      return { kind: 'applied', revision: Number(json.revision), before: Number(json.before) }
    const { code, message } = refusal(status, json)
    if (status === 409 && code === 'stale_revision') {
      const current = (json.error as { current: { revision: number; tool: ToolSpec | null } })
        .current
      return { kind: 'stale', current }
    }
    // Not the push's fault: the server, the token, the limits. The outbox keeps it.
    if (status === 401 || status === 403 || status === 429 || status >= 500)
      throw new SyncHttpError(status, code, message)
    return { kind: 'refused', status, code, message }
  }
  return {
    async pull(since) {
      const { status, json } = await send('GET', `/v1/sync/tools?since=${since}`, {})
      if (status !== 200) {
        const { code, message } = refusal(status, json)
        throw new SyncHttpError(status, code, message)
      }
      return json as unknown as SyncChanges
    },
    async push(tool, baseRevision, opKey) {
      const path = `/v1/sync/tools/${encodeURIComponent(tool.id)}`
      const { status, json } = await send(
        'PUT',
        path,
        { 'idempotency-key': opKey },
        { baseRevision, tool },
      )
      return answer(status, json)
    },
    async remove(toolId, baseRevision, opKey) {
      const path = `/v1/sync/tools/${encodeURIComponent(toolId)}?baseRevision=${baseRevision}`
      const { status, json } = await send('DELETE', path, { 'idempotency-key': opKey })
      return answer(status, json)
    },
  }
}
