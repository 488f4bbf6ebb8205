import type { Db } from './db'

/**
 * Writes of one event-loop turn committed in one SQLite transaction (group commit). A commit
 * writes every page it dirtied to the WAL: at 16 runs in flight the runs table's last page and
 * its indexes' last pages were written once per run; together, once per turn.
 */
export interface GroupCommit {
  /**
   * Queues `fn` for the turn's transaction, in a savepoint of its own (one that throws undoes
   * only itself). The promise settles once the transaction committed, `fn`'s writes then durable
   * (docs/architecture.md "never lost"), or rejects with what `fn` threw or what failed the commit.
   */
  soon<T>(fn: () => T): Promise<T>
  /**
   * Commits what is queued now, so a read sees it. Inside a transaction it does nothing (the
   * queued writes would commit with that transaction, but their promises could not know when);
   * they then commit at the end of the turn.
   */
  flush(): void
}

interface Queued {
  fn: () => unknown
  resolve: (value: unknown) => void
  reject: (error: unknown) => void
}

/** Creates the group commit of one connection. */
export function createGroupCommit(db: Db): GroupCommit {
  const queue: Queued[] = []
  let scheduled = false
  // Statements kept: `db.transaction(fn)` builds a wrapper with its own statements per call,
  // a visible cost when it ran once per queued write.
  const begin = db.prepare('BEGIN')
  const end = db.prepare('COMMIT')
  const abort = db.prepare('ROLLBACK')
  const mark = db.prepare('SAVEPOINT queued')
  const keep = db.prepare('RELEASE queued')
  const undo = db.prepare('ROLLBACK TO queued')

  /** Runs `fn` in a savepoint: its writes stay when it returns, are undone when it throws. */
  const inSavepoint = (
    fn: () => unknown,
  ): { ok: true; value: unknown } | { ok: false; error: unknown } => {
    mark.run()
    try {
      const value = fn()
      keep.run()
      return { ok: true, value }
    } catch (error) {
      undo.run()
      keep.run()
      return { ok: false, error }
    }
  }

  const commit = () => {
    if (!queue.length || db.inTransaction) return
    const batch = queue.splice(0)
    const outcomes: Array<{ ok: true; value: unknown } | { ok: false; error: unknown }> = []
    try {
      begin.run()
      for (const { fn } of batch) outcomes.push(inSavepoint(fn))
      end.run()
    } catch (error) {
      if (db.inTransaction) abort.run()
      for (const item of batch) item.reject(error)
      return
    }
    batch.forEach((item, i) => {
      const outcome = outcomes[i]!
      if (outcome.ok) item.resolve(outcome.value)
      else item.reject(outcome.error)
    })
  }

  // A commit that found a transaction open (a caller's own) tries again next turn.
  const schedule = () => {
    if (scheduled) return
    scheduled = true
    setImmediate(() => {
      scheduled = false
      commit()
      if (queue.length) schedule()
    })
  }

  return {
    soon: <T>(fn: () => T): Promise<T> =>
      new Promise<T>((resolve, reject) => {
        queue.push({ fn, resolve: resolve as (value: unknown) => void, reject })
        schedule()
      }),
    flush: () => {
      if (queue.length) commit()
    },
  }
}
