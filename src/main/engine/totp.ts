import { generate } from 'otplib'
import type { RequestTemplate } from '../../shared/toolSpec'
import { placeholderNames, type TemplateScope } from './template'

/** `{{totp:NAME}}`: the current one-time code of the TOTP seed kept as the secret NAME. */
const TOTP_PLACEHOLDER = /\{\{\s*totp:([A-Za-z0-9_.-]{1,64})\s*\}\}/g

/**
 * The secret names of a request template's `{{totp:NAME}}` placeholders (URL, headers, body), in
 * order of first use. Each names a TOTP seed (Base32: a saved login's `login.<host>.totp`) that
 * the executor resolves from the vault like a `{{secret:NAME}}` (bound to its hosts, checked
 * before sending), but never sends: it sends the code made from it.
 */
export function totpSeedNames(template: RequestTemplate): string[] {
  return placeholderNames(template, TOTP_PLACEHOLDER)
}

/**
 * The scope entries `totp:NAME` → the RFC 6238 code (HMAC-SHA-1, 6 digits, 30-second steps, the
 * defaults authenticator apps use) of each seed the template names, made at `nowMs` (ms since
 * the Unix epoch) from the seeds resolved into `secrets` (`secret:NAME`). A seed the scope lacks
 * gets no entry (the step's secret binding refused the run before). Made just before the request
 * is rendered, so the code is fresh when the site checks it.
 */
export async function totpCodes(
  template: RequestTemplate,
  secrets: TemplateScope,
  nowMs: number = Date.now(),
): Promise<TemplateScope> {
  const out: TemplateScope = {}
  for (const name of totpSeedNames(template)) {
    const seed = secrets[`secret:${name}`]
    if (typeof seed !== 'string' || !seed) continue
    out[`totp:${name}`] = await generate({ secret: seed, epoch: Math.floor(nowMs / 1000) })
  }
  return out
}
