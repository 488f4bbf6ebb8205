import type { Action, Exchange, Trace } from '../../../src/shared/trace'

/** Builds small synthetic traces for compiler tests: the shapes the recorder writes. */
export function traceBuilder(origin = 'https://tools.example.com') {
  const exchanges: Exchange[] = []
  const actions: Action[] = []
  let clock = 1_700_000_000_000
  const tick = () => (clock += 100)
  return {
    origin,
    fill(
      value: string | null,
      field: { name?: string; label?: string; secret?: boolean; options?: string[] } = {},
    ) {
      actions.push({
        seq: actions.length + 1,
        kind: field.options ? 'select' : 'fill',
        at: tick(),
        pageUrl: `${origin}/`,
        selector: `[name=${field.name ?? 'q'}]`,
        role: 'textbox',
        name: field.label ?? 'Search',
        value,
        fieldName: field.name ?? 'q',
        inputType: field.secret ? 'password' : 'text',
        ...(field.options ? { options: field.options } : {}),
        ...(field.secret ? { secret: true } : {}),
      })
      return this
    },
    click(name: string) {
      actions.push({
        seq: actions.length + 1,
        kind: 'click',
        at: tick(),
        pageUrl: `${origin}/`,
        selector: 'a',
        role: 'link',
        name,
        value: null,
      })
      return this
    },
    submit() {
      actions.push({
        seq: actions.length + 1,
        kind: 'submit',
        at: tick(),
        pageUrl: `${origin}/`,
        selector: 'form',
        role: 'form',
        name: null,
        value: null,
      })
      return this
    },
    exchange(
      method: string,
      path: string,
      options: {
        body?: unknown
        form?: string
        response?: unknown
        status?: number
        type?: string
        mime?: string
        responseText?: string
        /** Response headers besides the content type (a redirect's `location`). */
        headers?: Record<string, string>
      } = {},
    ) {
      const requestBody =
        options.form !== undefined
          ? { text: options.form, encoding: 'utf8' as const }
          : options.body !== undefined
            ? { text: JSON.stringify(options.body), encoding: 'utf8' as const }
            : null
      const responseText =
        options.responseText ??
        (options.response !== undefined ? JSON.stringify(options.response) : '')
      exchanges.push({
        id: `exc_${exchanges.length + 1}`,
        seq: exchanges.length + 1,
        method,
        url: path.startsWith('http') ? path : `${origin}${path}`,
        requestHeaders: {
          ...(requestBody
            ? {
                'content-type':
                  options.form !== undefined
                    ? 'application/x-www-form-urlencoded'
                    : 'application/json',
              }
            : {}),
          cookie: 'sid=secret-session',
          accept: 'application/json',
        },
        requestBody,
        status: options.status ?? 200,
        responseHeaders: {
          'content-type': options.mime ?? 'application/json',
          ...options.headers,
        },
        responseBody: responseText ? { text: responseText, encoding: 'utf8' } : null,
        resourceType: options.type ?? 'fetch',
        startedAt: tick(),
        durationMs: 12,
        pageUrl: `${origin}/`,
      })
      return this
    },
    build(intent = 'search the AI tools directory by keyword'): Trace {
      return {
        id: 'trc_TEST',
        intent,
        startUrl: `${origin}/`,
        createdAt: 1_700_000_000_000,
        exchanges: [...exchanges],
        actions: [...actions],
        storageState: null,
      }
    },
  }
}

export const records = (word: string) => ({
  data: [
    { id: 'a1', toolName: `${word} pilot`, rating: 4.5, verified: true },
    { id: 'a2', toolName: `Best ${word}`, rating: 4, verified: false },
  ],
  count: 2,
})
