/** A timestamp (ms since the epoch or ISO 8601) as local date and time. */
export function formatTime(value: number | string | null): string {
  if (value === null) return '—'
  return new Date(value).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })
}

/** Path and query of a URL, for tables where the host is the same on every row. */
export function pathOf(url: string): string {
  try {
    const parsed = new URL(url)
    return parsed.pathname + parsed.search
  } catch {
    return url
  }
}

export function json(value: unknown): string {
  return JSON.stringify(value, null, 2) ?? 'undefined'
}
