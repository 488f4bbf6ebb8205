import type { Action, Trace } from '../../../src/shared/trace'
import type { traceBuilder } from './traceBuilder'

type Builder = ReturnType<typeof traceBuilder>

/**
 * Adds what every real page load brings besides the data: a stylesheet, a script, an image, a
 * font from a font host, an analytics beacon, an ad call, a translation dictionary and a
 * feature-flag blob. None of these may ever become a tool.
 */
export function withNoise(builder: Builder): Builder {
  return builder
    .exchange('GET', '/static/site.css', {
      type: 'stylesheet',
      mime: 'text/css',
      responseText: 'body{}',
    })
    .exchange('GET', '/static/app.js', {
      type: 'script',
      mime: 'text/javascript',
      responseText: 'void 0',
    })
    .exchange('GET', '/static/logo.png', {
      type: 'image',
      mime: 'image/png',
      responseText: 'iVBOR',
    })
    .exchange('GET', 'https://fonts.gstatic.com/s/inter.woff2', {
      type: 'font',
      mime: 'font/woff2',
      responseText: 'd09G',
    })
    .exchange('POST', '/collect', { body: { event: 'pageview' }, status: 204, type: 'ping' })
    .exchange('GET', '/ads/slot?q=writing', { response: { ad: 'writing course', id: 'ad_1' } })
    .exchange('GET', '/locales/en/common.json', {
      response: {
        'nav.home': 'Home',
        'nav.about': 'About',
        'search.placeholder': 'Search',
        'search.submit': 'Search',
        'footer.copy': '(c)',
      },
    })
    .exchange('GET', '/api/feature-flags', {
      response: { flags: { newSearch: true, darkMode: false, checkoutV2: false } },
    })
}

/** Appends an action (navigate or click) at a given time to a built trace. */
export function act(
  trace: Trace,
  kind: Action['kind'],
  at: number,
  extra: Partial<Action> = {},
): Trace {
  trace.actions.push({
    seq: trace.actions.length + 1,
    kind,
    at,
    pageUrl: trace.startUrl,
    selector: null,
    role: kind === 'click' ? 'link' : null,
    name: null,
    value: null,
    ...extra,
  })
  trace.actions.sort((a, b) => a.at - b.at)
  return trace
}

/** Compile options that never depend on the clock. */
export const options = {
  toolId: '00000000-0000-4000-8000-0000000000aa',
  now: Date.UTC(2026, 10, 22),
}
