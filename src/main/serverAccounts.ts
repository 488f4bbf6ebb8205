import { monotonicFactory } from 'ulid'
import { ServiceError } from '../shared/errors'
import { ACCOUNT_TOKEN_PREFIX, OWNER_TOKEN_LIFE_MS, type AccountAuth } from './surface/caller'
import { randomSecret } from './surface/secrets'
import type { Account, AccountRepository, Workspace } from './store/accountRepository'
import type { MemberRole } from './store/memberRules'
import { hashSecretValue } from './store/oauthRepository'
import {
  decoyPasswordHash,
  hashPassword,
  MAX_PASSWORD,
  MIN_PASSWORD,
  verifyPassword,
} from './store/passwords'

/** An account name: email-like, at most 254 characters (RFC 5321's path limit), kept lower-case. */
const ACCOUNT_NAME = /^[^\s@]+@[^\s@]+$/
/** Login attempts allowed per account name in `LOGIN_WINDOW_MS`. */
const LOGIN_ATTEMPTS = 10
const LOGIN_WINDOW_MS = 15 * 60_000
/** An invitation is good for this long, once. */
export const INVITATION_LIFE_MS = 7 * 24 * 60 * 60_000
/** The prefix of an invitation token (shown once, stored as its SHA-256). */
const INVITATION_PREFIX = 'svc_invite_'

interface IssuedAccountToken {
  token: string
  /** ms since the Unix epoch: one hour after issue (interface.md "Authentication" 3). */
  expiresAt: number
}

/**
 * A team server's accounts (docs/interface.md marks these endpoints "not shown", so the
 * shapes here are decided and documented in docs/team-server.md): registration and login with a
 * scrypt-hashed password, owner tokens of one hour (`svc_owner_…`, stored as SHA-256), and the
 * `AccountAuth` the authenticator asks. Every record is in the store, so any node answers.
 */
export interface TeamAccounts {
  /**
   * Registers `name` (email-like, lower-cased) with `password` (8 to 256 characters) and makes
   * its first workspace (`name`'s, the account its owner). 400 `invalid_input` for a bad name or
   * password, 409 `conflict` when the name is taken.
   */
  register(
    name: string,
    password: string,
  ): Promise<{ account: Account; workspace: Workspace } & IssuedAccountToken>
  /**
   * An owner token for `name`'s password. 401 `unauthorized` for a wrong name or password (the
   * same words and about the same time for both); 429 `rate_limited` after `LOGIN_ATTEMPTS`
   * attempts for one name within 15 minutes, with `retryAfterSeconds`.
   */
  login(name: string, password: string): Promise<{ account: Account } & IssuedAccountToken>
  /** Ends the session of an account owner token (logout); false when it was not one. */
  logout(token: string): boolean
  /** What the authenticator asks (`api/auth.ts`). */
  auth: AccountAuth
  /** The invitation token's hash (what `AccountRepository` keeps). */
  invitationHash(token: string): string
  /** A fresh invitation token. */
  newInvitationToken(): string
  /** A fresh id with `prefix` (`ws_`, `acct_`, `inv_`). */
  newId(prefix: string): string
}

/** Normalises an account name or refuses it (400 `invalid_input`). */
function accountName(name: string): string {
  const normal = name.trim().toLowerCase()
  if (normal.length > 254 || !ACCOUNT_NAME.test(normal))
    throw new ServiceError('invalid_input', 'An account name is email-like: name@example.org.')
  return normal
}

/** Creates the accounts of a team server over the store's `accounts` repository. */
export function createTeamAccounts(options: {
  accounts: AccountRepository
  clock: () => number
}): TeamAccounts {
  const { accounts, clock } = options
  const ulid = monotonicFactory()
  const newId = (prefix: string) => `${prefix}${ulid(clock()).toLowerCase()}`
  const issue = (accountId: string): IssuedAccountToken => {
    const now = clock()
    const token = ACCOUNT_TOKEN_PREFIX + randomSecret()
    const expiresAt = now + OWNER_TOKEN_LIFE_MS
    accounts.createSession(hashSecretValue(token), accountId, expiresAt, now)
    return { token, expiresAt }
  }
  // End users' workspaces this node already made sure of (one insert per end user and node).
  const endUsers = new Set<string>()
  return {
    async register(rawName, password) {
      const name = accountName(rawName)
      if (password.length < MIN_PASSWORD || password.length > MAX_PASSWORD)
        throw new ServiceError(
          'invalid_input',
          `A password takes ${MIN_PASSWORD} to ${MAX_PASSWORD} characters.`,
        )
      const passwordHash = await hashPassword(password)
      const now = clock()
      const account = accounts.createAccount({ id: newId('acct_'), name, passwordHash }, now)
      if (!account) throw new ServiceError('conflict', `The account name ${name} is taken.`)
      const workspace = accounts.createWorkspace(
        { id: newId('ws_'), name, ownerId: account.id },
        now,
      )
      return { account, workspace, ...issue(account.id) }
    },
    async login(rawName, password) {
      const name = rawName.trim().toLowerCase()
      const attempts = accounts.countLoginAttempt(`name:${name}`, clock(), LOGIN_WINDOW_MS)
      if (attempts > LOGIN_ATTEMPTS) {
        const retryAfterSeconds = Math.ceil(LOGIN_WINDOW_MS / 1000)
        throw new ServiceError(
          'rate_limited',
          `Too many login attempts for ${name} (${LOGIN_ATTEMPTS} in 15 minutes): retry later.`,
          { retryAfterSeconds },
        )
      }
      const found = accounts.findByName(name)
      const ok = await verifyPassword(password, found?.passwordHash ?? (await decoyPasswordHash()))
      if (!found || !ok) throw new ServiceError('unauthorized', 'Wrong account name or password.')
      accounts.clearLoginAttempts(`name:${name}`)
      const { passwordHash: _, ...account } = found
      return { account, ...issue(account.id) }
    },
    logout: (token) => accounts.deleteSession(hashSecretValue(token)),
    auth: {
      accountOf(token) {
        const session = accounts.session(hashSecretValue(token), clock())
        return session ? { id: session.accountId } : null
      },
      defaultWorkspace: (accountId) => accounts.workspacesOf(accountId)[0]?.id ?? null,
      roleIn: (workspaceId, accountId): MemberRole | null =>
        accounts.roleIn(workspaceId, accountId),
      endUserSeen(orgWorkspace, workspace, endUser) {
        if (endUsers.has(workspace)) return
        accounts.ensureWorkspace(
          { id: workspace, name: endUser, kind: 'end_user', parent: orgWorkspace },
          clock(),
        )
        endUsers.add(workspace)
      },
    },
    invitationHash: (token) => hashSecretValue(token),
    newInvitationToken: () => INVITATION_PREFIX + randomSecret(),
    newId,
  }
}
