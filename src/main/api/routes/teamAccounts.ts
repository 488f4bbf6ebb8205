import { Type } from '@sinclair/typebox'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { ServiceError } from '../../../shared/errors'
import type { TeamAccounts } from '../../serverAccounts'
import { INVITATION_LIFE_MS } from '../../serverAccounts'
import type { Account, AccountRepository, Member } from '../../store/accountRepository'
import { memberChangeRefusal, type MemberRole } from '../../store/memberRules'
import { ACCOUNT_TOKEN_PREFIX } from '../../surface/caller'
import { json } from '../../surface/openapi/docParts'
import { routeSchema } from '../../surface/openapi/routeSchema'
import { validBody } from '../routeValidation'

const refusal = (message: string) => ({ 'x-message': message })
const NAME = Type.String({
  minLength: 3,
  maxLength: 254,
  description: 'The account name: email-like (name@example.org), compared lower-case.',
  ...refusal('"name" is an email-like account name.'),
})
const ROLE = (roles: MemberRole[]) =>
  Type.Unsafe<MemberRole>({
    type: 'string',
    enum: roles,
    description: `One of ${roles.join(', ')}.`,
    ...refusal(`"role" is one of ${roles.join(', ')}.`),
  })

const CREDENTIALS_SCHEMA = Type.Object(
  {
    name: NAME,
    password: Type.String({
      minLength: 1,
      maxLength: 256,
      description: 'The password: 8 to 256 characters at registration.',
      ...refusal('"password" is a string of 8 to 256 characters.'),
    }),
  },
  { additionalProperties: false },
)
const WORKSPACE_SCHEMA = Type.Object(
  {
    name: Type.String({
      minLength: 1,
      maxLength: 100,
      pattern: '\\S',
      ...refusal('"name" takes 1 to 100 characters.'),
    }),
  },
  { additionalProperties: false },
)
const MEMBER_SCHEMA = Type.Object(
  { name: NAME, role: Type.Optional(ROLE(['owner', 'admin', 'member'])) },
  { additionalProperties: false },
)
const INVITE_SCHEMA = Type.Object(
  { name: NAME, role: Type.Optional(ROLE(['admin', 'member'])) },
  { additionalProperties: false },
)
const ROLE_SCHEMA = Type.Object(
  { role: ROLE(['owner', 'admin', 'member']) },
  { additionalProperties: false },
)
const ACCEPT_SCHEMA = Type.Object(
  {
    token: Type.String({
      minLength: 1,
      maxLength: 200,
      ...refusal('"token" is the invitation token.'),
    }),
  },
  { additionalProperties: false },
)

const memberView = (m: Member) => ({
  accountId: m.accountId,
  name: m.name,
  role: m.role,
  addedAt: m.addedAt,
})

export interface TeamAccountRouteDeps {
  accounts: AccountRepository
  team: TeamAccounts
  clock: () => number
}

/** What the team account routes share: the stores, the clock and the caller checks. */
interface TeamRouteContext {
  accounts: TeamAccountRouteDeps['accounts']
  team: TeamAccountRouteDeps['team']
  clock: TeamAccountRouteDeps['clock']
  /** The signed-in account of an account owner token (401 `unauthorized` otherwise). */
  signedIn(request: FastifyRequest): Account
  /** The caller's role in workspace `id`; 403 `forbidden` when not a member. */
  roleIn(id: string, account: Account): MemberRole
  /** Throws 403 `forbidden` with `reason` when there is one. */
  refuse(reason: string | null): void
}

/**
 * A team server's account routes (docs/interface.md marks registration and login "not
 * shown": the shapes are decided here and in docs/team-server.md). Registered only by
 * `sitecall server`; the desktop and `serve` keep their single local owner.
 * - `POST /v1/auth/register {name, password}` → 201 `{account, workspace, token, expiresAt}`
 *   (409 `conflict`: name taken); `POST /v1/auth/login {name, password}` → `{account, token,
 *   expiresAt}` (401 `unauthorized`; 429 `rate_limited` past 10 attempts per name in 15 min).
 *   The token (`svc_owner_…`) lives one hour (interface.md "Authentication" 3); `POST /v1/auth/logout`
 *   ends it at once → `{loggedOut: true}`.
 * - `GET /v1/workspaces`, `POST /v1/workspaces {name}`: the caller's workspaces; a new one.
 * - `GET|POST /v1/workspaces/{id}/members`, `PATCH|DELETE /v1/workspaces/{id}/members/{accountId}`
 *   under `memberRules.ts` (403 `forbidden`), the last owner kept (409 `conflict`).
 * - `POST|GET /v1/workspaces/{id}/invitations`, `POST /v1/invitations/accept {token}` (404
 *   `not_found`, 409 `request_closed` used or expired, 403 `forbidden` for another account).
 * Every workspace route answers 403 `forbidden` to an account that is not its member.
 */
export function registerTeamAccountRoutes(app: FastifyInstance, deps: TeamAccountRouteDeps): void {
  const ctx = teamRouteContext(deps)
  registerAuthRoutes(app, ctx)
  registerWorkspaceRoutes(app, ctx)
  registerMemberListRoutes(app, ctx)
  registerMemberChangeRoutes(app, ctx)
  registerInvitationRoutes(app, ctx)
  registerInvitationAcceptRoute(app, ctx)
}

/** The shared record of the team account routes, built once from their parts. */
function teamRouteContext(deps: TeamAccountRouteDeps): TeamRouteContext {
  const { accounts, team, clock } = deps
  /** The signed-in account of an account owner token (401 `unauthorized` otherwise). */
  const signedIn = (request: FastifyRequest): Account => {
    const match = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')
    const token = match?.[1]
    const found =
      token?.startsWith(ACCOUNT_TOKEN_PREFIX) === true ? team.auth.accountOf(token) : null
    const account = found ? accounts.getAccount(found.id) : null
    if (!account)
      throw new ServiceError(
        'unauthorized',
        'Send Authorization: Bearer <owner token> from POST /v1/auth/login (it lasts one hour).',
      )
    return account
  }
  /** The caller's role in workspace `id`; 403 `forbidden` when not a member. */
  const roleIn = (id: string, account: Account): MemberRole => {
    const role = accounts.roleIn(id, account.id)
    if (role === null)
      throw new ServiceError('forbidden', `You are not a member of workspace ${id}.`)
    return role
  }
  const refuse = (reason: string | null) => {
    if (reason) throw new ServiceError('forbidden', reason)
  }
  return { accounts, team, clock, signedIn, roleIn, refuse }
}

/** Registration, sign-in and sign-out: the routes an account uses before it has a workspace. */
function registerAuthRoutes(app: FastifyInstance, ctx: TeamRouteContext): void {
  const { team, signedIn } = ctx
  app.post(
    '/v1/auth/register',
    {
      schema: routeSchema({
        summary:
          'Register a team server account; answers its first workspace and an owner token (one hour).',
        tag: 'account',
        auth: 'public',
        body: { schema: CREDENTIALS_SCHEMA, required: true },
        responses: {
          '201': json('`{account: {id, name}, workspace: {id, name, role}, token, expiresAt}`'),
        },
        errors: ['bad_request', 'unknown_argument', 'invalid_input', 'conflict'],
      }),
    },
    async (request, reply) => {
      const body = validBody(request, CREDENTIALS_SCHEMA)
      const made = await team.register(body.name, body.password)
      return reply
        .status(201)
        .header('cache-control', 'no-store')
        .send({
          account: { id: made.account.id, name: made.account.name },
          workspace: { id: made.workspace.id, name: made.workspace.name, role: 'owner' },
          token: made.token,
          expiresAt: made.expiresAt,
        })
    },
  )

  app.post(
    '/v1/auth/login',
    {
      schema: routeSchema({
        summary: 'Log in: an owner token of one hour for the account.',
        tag: 'account',
        auth: 'public',
        body: { schema: CREDENTIALS_SCHEMA, required: true },
        responses: { '200': json('`{account: {id, name}, token, expiresAt}`') },
        errors: [
          'bad_request',
          'unknown_argument',
          'invalid_input',
          'unauthorized',
          'rate_limited',
        ],
      }),
    },
    async (request, reply) => {
      const body = validBody(request, CREDENTIALS_SCHEMA)
      const { account, token, expiresAt } = await team.login(body.name, body.password)
      return reply
        .header('cache-control', 'no-store')
        .send({ account: { id: account.id, name: account.name }, token, expiresAt })
    },
  )

  app.post(
    '/v1/auth/logout',
    {
      schema: routeSchema({
        summary: 'Log out: the owner token sent stops working on every node at once.',
        tag: 'account',
        auth: 'key',
        responses: { '200': json('`{loggedOut: true}`') },
        errors: [],
      }),
    },
    async (request) => {
      signedIn(request)
      const token = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')![1]!
      return { loggedOut: team.logout(token) }
    },
  )
}

/** The signed-in account's workspaces: list them, create one. */
function registerWorkspaceRoutes(app: FastifyInstance, ctx: TeamRouteContext): void {
  const { accounts, team, clock, signedIn } = ctx
  app.get(
    '/v1/workspaces',
    {
      schema: routeSchema({
        summary: "The signed-in account's workspaces with its role in each.",
        tag: 'account',
        auth: 'key',
        responses: { '200': json('`{workspaces: [{id, name, kind, role, createdAt}]}`') },
        errors: [],
      }),
    },
    async (request) => {
      const account = signedIn(request)
      return {
        workspaces: accounts.workspacesOf(account.id).map((w) => ({
          id: w.id,
          name: w.name,
          kind: w.kind,
          role: w.role,
          createdAt: w.createdAt,
        })),
      }
    },
  )

  app.post(
    '/v1/workspaces',
    {
      schema: routeSchema({
        summary: 'Create a workspace; the signed-in account is its owner.',
        tag: 'account',
        auth: 'key',
        body: { schema: WORKSPACE_SCHEMA, required: true },
        responses: { '201': json('`{id, name, kind, role, createdAt}`') },
        errors: ['bad_request', 'unknown_argument', 'invalid_input'],
      }),
    },
    async (request, reply) => {
      const account = signedIn(request)
      const body = validBody(request, WORKSPACE_SCHEMA)
      const made = accounts.createWorkspace(
        { id: team.newId('ws_'), name: body.name.trim(), ownerId: account.id },
        clock(),
      )
      return reply.status(201).send({ ...made, role: 'owner' })
    },
  )
}

/** A workspace's members: list them, add one. */
function registerMemberListRoutes(app: FastifyInstance, ctx: TeamRouteContext): void {
  const { accounts, clock, signedIn, roleIn, refuse } = ctx
  app.get<{ Params: { id: string } }>(
    '/v1/workspaces/:id/members',
    {
      schema: routeSchema({
        summary: "A workspace's members and roles (any member may read them).",
        tag: 'account',
        auth: 'key',
        responses: { '200': json('`{members: [{accountId, name, role, addedAt}]}`') },
        errors: ['forbidden'],
      }),
    },
    async (request) => {
      const account = signedIn(request)
      roleIn(request.params.id, account)
      return { members: accounts.members(request.params.id).map(memberView) }
    },
  )

  app.post<{ Params: { id: string } }>(
    '/v1/workspaces/:id/members',
    {
      schema: routeSchema({
        summary: 'Add an existing account as a member (owners and admins; role default member).',
        tag: 'account',
        auth: 'key',
        body: { schema: MEMBER_SCHEMA, required: true },
        responses: { '201': json('`{accountId, name, role, addedAt}`') },
        errors: [
          'bad_request',
          'unknown_argument',
          'invalid_input',
          'forbidden',
          'not_found',
          'conflict',
        ],
      }),
    },
    async (request, reply) => {
      const account = signedIn(request)
      const { id } = request.params
      const body = validBody(request, MEMBER_SCHEMA)
      const role = body.role ?? 'member'
      refuse(memberChangeRefusal(roleIn(id, account), { kind: 'add', role }))
      const target = accounts.findByName(body.name.trim().toLowerCase())
      if (!target)
        throw new ServiceError('not_found', `No account ${body.name}: invite it instead.`)
      const now = clock()
      if (!accounts.addMember(id, target.id, role, now))
        throw new ServiceError('conflict', `${target.name} is a member already.`)
      return reply.status(201).send({ accountId: target.id, name: target.name, role, addedAt: now })
    },
  )
}

/** A member's role changed, or the member removed. */
function registerMemberChangeRoutes(app: FastifyInstance, ctx: TeamRouteContext): void {
  const { accounts, signedIn, roleIn, refuse } = ctx
  app.patch<{ Params: { id: string; accountId: string } }>(
    '/v1/workspaces/:id/members/:accountId',
    {
      schema: routeSchema({
        summary: "Change a member's role (owners; admins for admins and members).",
        tag: 'account',
        auth: 'key',
        body: { schema: ROLE_SCHEMA, required: true },
        responses: { '200': json('`{accountId, role}`') },
        errors: [
          'bad_request',
          'unknown_argument',
          'invalid_input',
          'forbidden',
          'not_found',
          'conflict',
        ],
      }),
    },
    async (request) => {
      const account = signedIn(request)
      const { id, accountId } = request.params
      const { role } = validBody(request, ROLE_SCHEMA)
      const actor = roleIn(id, account)
      const targetRole = accounts.roleIn(id, accountId)
      if (targetRole === null) throw new ServiceError('not_found', `No member ${accountId} here.`)
      refuse(
        memberChangeRefusal(actor, {
          kind: 'set_role',
          self: accountId === account.id,
          targetRole,
          role,
        }),
      )
      const outcome = accounts.setRole(id, accountId, role)
      if (outcome === 'not_member')
        throw new ServiceError('not_found', `No member ${accountId} here.`)
      if (outcome === 'last_owner')
        throw new ServiceError(
          'conflict',
          'The last owner cannot step down: make another owner first.',
        )
      return { accountId, role }
    },
  )

  app.delete<{ Params: { id: string; accountId: string } }>(
    '/v1/workspaces/:id/members/:accountId',
    {
      schema: routeSchema({
        summary: 'Remove a member, or leave (your own account id).',
        tag: 'account',
        auth: 'key',
        responses: { '200': json('`{accountId, removed: true}`') },
        errors: ['forbidden', 'not_found', 'conflict'],
      }),
    },
    async (request) => {
      const account = signedIn(request)
      const { id, accountId } = request.params
      const actor = roleIn(id, account)
      const targetRole = accounts.roleIn(id, accountId)
      if (targetRole === null) throw new ServiceError('not_found', `No member ${accountId} here.`)
      refuse(
        memberChangeRefusal(actor, { kind: 'remove', self: accountId === account.id, targetRole }),
      )
      const outcome = accounts.removeMember(id, accountId)
      if (outcome === 'not_member')
        throw new ServiceError('not_found', `No member ${accountId} here.`)
      if (outcome === 'last_owner')
        throw new ServiceError('conflict', 'The last owner cannot leave: make another owner first.')
      return { accountId, removed: true }
    },
  )
}

/** A workspace's invitations: create one, list them. */
function registerInvitationRoutes(app: FastifyInstance, ctx: TeamRouteContext): void {
  const { accounts, team, clock, signedIn, roleIn, refuse } = ctx
  app.post<{ Params: { id: string } }>(
    '/v1/workspaces/:id/invitations',
    {
      schema: routeSchema({
        summary:
          'Invite an account name (owners and admins): the token is shown once, good 7 days, once.',
        tag: 'account',
        auth: 'key',
        body: { schema: INVITE_SCHEMA, required: true },
        responses: { '201': json('`{id, name, role, token, expiresAt}`') },
        errors: ['bad_request', 'unknown_argument', 'invalid_input', 'forbidden'],
      }),
    },
    async (request, reply) => {
      const account = signedIn(request)
      const { id } = request.params
      const body = validBody(request, INVITE_SCHEMA)
      const role = (body.role ?? 'member') as 'admin' | 'member'
      refuse(memberChangeRefusal(roleIn(id, account), { kind: 'invite', role }))
      const token = team.newInvitationToken()
      const now = clock()
      const invitation = accounts.createInvitation(
        {
          id: team.newId('inv_'),
          workspaceId: id,
          name: body.name.trim().toLowerCase(),
          role,
          invitedBy: account.id,
          expiresAt: now + INVITATION_LIFE_MS,
          tokenHash: team.invitationHash(token),
        },
        now,
      )
      return reply.status(201).header('cache-control', 'no-store').send({
        id: invitation.id,
        name: invitation.name,
        role,
        token,
        expiresAt: invitation.expiresAt,
      })
    },
  )

  app.get<{ Params: { id: string } }>(
    '/v1/workspaces/:id/invitations',
    {
      schema: routeSchema({
        summary: "A workspace's open invitations (owners and admins; never their tokens).",
        tag: 'account',
        auth: 'key',
        responses: { '200': json('`{invitations: [{id, name, role, createdAt, expiresAt}]}`') },
        errors: ['forbidden'],
      }),
    },
    async (request) => {
      const account = signedIn(request)
      const { id } = request.params
      refuse(memberChangeRefusal(roleIn(id, account), { kind: 'invite', role: 'member' }))
      return {
        invitations: accounts.invitations(id).map((i) => ({
          id: i.id,
          name: i.name,
          role: i.role,
          createdAt: i.createdAt,
          expiresAt: i.expiresAt,
        })),
      }
    },
  )
}

/** An invitation accepted by the account it names. */
function registerInvitationAcceptRoute(app: FastifyInstance, ctx: TeamRouteContext): void {
  const { accounts, team, clock, signedIn } = ctx
  app.post(
    '/v1/invitations/accept',
    {
      schema: routeSchema({
        summary: 'Accept an invitation signed in as the account it names: you join its workspace.',
        tag: 'account',
        auth: 'key',
        body: { schema: ACCEPT_SCHEMA, required: true },
        responses: { '200': json('`{workspace: {id, name, role}}`') },
        errors: [
          'bad_request',
          'unknown_argument',
          'invalid_input',
          'forbidden',
          'not_found',
          'request_closed',
        ],
      }),
    },
    async (request) => {
      const account = signedIn(request)
      const { token } = validBody(request, ACCEPT_SCHEMA)
      const outcome = accounts.acceptInvitation(team.invitationHash(token), account, clock())
      switch (outcome.kind) {
        case 'unknown':
          throw new ServiceError('not_found', 'No such invitation.')
        case 'used':
          throw new ServiceError(
            'request_closed',
            'This invitation was used already: ask for a new one.',
          )
        case 'expired':
          throw new ServiceError(
            'request_closed',
            'This invitation expired (7 days): ask for a new one.',
          )
        case 'wrong_account':
          throw new ServiceError(
            'forbidden',
            'This invitation is for another account name: sign in as the account invited.',
          )
      }
      const workspace = accounts.getWorkspace(outcome.invitation.workspaceId)!
      return { workspace: { id: workspace.id, name: workspace.name, role: outcome.role } }
    },
  )
}
