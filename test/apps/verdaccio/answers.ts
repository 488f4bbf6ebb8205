/** The package names in an answer that is a JSON list of packages (or its text); [] otherwise. */
export function namesIn(result: unknown): string[] {
  let value = result
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value) as unknown
    } catch {
      return []
    }
  }
  if (!Array.isArray(value)) return []
  return value
    .map((item: unknown) => (item as { name?: unknown } | null)?.name)
    .filter((name): name is string => typeof name === 'string')
}

/** The answer parsed when it is JSON text, else as it is. */
export function parsed(result: unknown): unknown {
  if (typeof result !== 'string') return result
  try {
    return JSON.parse(result) as unknown
  } catch {
    return result
  }
}

/** Throws the check's complaint when there is one: replays end with the check. */
export function orThrow(problem: string | null): void {
  if (problem) throw new Error(problem)
}

/** GETs `path` with `fetchOne` and returns its JSON, throwing on a non-2xx answer. */
export async function getJson(
  fetchOne: (path: string) => Promise<Response>,
  path: string,
): Promise<unknown> {
  const res = await fetchOne(path)
  if (!res.ok) throw new Error(`GET ${path} answered ${res.status}`)
  return (await res.json()) as unknown
}
