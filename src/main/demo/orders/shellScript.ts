// Browser code of every page, kept as text because it is served, not bundled. URLs are relative:
// each page's <base href> points at the site's prefix, so the same code works at / and /demo/orders.

/**
 * `static/site.js`: fills labels from the locale dictionary (`locales/en.json`), reports page views
 * to the analytics beacon (`collect`), and offers `window.site = {ready, track, t, uuid,
 * orderSaved}`.
 */
export const shellScript = `;(() => {
  const track = (payload) => {
    const body = JSON.stringify(payload)
    if (navigator.sendBeacon && navigator.sendBeacon('collect', body)) return
    fetch('collect', { method: 'POST', keepalive: true, body }).catch(() => {})
  }
  const ready = fetch('locales/en.json', { headers: { accept: 'application/json' } })
    .then((res) => (res.ok ? res.json() : {}))
    .catch(() => ({}))
    .then((dict) => {
      for (const el of document.querySelectorAll('[data-i18n]')) {
        const text = dict[el.dataset.i18n]
        if (text) el.textContent = text
      }
      return dict
    })
  const t = (dict, key, fallback, vars = {}) =>
    (dict[key] || fallback).replace(/\\{(\\w+)\\}/g, (_, name) => String(vars[name] ?? ''))
  const uuid = () => {
    if (crypto.randomUUID) return crypto.randomUUID()
    const b = crypto.getRandomValues(new Uint8Array(16))
    b[6] = (b[6] & 15) | 64
    b[8] = (b[8] & 63) | 128
    const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('')
    return h.slice(0, 8) + '-' + h.slice(8, 12) + '-' + h.slice(12, 16) + '-' + h.slice(16, 20) + '-' + h.slice(20)
  }
  // A create form's answer shown: the new order's id (the form cleared), or why it was not saved.
  const orderSaved = async (res, dict, status, form) => {
    if (res.status !== 201) {
      status.textContent = t(dict, 'orders.failed', 'Could not save the order (HTTP {status}).', { status: res.status })
      return false
    }
    const body = await res.json()
    status.textContent = t(dict, 'orders.created', 'Created order {id}', { id: body.order.id })
    form.reset()
    return true
  }
  window.site = { ready, track, t, uuid, orderSaved }
  track({ event: 'pageview', path: location.pathname, at: Date.now() })
})()
`
