/**
 * The value of a JSON text, or undefined when the text is empty or not JSON (RFC 8259): for bodies
 * and islands that may or may not be JSON, where "not JSON" is an answer, not an error.
 */
export function safeJson(text: string): unknown {
  if (!text) return undefined
  try {
    return JSON.parse(text)
  } catch {
    // The one place a JSON syntax error is swallowed: callers read undefined as "not JSON".
    return undefined
  }
}

/**
 * `text` parsed as a URL (WHATWG URL Standard, resolved against `base` when given), or undefined
 * when it is not one: for addresses that come from pages, people or records, where "not a URL" is
 * an answer, not an error. Any scheme parses (`data:`, `mailto:`); `httpUrl` in `urls.ts` takes
 * only http(s).
 */
export function safeUrl(text: string, base?: string | URL): URL | undefined {
  try {
    return new URL(text, base)
  } catch {
    // The one place a URL syntax error is swallowed: callers read undefined as "not a URL".
    return undefined
  }
}
