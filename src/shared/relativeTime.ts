/**
 * Times a page computes when the person acts (architecture.md "What recorded traffic asks", 9): a window from now to two hours
 * later, a due date "tomorrow". The compiler keeps such a value as its distance from the moment it
 * was sent and the recorded value as the exemplar of its written form; the engine writes
 * `now + offset` in that same form at run time. Placeholder: `{{gen.time:<offsetMs>:<exemplar>}}`
 * (`gen.time:7200000:2026-11-29T16:00:00.000Z`, `gen.time:-86400000:1764374400`).
 *
 * Written forms (the exemplar tells which): epoch milliseconds (13 digits), epoch seconds (10
 * digits), RFC 3339 / ISO 8601 date-times with `T` or a space, minutes, optional seconds and
 * fraction, and `Z`, a numeric offset or no zone (then read and written in UTC, so the distance
 * holds wherever the run is), calendar dates `YYYY-MM-DD` (distance in whole days), and the
 * wall-clock forms of form fields without a zone: month first with dashes (`11-29-2026 13:20:23`,
 * Nagios' `us` date format) and day first with dots (`29.11.2026 13:20`), read in UTC like an ISO
 * time without a zone. (With slashes the order is not told by the separator: not read.)
 */

/** The placeholder name prefix of a relative time. */
export const TIME_PREFIX = 'gen.time:'

/** How far from the moment it was sent a value may lie to count as relative (31 days). */
const RELATIVE_WINDOW_MS = 31 * 86_400_000

const DAY_MS = 86_400_000
const ISO =
  /^(\d{4})-(\d{2})-(\d{2})([T ])(\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/
/** Month first with dashes, day first with dots: `MM-DD-YYYY HH:MM[:SS]`, `DD.MM.YYYY HH:MM[:SS]`. */
const WALL = /^(\d{2})([-.])(\d{2})\2(\d{4}) (\d{2}):(\d{2})(?::(\d{2}))?$/

/** A wall-clock form's fields in ISO order, or null. */
function wallFields(text: string) {
  const m = WALL.exec(text)
  if (!m) return null
  const [, a, sep, b, y, h, mi, s] = m
  const [mo, d] = sep === '-' ? [a!, b!] : [b!, a!]
  return { sep: sep!, y: y!, mo, d, h: h!, mi: mi!, s }
}

/** The instant a written time stands for (ms since the epoch), or null when it is none. */
export function instantOf(text: string): number | null {
  if (/^\d{13}$/.test(text)) return Number(text)
  if (/^\d{10}$/.test(text)) return Number(text) * 1000
  const date = DATE.exec(text)
  if (date) return validDate(Date.UTC(+date[1]!, +date[2]! - 1, +date[3]!), text.slice(0, 10))
  const fields = wallFields(text)
  if (fields)
    return instantOf(
      `${fields.y}-${fields.mo}-${fields.d} ${fields.h}:${fields.mi}:${fields.s ?? '00'}`,
    )
  const iso = ISO.exec(text)
  if (!iso) return null
  const [, y, mo, d, , h, mi, s = '0', frac = '', zone] = iso
  const ms = frac ? Math.round(Number(`0${frac}`) * 1000) : 0
  const wall = Date.UTC(+y!, +mo! - 1, +d!, +h!, +mi!, +s, ms)
  if (validDate(wall, text.slice(0, 10)) === null || +h! > 23 || +mi! > 59 || +s > 59) return null
  return wall - zoneMinutes(zone) * 60_000
}

/**
 * The placeholder name for `text` sent at `sentAt` (ms), or null when it is no time within
 * `RELATIVE_WINDOW_MS` of that moment. The distance is rounded to the minute, to five minutes
 * from an hour on (whole days for a calendar date): the page computed it from its clock ("in two
 * hours"), and the moment of sending lies a few seconds after that.
 */
export function relativeTimeName(text: string, sentAt: number): string | null {
  const at = instantOf(text)
  if (at === null || Math.abs(at - sentAt) > RELATIVE_WINDOW_MS) return null
  const offset = DATE.test(text)
    ? at - startOfUtcDay(sentAt)
    : Math.round((at - sentAt) / step(at - sentAt)) * step(at - sentAt)
  return `${TIME_PREFIX}${offset}:${text.replace(' ', '_').replace('+', 'p')}`
}

/**
 * Writes the time `now + offset` in the form of the placeholder's exemplar: the value a
 * `{{gen.time:…}}` placeholder stands for at `now` (ms). A calendar date moves by whole days from
 * today (UTC). Returns null for a name that is no relative time.
 */
export function renderRelativeTime(name: string, now: number): string | null {
  if (!name.startsWith(TIME_PREFIX)) return null
  const rest = name.slice(TIME_PREFIX.length)
  const cut = rest.indexOf(':')
  const offset = Number(rest.slice(0, cut))
  const exemplar = rest
    .slice(cut + 1)
    .replace(/^(\d{4}-\d{2}-\d{2}|\d{2}[-.]\d{2}[-.]\d{4})_/, '$1 ')
    .replace(/p(\d{2}:?\d{2})$/, '+$1')
  if (cut < 0 || !Number.isFinite(offset) || instantOf(exemplar) === null) return null
  if (/^\d{13}$/.test(exemplar)) return String(now + offset)
  if (/^\d{10}$/.test(exemplar)) return String(Math.floor((now + offset) / 1000))
  if (DATE.test(exemplar)) return new Date(startOfUtcDay(now) + offset).toISOString().slice(0, 10)
  const wall = wallFields(exemplar)
  if (wall) {
    const t = new Date(now + offset).toISOString()
    const [y, mo, d] = [t.slice(0, 4), t.slice(5, 7), t.slice(8, 10)]
    const day = wall.sep === '-' ? `${mo}-${d}-${y}` : `${d}.${mo}.${y}`
    return `${day} ${t.slice(11, 16)}${wall.s === undefined ? '' : `:${t.slice(17, 19)}`}`
  }
  const iso = ISO.exec(exemplar)!
  const [, , , , sep, , , seconds, frac, zone] = iso
  const shifted = new Date(now + offset + zoneMinutes(zone) * 60_000).toISOString()
  let out = `${shifted.slice(0, 10)}${sep}${shifted.slice(11, 16)}`
  if (seconds !== undefined) out += `:${shifted.slice(17, 19)}`
  if (frac)
    out += `.${shifted
      .slice(20, 23)
      .padEnd(frac.length - 1, '0')
      .slice(0, frac.length - 1)}`
  return out + (zone ?? '')
}

function step(distance: number): number {
  return Math.abs(distance) >= 3_600_000 ? 300_000 : 60_000
}

function startOfUtcDay(at: number): number {
  return Math.floor(at / DAY_MS) * DAY_MS
}

/** A zone's offset east of UTC in minutes (`+05:30` → 330); no zone or `Z` → 0. */
function zoneMinutes(zone: string | undefined): number {
  if (!zone || zone === 'Z') return 0
  const m = /^([+-])(\d{2}):?(\d{2})$/.exec(zone)!
  return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]))
}

/** `at` when its UTC calendar date is `ymd` (no 31 February rolled into March), else null. */
function validDate(at: number, ymd: string): number | null {
  return Number.isFinite(at) && new Date(at).toISOString().slice(0, 10) === ymd ? at : null
}
