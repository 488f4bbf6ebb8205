import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'

/** The cookie a passed bot check leaves: `<nonce>.<signature>.<proof>`. */
export const CLEARANCE_COOKIE = 'sc_clearance'

/**
 * The proof the challenge script computes from the page's seed: a 31-based rolling hash modulo
 * 1,000,000,007 over the seed's UTF-16 code units. Cheap for a browser, but it has to run the
 * page's script to know it is asked (as with real JS challenges).
 */
export function clearanceProof(seed: string): string {
  let n = 0
  for (let i = 0; i < seed.length; i++) n = (n * 31 + seed.charCodeAt(i)) % 1_000_000_007
  return String(n)
}

const sign = (secret: string, nonce: string) =>
  createHmac('sha256', secret).update(nonce).digest('base64url').slice(0, 22)

/** A fresh seed signed by the site (`<nonce>.<signature>`), so a clearance cannot be forged. */
export function challengeSeed(secret: string): string {
  const nonce = randomBytes(12).toString('base64url')
  return `${nonce}.${sign(secret, nonce)}`
}

/** True when `value` is a clearance for a seed this site signed, with the right proof. */
export function isCleared(secret: string, value: string | undefined): boolean {
  const [nonce, signature, proof, ...rest] = (value ?? '').split('.')
  if (!nonce || !signature || !proof || rest.length) return false
  const expected = Buffer.from(sign(secret, nonce))
  const given = Buffer.from(signature)
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return false
  return proof === clearanceProof(`${nonce}.${signature}`)
}

/**
 * The 'bot_check' interstitial: a 403 page whose script derives the clearance from the seed in
 * the page, stores it as a cookie for the site's path and reloads, as JS challenges of CDNs do.
 * A browser passes on the reload; a plain HTTP client keeps getting this page.
 */
export function challengePage(seed: string, prefix: string): string {
  const path = prefix || '/'
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Just a moment...</title></head>
<body><h1>Checking your browser before accessing the site.</h1>
<p>This process is automatic. Please enable JavaScript and cookies.</p>
<form id="challenge-form" data-seed="${seed}"><p>Verify you are human: your browser answers for you.</p></form>
<noscript>JavaScript is required.</noscript>
<script>
(function () {
  var seed = document.getElementById('challenge-form').getAttribute('data-seed')
  var n = 0
  for (var i = 0; i < seed.length; i++) n = (n * 31 + seed.charCodeAt(i)) % 1000000007
  document.cookie = '${CLEARANCE_COOKIE}=' + seed + '.' + n + '; path=${path}; SameSite=Lax'
  setTimeout(function () { location.reload() }, 50)
})()
</script></body></html>
`
}
