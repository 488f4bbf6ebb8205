import { describe, expect, it } from 'vitest'
import { describeLoadFailure } from '../../../src/main/recorder/loadFailure'

// Issue 26 item 2.5: a page that does not open is said in plain words, never Playwright's call
// log, Chromium's error name or the guard proxy's status code.

/** Playwright's error for a refused connection, call log and terminal colours included. */
const PLAYWRIGHT_REFUSED = [
  'page.goto: net::ERR_CONNECTION_REFUSED at http://127.0.0.1:9/login',
  'Call log:',
  '  \u001b[2m- navigating to "http://127.0.0.1:9/login", waiting until "load"\u001b[22m',
].join('\n')

describe('describeLoadFailure', () => {
  it('says a refused connection in a sentence, with the origin and no call log', () => {
    const said = describeLoadFailure('http://127.0.0.1:9/login', new Error(PLAYWRIGHT_REFUSED))
    expect(said).toEqual({
      unreachable: true,
      message:
        'http://127.0.0.1:9 cannot be reached: nothing answers there. Check the address and port, or that the site is running.',
    })
  })

  it('reads the guard proxy’s own statuses as the causes they stand for', () => {
    expect(describeLoadFailure('http://nowhere.invalid/', 593).message).toBe(
      'nowhere.invalid cannot be reached: no site of that name was found. Check the address.',
    )
    expect(describeLoadFailure('http://127.0.0.1:9/', 594).unreachable).toBe(true)
    // A site's own error status is an answer: the page opened.
    expect(describeLoadFailure('http://127.0.0.1:9/', 500)).toEqual({
      unreachable: false,
      message: 'http://127.0.0.1:9 did not open.',
    })
  })

  it('reads CDP’s errorText, timeouts and certificate errors', () => {
    expect(describeLoadFailure('https://a.test/x', 'net::ERR_NAME_NOT_RESOLVED').unreachable).toBe(
      true,
    )
    expect(
      describeLoadFailure('https://a.test/x', new Error('page.goto: Timeout 30000ms exceeded.'))
        .message,
    ).toBe('https://a.test cannot be reached: it did not answer in time.')
    expect(describeLoadFailure('https://a.test/', 'net::ERR_CERT_AUTHORITY_INVALID').message).toBe(
      'https://a.test cannot be opened safely: its security certificate is not valid for this address.',
    )
    expect(describeLoadFailure('https://a.test/', 'net::ERR_ABORTED').unreachable).toBe(false)
  })

  it('says a port browsers refuse', () => {
    expect(describeLoadFailure('http://127.0.0.1:1/', new Error('net::ERR_UNSAFE_PORT'))).toEqual({
      unreachable: true,
      message:
        'http://127.0.0.1:1 cannot be opened: browsers refuse port 1, which belongs to another kind of service. Check the address and port.',
    })
  })

  it('never shows an error name it does not know', () => {
    const said = describeLoadFailure('http://a.test/', new Error('net::ERR_SOMETHING_NEW at x'))
    expect(said).toEqual({ unreachable: false, message: 'http://a.test did not open.' })
    expect(said.message).not.toMatch(/ERR_/)
  })
})
