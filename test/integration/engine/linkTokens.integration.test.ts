import { createHmac } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { compileTrace } from '../../../src/main/compiler'
import { executeHttp, sendWithUndici } from '../../../src/main/engine/httpExecutor'
import type { ToolSpec } from '../../../src/shared/toolSpec'
import type { StorageState } from '../../../src/shared/trace'
import { traceBuilder } from '../../unit/compiler/traceBuilder'

/**
 * A blog admin that writes through links, as WordPress does: the post list prints, per row, a
 * trash link whose nonce is made for that post only (and changes with the server's key, so a
 * recorded nonce is useless on another instance); the trash link checks it for the post it names.
 */
let server: Server
let origin = ''
const key = `key-${process.pid}-${Date.now()}`
const trashed: number[] = []
const nonceOf = (post: number, secret = key) =>
  createHmac('sha256', secret).update(`trash-post_${post}`).digest('hex').slice(0, 10)

const listPage = (secret = key) =>
  `<html><body><table>${[17, 18, 19]
    .map(
      (id) =>
        `<tr id="post-${id}"><td><a href="post.php?post=${id}&amp;action=edit">Edit</a> <a href="post.php?post=${id}&amp;action=trash&amp;_wpnonce=${nonceOf(id, secret)}">Trash</a></td></tr>`,
    )
    .join('')}</table></body></html>`

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.headers.cookie !== 'sid=signed-in') {
      res.writeHead(302, { location: '/wp-login.php' }).end()
      return
    }
    const url = new URL(req.url ?? '/', 'http://x')
    if (url.pathname === '/wp-admin/edit.php') {
      res.writeHead(200, { 'content-type': 'text/html' }).end(listPage())
      return
    }
    if (url.pathname === '/wp-admin/post.php' && url.searchParams.get('action') === 'trash') {
      const post = Number(url.searchParams.get('post'))
      if (url.searchParams.get('_wpnonce') !== nonceOf(post)) {
        res
          .writeHead(403, { 'content-type': 'text/html' })
          .end('The link you followed has expired.')
        return
      }
      trashed.push(post)
      res.writeHead(302, { location: `/wp-admin/edit.php?trashed=1&ids=${post}` }).end()
      return
    }
    res.writeHead(404).end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

/** The person's recording, made on another instance (another key): its nonces are stale here. */
function recordedTool(): ToolSpec {
  const recordedKey = 'the-recording-instance'
  const trace = traceBuilder(origin)
    .exchange('GET', '/wp-admin/edit.php', {
      mime: 'text/html',
      type: 'document',
      responseText: listPage(recordedKey),
    })
    .click('Move “Old Announcement” to the Trash')
    .exchange(
      'GET',
      `/wp-admin/post.php?post=18&action=trash&_wpnonce=${nonceOf(18, recordedKey)}`,
      { status: 302, type: 'document', mime: 'text/html' },
    )
    .build('move the post Old Announcement to the trash')
  trace.exchanges[1]!.responseHeaders.location = `${origin}/wp-admin/edit.php?trashed=1&ids=18`
  const result = compileTrace(trace, {
    toolId: '00000000-0000-4000-8000-0000000000ab',
    now: Date.UTC(2026, 10, 25),
  })
  if (!result.ok) throw new Error(result.explanation.reason)
  return result.candidate
}

const login = (): StorageState => ({
  cookies: [
    {
      name: 'sid',
      value: 'signed-in',
      domain: '127.0.0.1',
      path: '/',
      expires: -1,
      httpOnly: true,
      secure: false,
      sameSite: 'Lax',
    },
  ],
  origins: [],
})

describe('a per-record token read from the link of the record the run names', () => {
  it('trashes another post with that post’s own nonce from the live list page', async () => {
    const tool = recordedTool()
    const slot = tool.inputs.properties.post!['x-slot']
    const signal = new AbortController().signal
    const outcome = await executeHttp(tool, { [`input.${slot}`]: 19 }, sendWithUndici, signal, {
      login: login(),
    })
    expect(outcome).toMatchObject({ ok: true })
    expect(trashed).toEqual([19])
  })

  it('fails before the write when the list holds no link for the post named', async () => {
    const tool = recordedTool()
    const slot = tool.inputs.properties.post!['x-slot']
    const outcome = await executeHttp(
      tool,
      { [`input.${slot}`]: 99 },
      sendWithUndici,
      new AbortController().signal,
      { login: login() },
    )
    expect(outcome.ok).toBe(false)
    expect(trashed).toEqual([19])
  })
})
