import { findCredentials } from '../../shared/toolCredentials'
import type { ToolSpec } from '../../shared/toolSpec'
import type { ToolRepository } from '../store/toolRepository'
import type { PushAnswer, SyncServer } from './syncHttp'
import type { SyncConflict, SyncLocal } from './syncLocal'

/** What one `sync` did, for the CLI's lines (and `--json`). */
export interface SyncReport {
  /** Tools the server took (made or changed), and deletes it took. */
  pushed: string[]
  deleted: string[]
  /** Tools pulled and saved here, and tools pulled as deleted and removed here. */
  pulled: string[]
  removed: string[]
  /** Changes the server (or this desktop's own check) refused: they stay local. */
  refused: Array<{ toolId: string; code: string; message: string }>
  /** Open conflicts after this sync, each with both versions. */
  conflicts: SyncConflict[]
  /** The server revision pulled up to. */
  revision: number
  /** Set when the sync stopped early (the server out of reach): the outbox keeps the rest. */
  stopped: string | null
}

export interface SyncDeps {
  tenant: string
  /** The linked workspace's tools on this desktop. */
  tools: ToolRepository
  local: SyncLocal
  server: SyncServer
  clock: () => number
  /**
   * Refuses a tool that may not leave this desktop, beyond `findCredentials` (the vault's check
   * for a stored secret's value): rejects with the reason. Default: none.
   */
  refuseTool?: (tool: ToolSpec) => Promise<void>
  /**
   * Told as the sync goes (the app's progress line): after each outbox entry is answered or
   * skipped, and after each pulled page is applied. Changes nothing the sync does. Default: none.
   */
  onProgress?: (progress: SyncProgress) => void
}

/**
 * How far one sync is: `done` of the `total` outbox entries it found at its start (pushed,
 * refused, skipped or kept as a conflict), and `pulled` tools saved here so far.
 */
export interface SyncProgress {
  phase: 'push' | 'pull'
  done: number
  total: number
  pulled: number
}

/**
 * One sync of a linked workspace: drains the outbox in order, each change under
 * its own operation key (marked sent before it goes, so a crash between send and answer sends
 * the same key again and the server applies it once), then pulls every change after the last
 * pulled revision and applies it without refilling the outbox. A 409 `stale_revision` keeps a
 * conflict with both versions (nothing overwritten); a tool in conflict, or with a change still
 * waiting, is not overwritten by a pull. A network failure stops the sync with `stopped` set:
 * nothing is lost, the next sync goes on.
 */
export async function runSync(deps: SyncDeps): Promise<SyncReport> {
  const { tenant, tools, local, server } = deps
  const report: SyncReport = {
    pushed: [],
    deleted: [],
    pulled: [],
    removed: [],
    refused: [],
    conflicts: [],
    revision: local.link(tenant)?.pulledRevision ?? 0,
    stopped: null,
  }
  const inConflict = new Set(local.conflicts(tenant).map((c) => c.toolId))
  const entries = local.outbox(tenant)
  const progress: SyncProgress = { phase: 'push', done: 0, total: entries.length, pulled: 0 }
  const tell = () => deps.onProgress?.({ ...progress, pulled: report.pulled.length })
  try {
    tell()
    for (const entry of entries) {
      progress.done++
      if (inConflict.has(entry.toolId)) continue
      const base = local.base(tenant, entry.toolId)
      let answer: PushAnswer
      let mine: ToolSpec | null = null
      if (entry.op === 'put') {
        mine = tools.get(entry.toolId)
        // Deleted since (a later entry says so), or no longer shareable: nothing to send.
        if (!mine || mine.status === 'candidate') {
          local.done(entry.seq)
          continue
        }
        const refusal = await ownRefusal(mine, deps.refuseTool)
        if (refusal) {
          report.refused.push({
            toolId: entry.toolId,
            code: 'credential_in_tool',
            message: refusal,
          })
          local.done(entry.seq)
          continue
        }
        local.markSent(entry.seq, deps.clock())
        answer = await server.push(mine, base, entry.opKey)
      } else {
        local.markSent(entry.seq, deps.clock())
        answer = await server.remove(entry.toolId, base, entry.opKey)
      }
      if (answer.kind === 'applied') {
        // Nothing else changed the workspace since the last pull: the pull need not bring this
        // change back.
        const link = local.link(tenant)
        if (link && answer.before === link.pulledRevision)
          local.setPulledRevision(tenant, answer.revision)
        if (entry.op === 'put') {
          local.setBase(tenant, entry.toolId, answer.revision)
          report.pushed.push(entry.toolId)
        } else {
          local.dropBase(tenant, entry.toolId)
          report.deleted.push(entry.toolId)
        }
      } else if (answer.kind === 'stale') {
        local.saveConflict(tenant, {
          toolId: entry.toolId,
          mine,
          theirs: answer.current.tool,
          theirRevision: answer.current.revision,
          createdAt: deps.clock(),
        })
        inConflict.add(entry.toolId)
      } else {
        report.refused.push({ toolId: entry.toolId, code: answer.code, message: answer.message })
      }
      local.done(entry.seq)
      tell()
    }
    progress.phase = 'pull'
    tell()
    await pull(deps, report, inConflict, tell)
  } catch (error) {
    report.stopped = (error as Error).message
  }
  report.conflicts = local.conflicts(tenant)
  return report
}

async function ownRefusal(
  tool: ToolSpec,
  refuseTool: SyncDeps['refuseTool'],
): Promise<string | null> {
  const found = findCredentials(tool)
  if (found.length > 0)
    return `Not pushed: it carries a credential or recorded traffic at ${found.map((f) => f.path).join(', ')}.`
  try {
    await refuseTool?.(tool)
    return null
  } catch (error) {
    return `Not pushed: ${(error as Error).message}`
  }
}

/** Pulls every page after the link's revision and applies it (see `runSync`). */
async function pull(
  deps: SyncDeps,
  report: SyncReport,
  inConflict: Set<string>,
  tell: () => void,
): Promise<void> {
  const { tenant, tools, local, server } = deps
  for (;;) {
    const since = local.link(tenant)?.pulledRevision ?? 0
    const page = await server.pull(since)
    const waiting = new Set(local.outbox(tenant).map((e) => e.toolId))
    local.applying(tenant, () => {
      for (const { revision, tool } of page.tools) {
        if (local.base(tenant, tool.id) >= revision) continue // our own push, back
        if (inConflict.has(tool.id)) {
          const open = local.conflict(tenant, tool.id)!
          local.saveConflict(tenant, { ...open, theirs: tool, theirRevision: revision })
          continue
        }
        // A change made here and not pushed yet: its push will meet this revision (409).
        if (waiting.has(tool.id)) continue
        try {
          tools.save(tool)
        } catch (error) {
          report.refused.push({
            toolId: tool.id,
            code: 'conflict',
            message: `Not pulled: ${(error as Error).message}`,
          })
          continue
        }
        local.setBase(tenant, tool.id, revision)
        report.pulled.push(tool.id)
      }
      for (const gone of page.deleted) {
        if (inConflict.has(gone.toolId)) {
          const open = local.conflict(tenant, gone.toolId)!
          local.saveConflict(tenant, { ...open, theirs: null, theirRevision: gone.revision })
          continue
        }
        if (waiting.has(gone.toolId)) continue
        if (tools.delete(gone.toolId)) report.removed.push(gone.toolId)
        local.dropBase(tenant, gone.toolId)
      }
      local.setPulledRevision(tenant, page.revision)
    })
    report.revision = page.revision
    tell()
    if (!page.more) return
  }
}

/**
 * Settles a conflict as the person chose (`sitecall sync --take mine|theirs TOOL`): `theirs`
 * puts the server's version here (or deletes the tool here when it was deleted there); `mine`
 * makes the server's revision the base of this desktop's version and queues it to push (under
 * a new operation key) on the next drain. Either way the tool's other waiting changes are
 * dropped and the conflict closes. Throws when there is no conflict for `toolId`.
 */
export function resolveConflict(
  deps: Pick<SyncDeps, 'tenant' | 'tools' | 'local'>,
  toolId: string,
  take: 'mine' | 'theirs',
): void {
  const { tenant, tools, local } = deps
  const open = local.conflict(tenant, toolId)
  if (!open) throw new Error(`No sync conflict for tool ${toolId}.`)
  local.applying(tenant, () => {
    local.dropOutbox(tenant, toolId)
    local.dropConflict(tenant, toolId)
    local.setBase(tenant, toolId, open.theirRevision)
    if (take === 'theirs') {
      if (open.theirs) tools.save(open.theirs)
      else {
        tools.delete(toolId)
        local.dropBase(tenant, toolId)
      }
      return
    }
    const current = tools.get(toolId)
    if (current && current.status !== 'candidate') local.enqueue(tenant, toolId, 'put')
    else if (!current) local.enqueue(tenant, toolId, 'delete')
  })
}

/** The top-level fields in which two versions of a tool differ (what a conflict shows). */
export function changedFields(mine: ToolSpec | null, theirs: ToolSpec | null): string[] {
  if (!mine || !theirs) return [mine ? 'deleted on the server' : 'deleted here']
  const keys = new Set([...Object.keys(mine), ...Object.keys(theirs)])
  return [...keys]
    .filter((k) => k !== 'updatedAt')
    .filter(
      (k) =>
        JSON.stringify((mine as unknown as Record<string, unknown>)[k]) !==
        JSON.stringify((theirs as unknown as Record<string, unknown>)[k]),
    )
    .sort()
}
