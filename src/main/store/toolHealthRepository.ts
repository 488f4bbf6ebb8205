import type { Db } from './db'

export interface ToolHealth {
  toolId: string
  consecutiveFailures: number
  lastFailureCode: string | null
  /** Inputs (by semantic name) of the last succeeded run: what a recheck runs again. */
  lastGoodInputs: Record<string, unknown> | null
  /** Milliseconds since the Unix epoch, or null when not quarantined. */
  quarantinedAt: number | null
  checkedAt: number | null
}

export interface ToolHealthRepository {
  get(toolId: string): ToolHealth
  /**
   * A succeeded run: resets the failure streak and keeps its inputs. One statement and no read
   * back: it runs in every succeeded run's transaction.
   */
  recordSuccess(toolId: string, inputs: Record<string, unknown>): void
  /** A drift-like failure: lengthens the streak; returns the new health. */
  recordFailure(toolId: string, code: string): ToolHealth
  setQuarantined(toolId: string, at: number | null): void
  markChecked(toolId: string, at: number): void
  quarantined(): ToolHealth[]
}

interface Row {
  tool_id: string
  consecutive_failures: number
  last_failure_code: string | null
  last_good_inputs: string | null
  quarantined_at: number | null
  checked_at: number | null
}

const toHealth = (r: Row): ToolHealth => ({
  toolId: r.tool_id,
  consecutiveFailures: r.consecutive_failures,
  lastFailureCode: r.last_failure_code,
  lastGoodInputs: r.last_good_inputs
    ? (JSON.parse(r.last_good_inputs) as Record<string, unknown>)
    : null,
  quarantinedAt: r.quarantined_at,
  checkedAt: r.checked_at,
})

/** Creates the tool-health repository over an open database. */
export function createToolHealthRepository(db: Db): ToolHealthRepository {
  const ensure = (toolId: string) =>
    db.prepare('INSERT OR IGNORE INTO tool_health (tool_id) VALUES (?)').run(toolId)
  const get = (toolId: string) => {
    ensure(toolId)
    return toHealth(db.prepare('SELECT * FROM tool_health WHERE tool_id = ?').get(toolId) as Row)
  }
  return {
    get,
    recordSuccess(toolId, inputs) {
      db.prepare(
        `INSERT INTO tool_health (tool_id, last_good_inputs) VALUES (?, ?)
         ON CONFLICT (tool_id) DO UPDATE SET consecutive_failures = 0, last_failure_code = NULL,
           last_good_inputs = excluded.last_good_inputs`,
      ).run(toolId, JSON.stringify(inputs))
    },
    recordFailure(toolId, code) {
      ensure(toolId)
      db.prepare(
        `UPDATE tool_health SET consecutive_failures = consecutive_failures + 1,
           last_failure_code = ? WHERE tool_id = ?`,
      ).run(code, toolId)
      return get(toolId)
    },
    setQuarantined(toolId, at) {
      ensure(toolId)
      db.prepare('UPDATE tool_health SET quarantined_at = ? WHERE tool_id = ?').run(at, toolId)
    },
    markChecked(toolId, at) {
      ensure(toolId)
      db.prepare('UPDATE tool_health SET checked_at = ? WHERE tool_id = ?').run(at, toolId)
    },
    quarantined() {
      return (
        db
          .prepare('SELECT * FROM tool_health WHERE quarantined_at IS NOT NULL ORDER BY tool_id')
          .all() as Row[]
      ).map(toHealth)
    },
  }
}
