/**
 * The spellings of a secret a site may echo back, so a run's result is redacted whichever one it
 * holds: raw, percent-encoded (RFC 3986 §2.1), form-encoded (WHATWG URL "application/x-www-form-
 * urlencoded"), JSON-escaped (RFC 8259 §7), HTML-escaped, hex (lower and upper case) and base64 /
 * base64url (RFC 4648 §4–5).
 *
 * Base64 cuts its input into 3-byte groups, so the encoding of a secret inside a longer text (a
 * Basic `user:secret`) depends on where it starts. For each of the three offsets this gives the
 * run of characters that depends on the secret's bytes only; whatever holds the secret at that
 * offset holds that run, and replacing it hides the secret (a character or two of the neighbours
 * may stay).
 */

/** Shorter base64 runs than this are left alone: they would match unrelated text. */
const MIN_BASE64_RUN = 8

/** Every distinct form of `value` worth searching for, longest first. */
export function secretForms(value: string): string[] {
  const bytes = Buffer.from(value, 'utf8')
  const forms = new Set<string>([
    value,
    encodeURIComponent(value),
    new URLSearchParams({ v: value }).toString().slice(2),
    JSON.stringify(value).slice(1, -1),
    asciiJson(value),
    htmlEscaped(value),
    bytes.toString('hex'),
    bytes.toString('hex').toUpperCase(),
  ])
  for (const run of base64Runs(bytes)) {
    forms.add(run)
    forms.add(run.replace(/\+/g, '-').replace(/\//g, '_'))
  }
  return [...forms].filter(Boolean).sort((a, b) => b.length - a.length)
}

/**
 * For a secret starting at byte offset 0, 1 and 2 of a base64 group: the characters that only
 * its own bytes decide (no padding, nothing of what comes before or after).
 */
function base64Runs(bytes: Buffer): string[] {
  const runs: string[] = []
  for (let offset = 0; offset < 3; offset++) {
    const padded = Buffer.concat([Buffer.alloc(offset), bytes])
    const whole = Math.floor(padded.length / 3) * 4
    // The first group's characters up to the secret's first bit belong to the bytes before it.
    const from = offset === 0 ? 0 : offset === 1 ? 2 : 3
    const run = padded.toString('base64').slice(from, whole)
    if (run.length >= MIN_BASE64_RUN) runs.push(run)
  }
  return runs
}

/** JSON text as a writer that escapes everything outside ASCII writes it (`\u00e9`). */
function asciiJson(value: string): string {
  return JSON.stringify(value)
    .slice(1, -1)
    .replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

function htmlEscaped(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;')
}
