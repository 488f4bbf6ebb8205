/** The page global (a `Map<ref, Element>`) that holds the elements of the latest snapshot. */
const SNAPSHOT_REFS = '__sitecallBrowseRefs'

/** At most this many lines per snapshot; refs are given only to elements that are shown. */
const SNAPSHOT_MAX_LINES = 800

/** Text runs and names longer than this many characters are cut with an ellipsis. */
const SNAPSHOT_MAX_TEXT = 200

/** What {@link snapshotScript} evaluates to in the page. */
export interface PageSnapshot {
  url: string
  title: string
  text: string
  refs: string[]
}

/*
 * A plain string, not a serialised function: tsx and esbuild (keepNames) insert helper calls such
 * as `__name(...)` into function bodies, and those do not exist in the page (see actionScript.ts).
 *
 * The walk follows the ARIA roles the agent needs to act (links, buttons, fields) and the ones
 * that tell it where it is (landmarks, headings, lists, tables); generic containers (div, span)
 * add no line, their content joins the parent's. This mirrors the shape of Playwright's aria
 * snapshot (`- role "name" [attrs]: text`) so agents that know Playwright MCP read it as is.
 */
const SOURCE = `(() => {
  const REFS = ${JSON.stringify(SNAPSHOT_REFS)}
  const MAX_LINES = ${SNAPSHOT_MAX_LINES}
  const MAX_TEXT = ${SNAPSHOT_MAX_TEXT}
  // caption and legend name their table or group: shown as its name, not again as text.
  const SKIP = ['script', 'style', 'noscript', 'template', 'head', 'meta', 'link', 'title',
    'caption', 'legend']
  const INTERACTIVE = ['link', 'button', 'textbox', 'searchbox', 'combobox', 'listbox', 'checkbox',
    'radio', 'switch', 'slider', 'spinbutton', 'tab', 'menuitem', 'menuitemcheckbox',
    'menuitemradio', 'option', 'treeitem']
  const NAME_FROM_CONTENT = ['link', 'button', 'heading', 'tab', 'menuitem', 'menuitemcheckbox',
    'menuitemradio', 'option', 'treeitem', 'cell', 'columnheader', 'rowheader', 'switch',
    'checkbox', 'radio']
  const LEAF = ['link', 'button', 'heading', 'textbox', 'searchbox', 'checkbox', 'radio', 'switch',
    'slider', 'spinbutton', 'img', 'option', 'tab', 'menuitem', 'menuitemcheckbox',
    'menuitemradio', 'treeitem']
  const NAMED_ONLY = ['form', 'region']
  const SECTIONING = 'article, aside, main, nav, section'

  const norm = (s) => String(s || '').replace(/\\s+/g, ' ').trim()
  const cut = (s) => (s.length > MAX_TEXT ? s.slice(0, MAX_TEXT - 1) + '…' : s)
  const tag = (el) => el.tagName.toLowerCase()
  const inputType = (el) => String(el.getAttribute('type') || 'text').toLowerCase()

  function implicitRole(el) {
    const t = tag(el)
    switch (t) {
      case 'a': case 'area': return el.hasAttribute('href') ? 'link' : null
      case 'button': case 'summary': return 'button'
      case 'textarea': return 'textbox'
      case 'select': return el.multiple || el.size > 1 ? 'listbox' : 'combobox'
      case 'option': return 'option'
      case 'h1': case 'h2': case 'h3': case 'h4': case 'h5': case 'h6': return 'heading'
      case 'nav': return 'navigation'
      case 'main': return 'main'
      case 'aside': return 'complementary'
      case 'header': return el.closest(SECTIONING) ? null : 'banner'
      case 'footer': return el.closest(SECTIONING) ? null : 'contentinfo'
      case 'form': return 'form'
      case 'section': return 'region'
      case 'article': return 'article'
      case 'dialog': return 'dialog'
      case 'ul': case 'ol': case 'menu': return 'list'
      case 'li': return 'listitem'
      case 'table': return 'table'
      case 'tr': return 'row'
      case 'td': return 'cell'
      case 'th': return el.closest('thead') ? 'columnheader' : 'rowheader'
      case 'fieldset': return 'group'
      case 'p': return 'paragraph'
      case 'img': return el.getAttribute('alt') ? 'img' : null
      case 'iframe': return 'iframe'
      case 'hr': return 'separator'
      case 'input': {
        const type = inputType(el)
        if (type === 'hidden') return null
        if (['button', 'submit', 'reset', 'image'].indexOf(type) >= 0) return 'button'
        if (type === 'checkbox' || type === 'radio') return type
        if (type === 'range') return 'slider'
        if (type === 'number') return 'spinbutton'
        if (el.hasAttribute('list')) return 'combobox'
        if (type === 'search') return 'searchbox'
        return 'textbox'
      }
    }
    if (el.isContentEditable && !(el.parentElement && el.parentElement.isContentEditable)) {
      return 'textbox'
    }
    return null
  }

  function roleOf(el) {
    const explicit = norm(el.getAttribute('role')).split(' ')[0]
    if (explicit === 'presentation' || explicit === 'none') return null
    return explicit || implicitRole(el)
  }

  function textOf(el) {
    if (typeof el.innerText === 'string') return norm(el.innerText)
    return norm(el.textContent)
  }

  function labelsOf(el) {
    const texts = []
    if (el.labels) {
      for (let i = 0; i < el.labels.length; i++) {
        const copy = el.labels[i].cloneNode(true)
        const nested = copy.querySelectorAll('input, select, textarea')
        for (let j = 0; j < nested.length; j++) nested[j].remove()
        texts.push(copy.textContent)
      }
    }
    return norm(texts.join(' '))
  }

  function nameOf(el, role) {
    const labelledBy = el.getAttribute('aria-labelledby')
    if (labelledBy) {
      const text = norm(labelledBy.split(/\\s+/).map((id) => {
        const ref = document.getElementById(id)
        return ref ? ref.textContent : ''
      }).join(' '))
      if (text) return text
    }
    const label = norm(el.getAttribute('aria-label'))
    if (label) return label
    const t = tag(el)
    if (t === 'input' || t === 'select' || t === 'textarea') {
      const labels = labelsOf(el)
      if (labels) return labels
      const type = inputType(el)
      if (t === 'input' && (type === 'submit' || type === 'button' || type === 'reset')) {
        return norm(el.value) || (type === 'submit' ? 'Submit' : type === 'reset' ? 'Reset' : '')
      }
      if (t === 'input' && type === 'image') return norm(el.getAttribute('alt'))
      return norm(el.getAttribute('title')) || norm(el.getAttribute('placeholder'))
    }
    if (t === 'img' || t === 'area') return norm(el.getAttribute('alt')) || norm(el.getAttribute('title'))
    if (t === 'fieldset') {
      const legend = el.querySelector(':scope > legend')
      if (legend) return norm(legend.textContent)
    }
    if (t === 'table') {
      const caption = el.querySelector(':scope > caption')
      if (caption) return norm(caption.textContent)
    }
    if (t === 'iframe') return norm(el.getAttribute('title'))
    if (NAME_FROM_CONTENT.indexOf(role) >= 0) {
      const text = textOf(el)
      if (text) return text
      const img = el.querySelector('img[alt]')
      if (img) return norm(img.getAttribute('alt'))
    }
    return norm(el.getAttribute('title'))
  }

  function childNodesOf(node) {
    if (node.nodeType === 1) {
      if (node.shadowRoot) return Array.from(node.shadowRoot.childNodes)
      if (tag(node) === 'slot') {
        const assigned = node.assignedNodes({ flatten: true })
        if (assigned.length) return assigned
      }
    }
    return Array.from(node.childNodes)
  }

  function attributesOf(el, role) {
    const attrs = []
    if (role === 'heading') {
      const level = /^h([1-6])$/.exec(tag(el))
      attrs.push('level=' + (el.getAttribute('aria-level') || (level ? level[1] : '2')))
    }
    if (role === 'checkbox' || role === 'radio' || role === 'switch') {
      const checked = typeof el.checked === 'boolean' ? el.checked : el.getAttribute('aria-checked') === 'true'
      if (checked) attrs.push('checked')
    }
    if (role === 'option' && (el.selected === true || el.getAttribute('aria-selected') === 'true')) {
      attrs.push('selected')
    }
    if (el.getAttribute('aria-expanded') === 'true') attrs.push('expanded')
    if (el.disabled === true || el.getAttribute('aria-disabled') === 'true') attrs.push('disabled')
    if (el.required === true) attrs.push('required')
    return attrs
  }

  function valueOf(el, role) {
    const t = tag(el)
    if (t === 'select') {
      const chosen = Array.prototype.filter.call(el.options, (o) => o.selected)
      return norm(chosen.map((o) => o.label || o.text).join(', '))
    }
    if (t === 'input' && inputType(el) === 'password') return el.value ? '••••' : ''
    if (t === 'input' || t === 'textarea') {
      if (role === 'checkbox' || role === 'radio' || role === 'button') return ''
      return norm(el.value)
    }
    if (role === 'textbox' && el.isContentEditable) return norm(el.innerText)
    return ''
  }

  // One item per shown element: { el, role, name, attrs, value, url, children }; text is { text }.
  function walk(node, out) {
    if (node.nodeType === 3) {
      const text = norm(node.data)
      if (text) out.push({ text: text })
      return
    }
    if (node.nodeType !== 1 && node.nodeType !== 11) return
    if (node.nodeType === 1) {
      const el = node
      if (SKIP.indexOf(tag(el)) >= 0) return
      if (el.getAttribute('aria-hidden') === 'true' || el.hasAttribute('inert')) return
      const style = getComputedStyle(el)
      if (style.display === 'none') return
      const shown = style.visibility === 'visible'
      const role = shown ? roleOf(el) : null
      if (role) {
        const name = nameOf(el, role)
        if (NAMED_ONLY.indexOf(role) >= 0 && !name && !norm(el.getAttribute('role'))) {
          // An unnamed form or section is no landmark: its content joins the parent's.
        } else {
          const item = {
            el: el,
            role: role,
            name: name,
            attrs: attributesOf(el, role),
            value: valueOf(el, role),
            url: role === 'link' ? el.getAttribute('href') || '' : '',
            children: [],
          }
          if (tag(el) === 'select') {
            const options = el.querySelectorAll('option')
            for (let i = 0; i < options.length && i < 50; i++) {
              const o = options[i]
              item.children.push({ role: 'option', name: norm(o.label || o.text),
                attrs: o.selected ? ['selected'] : [], value: '', url: '', children: [] })
            }
          } else if (LEAF.indexOf(role) < 0) {
            childNodesOf(el).forEach((child) => walk(child, item.children))
          }
          out.push(item)
          return
        }
      }
      if (!shown) {
        // visibility:hidden hides this element's own text, but a child may set it visible again.
        childNodesOf(el).forEach((child) => { if (child.nodeType === 1) walk(child, out) })
        return
      }
    }
    childNodesOf(node).forEach((child) => walk(child, out))
  }

  // Adjacent text runs become one; an element whose only content is its own name keeps none.
  function tidy(items, ownName) {
    const merged = []
    for (const item of items) {
      const last = merged[merged.length - 1]
      if (item.text !== undefined && last && last.text !== undefined) last.text += ' ' + item.text
      else merged.push(item.text !== undefined ? { text: item.text } : item)
    }
    for (const item of merged) if (item.children) item.children = tidy(item.children, item.name)
    if (merged.length === 1 && merged[0].text !== undefined && merged[0].text === ownName) return []
    return merged.filter((item) => item.text !== undefined ||
      item.name || item.children.length || INTERACTIVE.indexOf(item.role) >= 0 ||
      item.role === 'iframe' || item.role === 'separator')
  }

  const refs = new Map()
  const lines = []
  let hiddenLines = 0
  const quote = (s) => JSON.stringify(cut(s))

  function emit(depth, line) {
    if (lines.length >= MAX_LINES) { hiddenLines++; return false }
    lines.push('  '.repeat(depth) + '- ' + line)
    return true
  }

  function render(items, depth) {
    for (const item of items) {
      if (item.text !== undefined) { emit(depth, 'text: ' + cut(item.text)); continue }
      if (lines.length >= MAX_LINES) { hiddenLines++; continue }
      let line = item.role + (item.name ? ' ' + quote(item.name) : '')
      for (const attr of item.attrs) line += ' [' + attr + ']'
      if (item.el && INTERACTIVE.indexOf(item.role) >= 0) {
        const ref = 'e' + (refs.size + 1)
        refs.set(ref, item.el)
        line += ' [ref=' + ref + ']'
      }
      let children = item.children
      let suffix = ''
      if (children.length === 1 && children[0].text !== undefined && !item.url) {
        suffix = ': ' + cut(children[0].text)
        children = []
      } else if (item.value && !children.length && !item.url) suffix = ': ' + cut(item.value)
      const nested = !!item.url || children.length > 0
      emit(depth, line + (nested ? ':' : suffix))
      if (item.url) emit(depth + 1, '/url: ' + cut(item.url))
      render(children, depth + 1)
    }
  }

  const root = []
  if (document.body) walk(document.body, root)
  render(tidy(root, ''), 0)
  if (hiddenLines) lines.push('- text: … (cut at ' + MAX_LINES + ' lines)')
  Object.defineProperty(window, REFS, { value: refs, configurable: true, enumerable: false })
  return { url: String(location.href), title: String(document.title || ''),
    text: lines.join('\\n'), refs: Array.from(refs.keys()) }
})()`

/**
 * The JavaScript expression that takes a browse session's snapshot in the page: one line per shown
 * element, `- role "name" [attrs] [ref=eN]: value`, indented two spaces per nesting level, in the
 * format of Playwright's aria snapshot. Interactive elements
 * (links, buttons, fields, options, tabs, menu items) get refs `e1, e2…` in document order; the
 * refs name the elements in `window[SNAPSHOT_REFS]` until the next snapshot replaces them, so a
 * ref is stable within one snapshot only. Password values are masked. At most
 * {@link SNAPSHOT_MAX_LINES} lines. Main frame only: iframes appear as one `iframe` line.
 *
 * @returns the source of an expression that evaluates to a {@link PageSnapshot}.
 */
export function snapshotScript(): string {
  return SOURCE
}

/**
 * The expression that evaluates to the element behind `ref` in the latest snapshot of the page,
 * or `null` when the page no longer holds it (navigated, re-rendered, removed).
 */
export function refElementScript(ref: string): string {
  const key = JSON.stringify(SNAPSHOT_REFS)
  return `(() => { const refs = window[${key}]; const el = refs && refs.get(${JSON.stringify(ref)}); return el && el.isConnected ? el : null })()`
}
