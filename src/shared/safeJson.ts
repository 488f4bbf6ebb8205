/**
 * The value of a JSON text, or undefined when the text is empty or not JSON (RFC 8259): for bodies
 * and islands that may or may not be JSON, where "not JSON" is an answer, not an error.
 */
export function safeJson(text: string): unknown {
  if (!text) return undefined
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}
