import { describe, expect, it } from 'vitest'
import { judgeResponse } from '../../../src/main/engine/outcome'
import { pageView, readPage } from '../../../src/main/engine/pageView'
import type { ResultShape, VerifyRule } from '../../../src/shared/toolSpec'

const html = `<!doctype html><html><head><title> Quill – AI Tools </title>
<style>.x{color:red}</style><script>window.track = 1</script></head>
<body><nav><a href="/">Home</a> <a href="/about">About</a></nav>
<main><h1>Quill</h1><p>Writes   drafts
for you.</p><ul><li><a href="../tool/ink?ref=q">Ink</a></li><li><a href="https://quill.example/">Website</a></li>
<li><a href="javascript:void 0">Share</a></li><li><a href="#top">Top</a></li><li><a href="mailto:a@b.c">Mail</a></li></ul>
<div hidden>secret layout text</div><noscript>Enable JS</noscript></main>
<footer>© 2026</footer></body></html>`

describe('pageView', () => {
  it('gives the title, readable text without script, style or nav, and absolute links', () => {
    const view = pageView(html, 'https://tools.example.com/tool/quill')
    expect(view.title).toBe('Quill – AI Tools')
    expect(view.text).toBe('Quill\nWrites drafts for you.\nInk\nWebsite\nShare\nTop\nMail\n© 2026')
    expect(view.text).not.toMatch(/color:red|window\.track|Home|secret layout|Enable JS/)
    expect(view.links).toEqual([
      { text: 'Home', href: 'https://tools.example.com/' },
      { text: 'About', href: 'https://tools.example.com/about' },
      { text: 'Ink', href: 'https://tools.example.com/tool/ink?ref=q' },
      { text: 'Website', href: 'https://quill.example/' },
    ])
  })

  it('resolves links against <base href> and falls back to the first h1 for a title', () => {
    const view = pageView(
      '<html><head><base href="https://cdn.example.org/docs/"></head><body><h1>Guide</h1><a href="intro"><img alt="Intro"></a></body></html>',
      'https://site.example/x',
    )
    expect(view.title).toBe('Guide')
    expect(view.links).toEqual([{ text: 'Intro', href: 'https://cdn.example.org/docs/intro' }])
  })

  it('tells a sign-in form, a second factor and a bot check from a page that only mentions them', () => {
    const url = 'https://site.example/'
    expect(
      readPage('<title>Sign in</title><form action="/session"><input type="password"></form>', url)
        .barrier,
    ).toBe('sign_in')
    expect(
      readPage('<h1>Account</h1><form action="/auth/login"><input type="password"></form>', url)
        .barrier,
    ).toBe('sign_in')
    // A form that manages accounts (Icecast's `manageauth`) has a password field and is no sign-in.
    expect(
      readPage(
        '<h1>Listener accounts</h1><form action="manageauth.xsl"><input name="username"><input type="password" name="password"></form>',
        url,
      ).barrier,
    ).toBeNull()
    expect(readPage('<title>Verify</title><input autocomplete="one-time-code">', url).barrier).toBe(
      'mfa_required',
    )
    expect(
      readPage('<title>Just a moment...</title><div id="challenge-form"></div>', url).barrier,
    ).toBe('challenge')
    expect(
      readPage(
        '<title>2FA apps compared</title><p>Two-factor authentication and captcha, explained.</p><input name="q">',
        url,
      ).barrier,
    ).toBeNull()
  })
})

describe('judgeResponse for document tools', () => {
  const shape: ResultShape = { kind: 'document', page: true }
  const verify: VerifyRule = {
    status: [200, 299],
    mimeType: 'text/html',
    required: [
      { path: 'title', type: 'string' },
      { path: 'text', type: 'string' },
      { path: 'links', type: 'array' },
    ],
  }
  const answer = (body: string, status = 200) => ({
    status,
    headers: { 'content-type': 'text/html; charset=utf-8' },
    body,
  })
  const codeOf = (o: ReturnType<typeof judgeResponse>) => (o.ok ? 'ok' : o.code)

  it('turns the page into {title, text, links} and verifies it', () => {
    const outcome = judgeResponse(
      answer(html),
      verify,
      shape,
      'https://tools.example.com/tool/quill',
    )
    expect(outcome.ok).toBe(true)
    if (outcome.ok)
      expect(outcome.result).toMatchObject({ title: 'Quill – AI Tools', links: expect.any(Array) })
  })

  it('still maps sign-in pages, bot checks, second factors and status codes to their failures', () => {
    const url = 'https://tools.example.com/tool/quill'
    expect(
      codeOf(
        judgeResponse(answer('<title>Log in</title><input type="password">'), verify, shape, url),
      ),
    ).toBe('session_or_permission')
    expect(
      codeOf(judgeResponse(answer('<title>Attention Required!</title>'), verify, shape, url)),
    ).toBe('challenge')
    expect(codeOf(judgeResponse(answer('<input name="otp">'), verify, shape, url))).toBe(
      'mfa_required',
    )
    expect(codeOf(judgeResponse(answer('gone', 404), verify, shape, url))).toBe('not_found')
    expect(
      codeOf(
        judgeResponse(
          { status: 200, headers: { 'content-type': 'application/json' }, body: '{}' },
          verify,
          shape,
          url,
        ),
      ),
    ).toBe('schema_or_auth_drift')
  })

  it('fails verification when the embedded data the tool promises is gone', () => {
    const withData: ResultShape = {
      kind: 'document',
      page: true,
      data: { source: 'next_data', selector: 'script#__NEXT_DATA__', path: 'props.pageProps.data' },
    }
    const rule: VerifyRule = {
      ...verify,
      required: [{ path: 'data', type: 'array' }, ...verify.required],
    }
    const data =
      '<script id="__NEXT_DATA__" type="application/json">{"props":{"pageProps":{"data":[{"id":1}]}}}</script>'
    expect(
      codeOf(
        judgeResponse(answer(`<title>S</title>${data}`), rule, withData, 'https://x.example/'),
      ),
    ).toBe('ok')
    expect(
      codeOf(
        judgeResponse(
          answer('<title>S</title><p>no data</p>'),
          rule,
          withData,
          'https://x.example/',
        ),
      ),
    ).toBe('outcome_not_verified')
  })
})
