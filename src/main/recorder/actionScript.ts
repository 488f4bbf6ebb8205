import type { ActionKind } from '../../shared/trace'

/** Name of the binding (`context.exposeBinding`) the page script reports actions to. */
export const ACTION_BINDING = '__sitecallAction'

/**
 * Name of the binding the page script hands a secret field's value to: the recorder holds it in
 * memory only, to blank it wherever a request carried it (`redactTypedSecrets`), and never puts
 * it in an action or anywhere else.
 */
export const SECRET_BINDING = '__sitecallSecretValue'

/**
 * Name of the page function that reports fills still waiting on their debounce; it returns a
 * promise that settles when every report made so far has reached the recorder.
 */
export const ACTION_FLUSH = '__sitecallFlush'

/** Milliseconds of typing silence after which a field's value is reported without a blur. */
const FILL_DEBOUNCE_MS = 1000

/** Field `name`/`id` values that mark a password or one-time-code field (docs/architecture.md "Rules that cut across"). */
export const SECRET_FIELD_NAME = /pass(word)?|passwd|otp|one.?time|totp|2fa|twofa|mfa/i

/** `autocomplete` tokens that mark a password or one-time-code field. */
export const SECRET_AUTOCOMPLETE = /(^|\s)(current-password|new-password|one-time-code)(\s|$)/i

/**
 * What the page script sends to {@link ACTION_BINDING}: one action the person did, before the
 * recorder stamps it with `seq` and `at`. `value` is `null` whenever `secret` is true.
 */
export interface ActionPayload {
  kind: Exclude<ActionKind, 'navigate'>
  pageUrl: string
  selector: string | null
  role: string | null
  name: string | null
  value: string | null
  fieldName: string | null
  inputType: string | null
  options?: string[]
  secret?: boolean
}

/*
 * The script is a plain string, not a serialised function: tsx and esbuild (keepNames) rewrite
 * function bodies with helper calls such as `__name(...)` that do not exist in the page.
 */
const SOURCE = `(() => {
  const BINDING = ${JSON.stringify(ACTION_BINDING)}
  const SECRET_BINDING = ${JSON.stringify(SECRET_BINDING)}
  const FLUSH = ${JSON.stringify(ACTION_FLUSH)}
  if (window[FLUSH]) return
  const DEBOUNCE_MS = ${FILL_DEBOUNCE_MS}
  const SECRET_NAME = new RegExp(${JSON.stringify(SECRET_FIELD_NAME.source)}, 'i')
  const SECRET_AUTOCOMPLETE = new RegExp(${JSON.stringify(SECRET_AUTOCOMPLETE.source)}, 'i')
  const NOT_FILLABLE = ['checkbox', 'radio', 'button', 'submit', 'reset', 'image', 'file', 'hidden']
  const CLICKABLE = [
    'button', 'a[href]', 'area[href]', 'summary',
    'input[type=button]', 'input[type=submit]', 'input[type=reset]', 'input[type=image]',
    'input[type=checkbox]', 'input[type=radio]',
    '[role=button]', '[role=link]', '[role=checkbox]', '[role=radio]', '[role=switch]',
    '[role=menuitem]', '[role=menuitemcheckbox]', '[role=menuitemradio]', '[role=tab]',
    '[role=option]', '[role=treeitem]',
  ].join(',')
  const PRESSED_KEYS = ['Enter', 'Escape', 'Tab']
  // Once a field looked secret it stays secret: "show password" toggles flip type to text.
  const everSecret = new WeakSet()
  const sawInput = new WeakSet()
  const lastReported = new WeakMap()
  const pending = new Map()
  const inflight = new Set()

  function send(payload) {
    const binding = window[BINDING]
    if (typeof binding !== 'function') return
    payload.pageUrl = String(location.href)
    try {
      const call = Promise.resolve(binding(payload)).catch(() => {})
      inflight.add(call)
      call.then(() => inflight.delete(call))
    } catch (e) {}
  }

  // The value itself goes apart from the action, only so the recorder can blank it in requests.
  function sendSecretValue(el, value) {
    const binding = window[SECRET_BINDING]
    if (typeof binding !== 'function' || !value) return
    const field = String(location.origin) + ' ' + (selectorOf(el) || el.getAttribute('name') || '')
    try {
      const call = Promise.resolve(binding({ field: field, value: String(value) })).catch(() => {})
      inflight.add(call)
      call.then(() => inflight.delete(call))
    } catch (e) {}
  }

  function targetOf(event) {
    const path = typeof event.composedPath === 'function' ? event.composedPath() : []
    const target = path.length ? path[0] : event.target
    return target && target.nodeType === 1 ? target : null
  }

  function tagOf(el) { return el.tagName.toLowerCase() }
  function typeOf(el) {
    return tagOf(el) === 'input' ? String(el.getAttribute('type') || 'text').toLowerCase() : null
  }

  function isFillable(el) {
    const tag = tagOf(el)
    if (tag === 'textarea') return true
    if (tag === 'input') return NOT_FILLABLE.indexOf(typeOf(el)) < 0
    return !!el.isContentEditable
  }

  function isSecret(el) {
    if (everSecret.has(el)) return true
    const secret =
      typeOf(el) === 'password' ||
      SECRET_AUTOCOMPLETE.test(el.getAttribute('autocomplete') || '') ||
      SECRET_NAME.test(el.getAttribute('name') || '') ||
      SECRET_NAME.test(el.id || '')
    if (secret) everSecret.add(el)
    return secret
  }

  function clean(text) {
    const s = String(text || '').replace(/\\s+/g, ' ').trim()
    return s.length > 80 ? s.slice(0, 80) : s
  }

  function cssEscape(s) {
    if (window.CSS && typeof CSS.escape === 'function') return CSS.escape(s)
    return String(s).replace(/[^a-zA-Z0-9_-]/g, (c) => '\\\\' + c)
  }
  function attrValue(s) { return '"' + String(s).replace(/["\\\\]/g, (c) => '\\\\' + c) + '"' }

  function isUnique(selector, el) {
    try {
      const root = el.getRootNode && el.getRootNode().querySelectorAll ? el.getRootNode() : document
      const all = root.querySelectorAll(selector)
      return all.length === 1 && all[0] === el
    } catch (e) {
      return false
    }
  }

  function selectorOf(el) {
    if (el.id) {
      const s = '#' + cssEscape(el.id)
      if (isUnique(s, el)) return s
    }
    const testId = el.getAttribute('data-testid')
    if (testId) {
      const s = '[data-testid=' + attrValue(testId) + ']'
      if (isUnique(s, el)) return s
    }
    const name = el.getAttribute('name')
    if (name) {
      const s = '[name=' + attrValue(name) + ']'
      if (isUnique(s, el)) return s
      if (isUnique(tagOf(el) + s, el)) return tagOf(el) + s
    }
    const parts = []
    let node = el
    while (node && node.nodeType === 1 && parts.length < 6) {
      if (node !== el && node.id && isUnique('#' + cssEscape(node.id), node)) {
        parts.unshift('#' + cssEscape(node.id))
        break
      }
      let part = tagOf(node)
      const parent = node.parentElement
      if (parent) {
        const same = Array.prototype.filter.call(parent.children, (c) => c.tagName === node.tagName)
        if (same.length > 1) part += ':nth-of-type(' + (same.indexOf(node) + 1) + ')'
      }
      parts.unshift(part)
      if (isUnique(parts.join(' > '), el)) break
      node = parent
    }
    return parts.join(' > ')
  }

  function roleOf(el) {
    const explicit = (el.getAttribute('role') || '').trim().split(/\\s+/)[0]
    if (explicit) return explicit
    const tag = tagOf(el)
    if (tag === 'button' || tag === 'summary') return 'button'
    if (tag === 'a' || tag === 'area') return el.hasAttribute('href') ? 'link' : null
    if (tag === 'textarea') return 'textbox'
    if (tag === 'select') return el.multiple || el.size > 1 ? 'listbox' : 'combobox'
    if (tag === 'form') return 'form'
    if (tag === 'option') return 'option'
    if (tag === 'img') return 'img'
    if (tag === 'input') {
      const type = typeOf(el)
      if (['button', 'submit', 'reset', 'image'].indexOf(type) >= 0) return 'button'
      if (type === 'checkbox' || type === 'radio') return type
      if (type === 'range') return 'slider'
      if (type === 'number') return 'spinbutton'
      if (type === 'search') return el.hasAttribute('list') ? 'combobox' : 'searchbox'
      if (['text', 'email', 'tel', 'url', 'password'].indexOf(type) >= 0) {
        return el.hasAttribute('list') ? 'combobox' : 'textbox'
      }
      return null
    }
    if (el.isContentEditable) return 'textbox'
    return null
  }

  function textWithoutFields(node) {
    const copy = node.cloneNode(true)
    const nested = copy.querySelectorAll('input, select, textarea, script, style')
    for (let i = 0; i < nested.length; i++) nested[i].remove()
    return copy.textContent
  }

  function nameOf(el) {
    const labelledBy = el.getAttribute('aria-labelledby')
    if (labelledBy) {
      const text = labelledBy.split(/\\s+/).map((id) => {
        const ref = document.getElementById(id)
        return ref ? ref.textContent : ''
      }).join(' ')
      if (clean(text)) return clean(text)
    }
    if (clean(el.getAttribute('aria-label'))) return clean(el.getAttribute('aria-label'))
    const labels = []
    if (el.labels && el.labels.length) {
      for (let i = 0; i < el.labels.length; i++) labels.push(el.labels[i])
    } else {
      if (el.id) {
        try {
          const byFor = document.querySelector('label[for=' + attrValue(el.id) + ']')
          if (byFor) labels.push(byFor)
        } catch (e) {}
      }
      const wrapping = el.closest && el.closest('label')
      if (wrapping && labels.indexOf(wrapping) < 0) labels.push(wrapping)
    }
    const labelText = clean(labels.map(textWithoutFields).join(' '))
    if (labelText) return labelText
    const type = typeOf(el)
    if (type === 'submit' || type === 'button' || type === 'reset') {
      if (clean(el.value)) return clean(el.value)
      if (type === 'submit') return 'Submit'
      if (type === 'reset') return 'Reset'
    }
    if (type === 'image' && clean(el.getAttribute('alt'))) return clean(el.getAttribute('alt'))
    if (clean(el.getAttribute('placeholder'))) return clean(el.getAttribute('placeholder'))
    if (clean(el.getAttribute('title'))) return clean(el.getAttribute('title'))
    const tag = tagOf(el)
    if (tag === 'input' || tag === 'select' || tag === 'textarea') return null
    if (tag === 'img' && clean(el.getAttribute('alt'))) return clean(el.getAttribute('alt'))
    if (tag === 'form') return clean(el.getAttribute('name')) || clean(el.id) || null
    const text = clean(el.innerText !== undefined ? el.innerText : el.textContent)
    if (text) return text
    const img = el.querySelector && el.querySelector('img[alt]')
    return img && clean(img.getAttribute('alt')) ? clean(img.getAttribute('alt')) : null
  }

  function describe(kind, el, value, secret) {
    return {
      kind: kind,
      pageUrl: '',
      selector: selectorOf(el),
      role: roleOf(el),
      name: nameOf(el),
      value: secret ? null : value,
      fieldName: el.getAttribute('name'),
      inputType: typeOf(el),
      secret: !!secret,
    }
  }

  function currentValue(el) {
    return el.isContentEditable && tagOf(el) !== 'input' && tagOf(el) !== 'textarea'
      ? String(el.innerText || '')
      : String(el.value)
  }

  function flush(el) {
    if (!pending.has(el)) return
    clearTimeout(pending.get(el))
    pending.delete(el)
    const secret = isSecret(el)
    if (secret) {
      sendSecretValue(el, currentValue(el))
      send(describe('fill', el, null, true))
      return
    }
    const value = currentValue(el)
    if (lastReported.get(el) === value) return
    lastReported.set(el, value)
    send(describe('fill', el, value, false))
  }

  function flushAll() {
    Array.from(pending.keys()).forEach(flush)
  }

  function markDirty(el) {
    if (pending.has(el)) clearTimeout(pending.get(el))
    pending.set(el, setTimeout(() => flush(el), DEBOUNCE_MS))
  }

  document.addEventListener('input', (event) => {
    const el = targetOf(event)
    if (!el || tagOf(el) === 'select' || !isFillable(el)) return
    sawInput.add(el)
    markDirty(el)
  }, true)

  document.addEventListener('change', (event) => {
    const el = targetOf(event)
    if (!el) return
    if (tagOf(el) === 'select') {
      flushAll()
      const secret = isSecret(el)
      const chosen = Array.prototype.filter.call(el.options, (o) => o.selected).map((o) => o.value)
      const payload = describe('select', el, el.multiple ? chosen.join(',') : String(el.value), secret)
      payload.options = Array.prototype.map.call(el.options, (o) => String(o.value))
      send(payload)
      return
    }
    if (!isFillable(el)) return
    // A change without input events (autofill, scripted value) is an edit the person made too.
    if (!sawInput.has(el) && !pending.has(el)) markDirty(el)
    flush(el)
  }, true)

  document.addEventListener('click', (event) => {
    const target = targetOf(event)
    if (!target) return
    flushAll()
    let el = target.closest ? target.closest(CLICKABLE) : null
    if (!el) {
      // The click reaches the labelled control as a second, synthetic click: report that one.
      const label = target.closest && target.closest('label')
      if (label && label.control) return
      if (isFillable(target) || tagOf(target) === 'select') return
      let cursor = ''
      try { cursor = getComputedStyle(target).cursor } catch (e) {}
      if (cursor !== 'pointer') return
      el = target
    }
    let value = null
    const type = typeOf(el)
    if (type === 'checkbox' || type === 'radio') value = String(!!el.checked)
    else if (el.hasAttribute('aria-checked')) value = el.getAttribute('aria-checked')
    send(describe('click', el, value, false))
  }, true)

  document.addEventListener('keydown', (event) => {
    if (PRESSED_KEYS.indexOf(event.key) < 0) return
    const el = targetOf(event)
    if (!el || !(isFillable(el) || tagOf(el) === 'select')) return
    flushAll()
    send(describe('press', el, event.key, false))
  }, true)

  document.addEventListener('submit', (event) => {
    const form = targetOf(event)
    if (!form) return
    flushAll()
    send(describe('submit', form, null, false))
  }, true)

  window.addEventListener('pagehide', flushAll, true)

  Object.defineProperty(window, FLUSH, {
    value: () => {
      flushAll()
      return Promise.all(Array.from(inflight)).then(() => undefined)
    },
    enumerable: false,
    configurable: false,
  })
})()`

/**
 * The JavaScript source injected into every document of a recorded context (`addInitScript`,
 * and `frame.evaluate` for pages that were already open). It reports the person's actions as
 * {@link ActionPayload}s to `window[ACTION_BINDING]`:
 * - `fill`: text fields, once per edit — on `change`, after {@link FILL_DEBOUNCE_MS} of typing
 *   silence, or before any other action (so Enter without a blur still reports the final value);
 * - `select`: a `<select>` changed, with all option values;
 * - `click`: buttons, links, checkboxes, radios, ARIA widgets and `cursor: pointer` elements;
 * - `press`: Enter, Escape or Tab in a field; `submit`: a form submitted.
 * A field is secret when its type is `password`, its `autocomplete` is a password or
 * one-time-code token, or its name/id matches {@link SECRET_FIELD_NAME}: its action carries no
 * value (`value: null, secret: true`); the value goes to {@link SECRET_BINDING} alone, for the
 * recorder to blank it in the requests. Idempotent per document.
 */
export function actionScript(): string {
  return SOURCE
}
