/**
 * The requests the answer keys of Nagios name, and what they do by hand: commands are one form
 * POST to cmd.cgi told apart by its `cmd_typ` field, after the command's form page (a GET of
 * cmd.cgi that sets the CSRF cookie); reads are status.cgi and extinfo.cgi pages.
 */
import type { RequestKey } from '../types'
import { CGI } from './seed'

/** cmd.cgi's path. */
const CMD = `${CGI}/cmd.cgi`

/** The commit of a command form: `POST cmd.cgi` with `cmd_typ=<n>&cmd_mod=2&...`. */
export function commandKey(cmdTyp: number): RequestKey {
  return { method: 'POST', path: CMD, operation: { field: 'cmd_typ', value: String(cmdTyp) } }
}

/** A command's form page: sets the CSRF cookie `NagFormId` and the hidden `nagFormId` field. */
export const COMMAND_FORM: RequestKey = { method: 'GET', path: CMD }

/** The Comments page (`extinfo.cgi?type=3`): every comment with its id and delete link. */
export const COMMENTS_PAGE: RequestKey = {
  method: 'GET',
  path: `${CGI}/extinfo.cgi`,
  operation: { field: 'type', value: '3' },
}

/** The command numbers (Nagios' `CMD_*` of include/common.h) the workflows commit. */
export const CMD_TYP = {
  addHostComment: 1,
  delHostComment: 2,
  scheduleSvcCheck: 7,
  disableSvcNotifications: 23,
  acknowledgeSvcProblem: 34,
  scheduleHostDowntime: 55,
} as const

/**
 * A time as cmd.cgi's forms write and read it with `date_format=us`: `MM-DD-YYYY HH:MM:SS`, in
 * the server's time zone (the instance runs with TZ=UTC).
 */
export function usTime(ms: number): string {
  const d = new Date(ms)
  const two = (n: number) => String(n).padStart(2, '0')
  return (
    `${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())}-${d.getUTCFullYear()} ` +
    `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`
  )
}

/** Parses cmd.cgi's `MM-DD-YYYY HH:MM:SS` (UTC) back to milliseconds. */
export function parseUsTime(text: string): number {
  const m = /^(\d{2})-(\d{2})-(\d{4}) (\d{2}):(\d{2}):(\d{2})$/.exec(text.trim())
  if (!m) throw new Error(`not a cmd.cgi time: ${text}`)
  return Date.UTC(+m[3]!, +m[1]! - 1, +m[2]!, +m[4]!, +m[5]!, +m[6]!)
}
