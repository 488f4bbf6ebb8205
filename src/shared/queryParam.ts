/**
 * The value of the query parameter `name` in a parsed query (Fastify's `request.query`): a
 * string, an array of strings when the parameter is repeated, or undefined when it is absent or
 * the query is not an object. For routes that read a parameter by hand and check it themselves
 * (a token, a wait in seconds), where the query has no declared type.
 */
export function queryParam(query: unknown, name: string): unknown {
  return isRecord(query) ? query[name] : undefined
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null
}
