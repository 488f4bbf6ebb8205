/** Parses a JSON column that may be NULL. */
export function parseJson<T>(text: string | null): T | null {
  return text === null ? null : (JSON.parse(text) as T)
}
