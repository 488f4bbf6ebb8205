import { load, type CheerioAPI } from 'cheerio'
import { safeUrl } from '../../shared/safeJson'

/** The readable view of an HTML page (interface.md "Page result (read_page and get_search)"). */
export interface PageView {
  title: string
  /** The page's readable text: one line per block, whitespace collapsed. */
  text: string
  /** Every link with an http(s) target, absolute, in document order, without duplicates. */
  links: Array<{ text: string; href: string }>
}

/** What stands between a caller and the page's content. */
export type PageBarrier = 'challenge' | 'mfa_required' | 'sign_in' | null

/** Elements that are never readable content: code, styling, embedded media, hidden parts. */
const NOISE =
  'script, style, noscript, template, svg, canvas, iframe, object, embed, head, [hidden], [aria-hidden="true"], [role="navigation"], nav, dialog:not([open])'
const BLOCK =
  /^(address|article|aside|blockquote|br|dd|details|div|dl|dt|fieldset|figcaption|figure|footer|form|h[1-6]|header|hr|li|main|ol|p|pre|section|summary|table|tr|ul|td|th|caption|option|label|button)$/

/**
 * Turns an HTML page into `{title, text, links}`: the title is `<title>` (else the first
 * `<h1>`); the text is what a reader sees, scripts, styles and navigation left out, one line per
 * block; links are resolved against `<base href>` or the page URL (WHATWG URL), so they are
 * absolute, and only http(s) targets are kept. Navigation is dropped from the text but its links
 * stay: they are how a caller moves on.
 */
export function pageView(html: string, pageUrl: string): PageView {
  const $ = load(html)
  return viewOf($, pageUrl)
}

/**
 * Reads a page once for both its view and what blocks it: a bot check, a second-factor prompt
 * or a sign-in form (a password field on a page whose title, heading or form says sign in).
 */
export function readPage(html: string, pageUrl: string): { view: PageView; barrier: PageBarrier } {
  const $ = load(html)
  const barrier = barrierOf($, html)
  return { view: viewOf($, pageUrl), barrier }
}

function viewOf($: CheerioAPI, pageUrl: string): PageView {
  const title = clean($('title').first().text()) || clean($('h1').first().text())
  const base = baseUrl($, pageUrl)
  const links: PageView['links'] = []
  const seen = new Set<string>()
  $('a[href]').each((_, el) => {
    const a = $(el)
    const href = resolve(a.attr('href') ?? '', base)
    if (!href) return
    const text =
      clean(a.text()) ||
      clean(a.attr('aria-label') ?? '') ||
      clean(a.attr('title') ?? '') ||
      clean(a.find('img[alt]').first().attr('alt') ?? '')
    const key = `${href}\n${text}`
    if (seen.has(key)) return
    seen.add(key)
    links.push({ text, href })
  })
  $(NOISE).remove()
  const body = $('body').length ? $('body') : $.root()
  const lines: string[] = []
  let line = ''
  const flush = () => {
    const text = clean(line)
    if (text) lines.push(text)
    line = ''
  }
  const walk = (nodes: ReturnType<CheerioAPI>) => {
    nodes.contents().each((_, node) => {
      if (node.type === 'text') line += node.data
      else if (node.type === 'tag') {
        const block = BLOCK.test(node.name)
        if (block) flush()
        if (node.name === 'img') line += ` ${$(node).attr('alt') ?? ''} `
        else walk($(node))
        if (block) flush()
        else line += ' '
      }
    })
  }
  walk(body)
  flush()
  return { title, text: lines.join('\n'), links }
}

function barrierOf($: CheerioAPI, html: string): PageBarrier {
  const heading = `${$('title').first().text()} ${$('h1').first().text()}`.toLowerCase()
  if (
    /just a moment|attention required|captcha|are you a robot|are you human|verify you are human|security check/.test(
      heading,
    ) ||
    $('#challenge-form, #cf-challenge-running, .g-recaptcha, .h-captcha, iframe[src*="captcha"]')
      .length > 0 ||
    /challenge-platform|cf-challenge/.test(html)
  )
    return 'challenge'
  const otp = $('input').filter((_, el) => {
    const input = $(el)
    const names = `${input.attr('name') ?? ''} ${input.attr('id') ?? ''}`
    return (
      input.attr('autocomplete') === 'one-time-code' ||
      /(^|[\s_-])(otp|totp|mfa|2fa|one[-_]?time|verification[-_]?code|auth[-_]?code)([\s_-]|$)/i.test(
        names,
      )
    )
  })
  if (otp.length) return 'mfa_required'
  if ($('input[type="password" i]').length) {
    const action = $('form')
      .toArray()
      .map((f) => $(f).attr('action') ?? '')
      .join(' ')
    if (
      /sign\s?in|log\s?in|login|sign on/.test(heading) ||
      // `auth` as a word (`/auth/`, `oauth`), not a suffix: Icecast's `manageauth` form adds a
      // listener account with a password field and is no sign-in.
      /login|signin|sign_in|session|(^|[^a-z])o?auth/i.test(action)
    )
      return 'sign_in'
  }
  return null
}

function baseUrl($: CheerioAPI, pageUrl: string): string {
  const href = $('base[href]').first().attr('href')
  return href ? (resolve(href, pageUrl) ?? pageUrl) : pageUrl
}

function resolve(href: string, base: string): string | null {
  const trimmed = href.trim()
  if (!trimmed || trimmed.startsWith('#')) return null
  const url = safeUrl(trimmed, base)
  return url?.protocol === 'http:' || url?.protocol === 'https:' ? url.href : null
}

function clean(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}
