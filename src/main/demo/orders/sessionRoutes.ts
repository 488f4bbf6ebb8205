import { timingSafeEqual } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { readCookie } from './cookies'
import { verify } from 'otplib'
import {
  cookie,
  cookieUser,
  PENDING_COOKIE,
  redirect,
  SESSION_COOKIE,
  sendHtml,
  sendJson,
} from './http'
import { loginPage, otpPage } from './pages'
import type { OrdersState } from './state'
import type { OrdersUser } from './types'

const text = (value: unknown) => (typeof value === 'string' ? value : '')

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}

/** The user whose username and password both match, or undefined. */
function checkPassword(state: OrdersState, username: string, password: string) {
  const user = state.users.find((u) => u.username === username)
  return user && sameText(user.password, password) ? user : undefined
}

/**
 * True when `code` is the user's current TOTP code (RFC 6238: SHA-1, 6 digits, 30 s), one step
 * of clock drift allowed either way, read against the state's clock.
 */
async function checkCode(state: OrdersState, user: OrdersUser, code: string): Promise<boolean> {
  if (!user.totpSecret || !/^\d{6}$/.test(code)) return false
  try {
    const result = await verify({
      secret: user.totpSecret,
      token: code,
      epoch: Math.floor(state.now() / 1000),
      epochTolerance: 30,
    })
    return result.valid
  } catch {
    // A code the TOTP library cannot read is a wrong code, as a person would be told.
    return false
  }
}

/**
 * The sign-in routes: the cookie login (`GET/POST /login`, then `GET/POST /login/otp` for a user
 * with a TOTP secret), `POST /logout`, and the SPA variant's `POST /api/token`.
 */
export function registerSessionRoutes(app: FastifyInstance, state: OrdersState): void {
  const { prefix, sessions } = state

  app.get('/login', async (request, reply) =>
    cookieUser(state, request)
      ? redirect(state, reply, '/orders')
      : sendHtml(reply, 200, loginPage(prefix)),
  )

  app.post('/login', async (request, reply) => {
    const form = (request.body ?? {}) as Record<string, unknown>
    const username = text(form.username)
    const user = checkPassword(state, username, text(form.password))
    if (!user)
      return sendHtml(reply, 401, loginPage(prefix, 'Wrong username or password.', username))
    if (user.totpSecret) {
      reply.header(
        'set-cookie',
        cookie(state, PENDING_COOKIE, sessions.startPending(user.username)),
      )
      return redirect(state, reply, '/login/otp')
    }
    reply.header('set-cookie', cookie(state, SESSION_COOKIE, sessions.start(user.username)))
    return redirect(state, reply, '/orders')
  })

  app.get('/login/otp', async (request, reply) =>
    sessions.pendingUser(readCookie(request, PENDING_COOKIE))
      ? sendHtml(reply, 200, otpPage(prefix))
      : redirect(state, reply, '/login'),
  )

  app.post('/login/otp', async (request, reply) => {
    const pendingId = readCookie(request, PENDING_COOKIE)
    const username = sessions.pendingUser(pendingId)
    const user = state.users.find((u) => u.username === username)
    if (!user) return redirect(state, reply, '/login')
    const form = (request.body ?? {}) as Record<string, unknown>
    if (!(await checkCode(state, user, text(form.code).trim())))
      return sendHtml(reply, 401, otpPage(prefix, 'That code is not valid. Enter the current one.'))
    sessions.endPending(pendingId)
    reply.header('set-cookie', [
      cookie(state, PENDING_COOKIE, null),
      cookie(state, SESSION_COOKIE, sessions.start(user.username)),
    ])
    return redirect(state, reply, '/orders')
  })

  app.post('/logout', async (request, reply) => {
    sessions.end(readCookie(request, SESSION_COOKIE))
    reply.header('set-cookie', cookie(state, SESSION_COOKIE, null))
    return redirect(state, reply, '/login')
  })

  app.post('/api/token', async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>
    const user = checkPassword(state, text(body.username), text(body.password))
    if (!user)
      return sendJson(state, reply, 401, {
        error: 'invalid_credentials',
        message: 'Wrong username or password.',
      })
    if (user.totpSecret) {
      if (typeof body.code !== 'string' || !body.code)
        return sendJson(state, reply, 401, {
          error: 'otp_required',
          message: 'Enter the one-time code from your authenticator app.',
        })
      if (!(await checkCode(state, user, body.code.trim())))
        return sendJson(state, reply, 401, {
          error: 'invalid_code',
          message: 'That code is not valid. Enter the current one.',
        })
    }
    const token = sessions.issueToken(user.username)
    return sendJson(state, reply, 200, { token, tokenType: 'Bearer' })
  })
}
