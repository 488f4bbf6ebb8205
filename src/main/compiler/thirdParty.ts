import { getDomain } from 'tldts'

/** What kind of third party a host is (docs/architecture.md "Third party means trackers"). */
export type ThirdPartyKind = 'ads' | 'analytics' | 'cdn' | 'social' | 'consent' | 'monitoring'

/**
 * Registrable domains of services that a page embeds but that never answer a person's intent:
 * ad networks, analytics and tag managers, asset CDNs, social widgets, consent banners and error
 * monitors. Kept here rather than taken from a tracker database because the maintained ones on
 * the registry (Ghostery's trackerdb) are licensed for non-commercial use only; the list holds
 * the services seen on most sites (HTTP Archive's third-party census names them) and grows when
 * a recording shows another.
 */
const KNOWN: Record<ThirdPartyKind, string[]> = {
  ads: [
    'doubleclick.net',
    'googlesyndication.com',
    'googleadservices.com',
    'adnxs.com',
    'criteo.com',
    'criteo.net',
    'taboola.com',
    'outbrain.com',
    'rubiconproject.com',
    'pubmatic.com',
    'openx.net',
    'amazon-adsystem.com',
    'adsrvr.org',
    'casalemedia.com',
    'moatads.com',
    'doubleverify.com',
    'adform.net',
    'smartadserver.com',
    'yieldmo.com',
    'sharethrough.com',
    '33across.com',
    'media.net',
    'bidswitch.net',
    'quantserve.com',
    'scorecardresearch.com',
  ],
  analytics: [
    'google-analytics.com',
    'googletagmanager.com',
    'analytics.google.com',
    'hotjar.com',
    'hotjar.io',
    'segment.io',
    'segment.com',
    'mixpanel.com',
    'amplitude.com',
    'heapanalytics.com',
    'fullstory.com',
    'clarity.ms',
    'mouseflow.com',
    'crazyegg.com',
    'chartbeat.com',
    'chartbeat.net',
    'plausible.io',
    'matomo.cloud',
    'yandex.ru',
    'mc.yandex.ru',
    'bat.bing.com',
    'cloudflareinsights.com',
    'optimizely.com',
    'kissmetrics.com',
    'pendo.io',
    'posthog.com',
    'statsig.com',
    'launchdarkly.com',
    'split.io',
    'hubspot.com',
    'hs-analytics.net',
    'hs-scripts.com',
    'hsforms.com',
    'intercom.io',
    'intercomcdn.com',
    'clicky.com',
    'newrelic.com',
    'nr-data.net',
    'branch.io',
    'appsflyer.com',
    'adjust.com',
    'snowplow.io',
  ],
  monitoring: [
    'sentry.io',
    'sentry-cdn.com',
    'bugsnag.com',
    'datadoghq.com',
    'datadoghq.eu',
    'browser-intake-datadoghq.com',
    'logrocket.com',
    'logrocket.io',
    'rollbar.com',
    'raygun.io',
    'trackjs.com',
    'speedcurve.com',
  ],
  cdn: [
    'gstatic.com',
    'fonts.googleapis.com',
    'ajax.googleapis.com',
    'jsdelivr.net',
    'unpkg.com',
    'cdnjs.com',
    'bootstrapcdn.com',
    'jquery.com',
    'typekit.net',
    'fontawesome.com',
    'gravatar.com',
    'wp.com',
    'polyfill.io',
    'cdnjs.cloudflare.com',
    'akamaihd.net',
    'fastly.net',
    'ytimg.com',
    'twimg.com',
    'fbcdn.net',
  ],
  social: [
    'facebook.net',
    'facebook.com',
    'twitter.com',
    'x.com',
    'linkedin.com',
    'licdn.com',
    'pinterest.com',
    'pinimg.com',
    'tiktok.com',
    'snapchat.com',
    'sc-static.net',
    'reddit.com',
    'redditstatic.com',
    'disqus.com',
    'disquscdn.com',
    'addthis.com',
    'sharethis.com',
    'youtube.com',
    'youtube-nocookie.com',
    'vimeo.com',
    'instagram.com',
  ],
  consent: [
    'cookielaw.org',
    'onetrust.com',
    'cookiebot.com',
    'consensu.org',
    'trustarc.com',
    'usercentrics.eu',
    'didomi.io',
    'quantcast.com',
    'privacy-center.org',
    'recaptcha.net',
  ],
}

const BY_DOMAIN = new Map<string, ThirdPartyKind>()
for (const [kind, domains] of Object.entries(KNOWN) as Array<[ThirdPartyKind, string[]]>)
  for (const d of domains) BY_DOMAIN.set(d, kind)

/** Host labels that name an ad server whatever its domain (`ads.`, `adserver.`, `pagead2.`). */
const AD_LABEL = /^(ads?|adservice|adserver|adsystem|pagead2?|doubleclick|googlesyndication)$/

/**
 * The kind of third party `hostname` belongs to, or null when it is not a known tracker, ad, CDN,
 * social or consent service. Matched on the registrable domain (public-suffix list through
 * `tldts`) and on the full host, so `www.google-analytics.com`, `region1.google-analytics.com` and
 * `stats.g.doubleclick.net` all resolve. Never says "third party" merely because a host differs
 * from the page's: a site's own API often lives on another host or domain (docs/architecture.md "Rules that cut across").
 */
export function thirdPartyKind(hostname: string): ThirdPartyKind | null {
  const host = hostname.toLowerCase().replace(/\.$/, '')
  if (host.split('.').some((label) => AD_LABEL.test(label))) return 'ads'
  const direct = BY_DOMAIN.get(host)
  if (direct) return direct
  const domain = getDomain(host, { allowPrivateDomains: true }) ?? getDomain(host)
  if (domain && BY_DOMAIN.has(domain)) return BY_DOMAIN.get(domain)!
  // A few services are known by a subdomain of a general domain (bat.bing.com, mc.yandex.ru).
  for (const [known, kind] of BY_DOMAIN) if (host.endsWith(`.${known}`)) return kind
  return null
}

/** The registrable domain of a host (`a.b.example.co.uk` → `example.co.uk`), '' for IPs and names without one. */
export function registrableDomain(host: string): string {
  const name = host.replace(/:\d+$/, '').toLowerCase()
  if (/^(localhost|\d+\.\d+\.\d+\.\d+|\[.*\])$/.test(name)) return ''
  return getDomain(name, { allowPrivateDomains: true }) ?? ''
}
