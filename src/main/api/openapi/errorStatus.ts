import { ERROR_STATUS, type ErrorCode } from '../../../shared/errors'

/**
 * Parses a route's error entry (`code` or `code@status`) into its code and status; the status
 * defaults to the code's first in `ERROR_STATUS`. Throws for a code the interface's tables lack, so a
 * route document cannot name an invented code.
 */
export function parseErrorEntry(entry: string): { code: string; status: number } {
  const [code, status] = entry.split('@') as [string, string | undefined]
  const statuses: readonly number[] | undefined = ERROR_STATUS[code as ErrorCode]
  if (!statuses) throw new Error(`"${code}" is not a code of the interface's error tables.`)
  const chosen = status === undefined ? statuses[0]! : Number(status)
  if (!statuses.includes(chosen))
    throw new Error(`docs/interface.md does not answer ${code} with ${chosen}.`)
  return { code, status: chosen }
}
