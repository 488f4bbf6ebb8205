import type { FastifyRequest } from 'fastify'
import { ServiceError } from '../../shared/errors'
import type { KeyRepository } from '../store/keyRepository'

export interface Caller {
  tenant: string
  /** The API key's id, or null for the owner (the app's own UI session). */
  keyId: string | null
  owner: boolean
  /** `X-Service-End-User` of an org key: the run's workspace is that end user's. */
  endUser: string | null
}

/** Spec "Limits": end-user header max 200 characters. */
const MAX_END_USER = 200

export interface Authenticator {
  /**
   * Who is calling (spec "Authentication" 1): `Authorization: Bearer <svc_live_… key | owner
   * token>`. Errors: 401 `unauthorized` for no or an unknown key, 403 `revoked` for a revoked one.
   */
  authenticate(request: FastifyRequest): Caller
  /** Like authenticate, but only the owner token (the UI's own routes). */
  requireOwner(request: FastifyRequest): Caller
}

/** Creates the authenticator over the key store and this process's owner token. */
export function createAuthenticator(
  keys: KeyRepository,
  ownerToken: string,
  tenant: string,
  clock: () => number,
): Authenticator {
  const bearer = (request: FastifyRequest, allowQuery: boolean): string | null => {
    const header = request.headers.authorization
    const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null
    if (match) return match[1]!
    // EventSource cannot send headers: the UI's event stream carries the owner token in the query.
    const query = request.query as Record<string, unknown> | undefined
    return allowQuery && typeof query?.token === 'string' ? query.token : null
  }
  const authenticate = (request: FastifyRequest, allowQuery = false): Caller => {
    const token = bearer(request, allowQuery)
    if (!token) throw new ServiceError('unauthorized', 401, 'Send Authorization: Bearer <API key>.')
    const endUser = endUserOf(request)
    if (token === ownerToken) {
      if (endUser !== null) throw endUserRefused()
      return { tenant, keyId: null, owner: true, endUser: null }
    }
    const record = keys.findByKey(token)
    if (!record) throw new ServiceError('unauthorized', 401, 'Unknown API key.')
    if (record.revokedAt !== null)
      throw new ServiceError('revoked', 403, 'This API key was revoked: create a new one.')
    if (endUser !== null && record.kind !== 'org') throw endUserRefused()
    keys.touch(record.id, clock())
    // Each end user of an org key has a workspace of its own (spec "Authentication" 2).
    const workspace = endUser === null ? record.tenant : `${record.tenant}::${endUser}`
    return { tenant: workspace, keyId: record.id, owner: false, endUser }
  }
  return {
    authenticate: (request) => authenticate(request),
    requireOwner(request) {
      const caller = authenticate(request, true)
      if (!caller.owner)
        throw new ServiceError('forbidden', 403, 'Only the app itself may use this route.')
      return caller
    },
  }
}

/** The `X-Service-End-User` header, or null; 400 `invalid_input` when blank or over 200. */
function endUserOf(request: FastifyRequest): string | null {
  const value = request.headers['x-service-end-user']
  if (value === undefined) return null
  if (typeof value !== 'string' || !value.trim() || value.length > MAX_END_USER)
    throw new ServiceError(
      'invalid_input',
      400,
      `X-Service-End-User takes 1 to ${MAX_END_USER} characters.`,
    )
  return value
}

function endUserRefused(): ServiceError {
  return new ServiceError(
    'forbidden',
    403,
    'X-Service-End-User needs an org key: this key acts only as its owner.',
  )
}
