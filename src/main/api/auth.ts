import type { FastifyRequest } from 'fastify'
import { ServiceError } from '../../shared/errors'
import type { KeyRepository } from '../store/keyRepository'

export interface Caller {
  tenant: string
  /** The API key's id, or null for the owner (the app's own UI session). */
  keyId: string | null
  owner: boolean
}

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
    if (token === ownerToken) return { tenant, keyId: null, owner: true }
    const record = keys.findByKey(token)
    if (!record) throw new ServiceError('unauthorized', 401, 'Unknown API key.')
    if (record.revokedAt !== null)
      throw new ServiceError('revoked', 403, 'This API key was revoked: create a new one.')
    keys.touch(record.id, clock())
    return { tenant: record.tenant, keyId: record.id, owner: false }
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
