/**
 * The seed of an ejabberd instance: three virtual hosts (the workflows work in one), the web admin's account, the accounts,
 * rosters, shared roster groups and chat rooms the workflows read and change, and the config
 * file (`ejabberd.yml`) written fresh into the instance's temp dir on every start.
 *
 * Everything a workflow picks comes in threes: the person's record, then the two the
 * working-tools check uses instead, which no other workflow touches.
 */

/** The virtual host the workflows work in (`hosts:`); its accounts are `<name>@HOST`. */
export const HOST = 'chat.example.test'

/**
 * The server's other virtual hosts, each with a few accounts of its own: a server seldom serves
 * one domain, and the Users page the person reads is the one of the host they picked.
 */
export const OTHER_HOSTS: Array<{ host: string; users: string[] }> = [
  { host: 'team.example.test', users: ['quinn', 'rosa', 'sam'] },
  { host: 'guest.example.test', users: ['uma', 'victor'] },
]

/** The MUC service of the host (`mod_muc` `host: conference.@HOST@`). */
const MUC_HOST = `conference.${HOST}`

/**
 * The web admin's account: an XMPP account of the host in the `admin` ACL. Web admin's HTTP
 * Basic login wants the whole JID as the user name (a bare `admin` is refused with 401).
 */
export const USER = { name: `admin@${HOST}`, password: 'Talk-to-the-admin-23' } as const

/** The local part of the admin's JID (the account the seed registers). */
const ADMIN_LOCAL = 'admin'

/** A seeded account: local part and password. */
export interface SeedAccount {
  user: string
  password: string
}

/** The seeded accounts besides the admin, each with its own password. */
export const ACCOUNTS: SeedAccount[] = [
  'alice',
  'bob',
  'carol',
  'dave',
  'erin',
  'frank',
  'grace',
  'heidi',
  'ivan',
  'judy',
  'ken',
  'leo',
  'mallory',
  'olaf',
  'peggy',
  'trent',
].map((user) => ({ user, password: `Seed-${user}-pw-1` }))

/** A roster entry: the contact's bare JID, the nickname and one group. */
export interface SeedContact {
  jid: string
  nick: string
  group: string
}

/**
 * The rosters the seed fills (owner → contacts). Each owner's contacts are people no other
 * owner of this list has, so a page of one roster can be told from another's.
 */
export const ROSTERS: Record<string, SeedContact[]> = {
  dave: [
    { jid: `alice@${HOST}`, nick: 'Alice', group: 'Friends' },
    { jid: `bob@${HOST}`, nick: 'Bob', group: 'Work' },
  ],
  erin: [
    { jid: `carol@${HOST}`, nick: 'Carol', group: 'Work' },
    { jid: `grace@${HOST}`, nick: 'Grace', group: 'Friends' },
  ],
  frank: [
    { jid: `ivan@${HOST}`, nick: 'Ivan', group: 'Family' },
    { jid: `judy@${HOST}`, nick: 'Judy', group: 'Work' },
  ],
  alice: [{ jid: `trent@${HOST}`, nick: 'Trent', group: 'Work' }],
}

/** A shared roster group (`mod_shared_roster`): id, label, description and member accounts. */
export interface SeedGroup {
  name: string
  label: string
  description: string
  members: string[]
}

/** The seeded shared roster groups. */
const GROUPS: SeedGroup[] = [
  { name: 'staff', label: 'Staff', description: 'Everyone at work', members: ['alice', 'bob'] },
  { name: 'sales', label: 'Sales', description: 'Sales team', members: ['bob', 'carol'] },
  { name: 'finance', label: 'Finance', description: 'Budget owners', members: ['dave', 'erin'] },
  { name: 'legal', label: 'Legal', description: 'Contract reviewers', members: ['frank', 'grace'] },
]

/** The seeded group `name`; throws when it is not one. */
export function seededGroup(name: string): SeedGroup {
  const found = GROUPS.find((g) => g.name === name)
  if (!found) throw new Error(`${name} is not a seeded shared roster group`)
  return found
}

/** The seeded persistent chat rooms of {@link MUC_HOST}. */
const ROOMS = ['lobby', 'release-planning']

/** The ports an instance listens on, all on 127.0.0.1. */
export interface EjabberdPorts {
  /** Client connections (`ejabberd_c2s`, no TLS): unused by the workflows, as a server has one. */
  c2s: number
  /** The web admin (`/admin`, HTTP Basic): the app's origin. */
  http: number
  /** `mod_http_api` (`/api`), only for the seed and the keys' reads, open to loopback only. */
  api: number
}

/**
 * The whole `ejabberd.yml` of an instance. Only loopback listeners; no TLS (no certificate,
 * `acme` off, so ejabberd never asks for one); no s2s listener; passwords kept `plain` so
 * `check_password` can prove a change. The `admin` ACL holds {@link USER} and `configure` (what
 * web admin asks) allows it. `mod_http_api` answers any command from loopback with no login, on
 * its own listener so that the web admin's origin shows nothing but the web admin.
 */
export function ejabberdConfig(ports: EjabberdPorts): string {
  return `hosts:
  - ${HOST}
${OTHER_HOSTS.map((h) => `  - ${h.host}\n`).join('')}loglevel: info
log_rotate_count: 0
acme:
  auto: false
listen:
  -
    port: ${ports.c2s}
    ip: "127.0.0.1"
    module: ejabberd_c2s
    starttls: false
    access: c2s
  -
    port: ${ports.http}
    ip: "127.0.0.1"
    module: ejabberd_http
    request_handlers:
      /admin: ejabberd_web_admin
  -
    port: ${ports.api}
    ip: "127.0.0.1"
    module: ejabberd_http
    request_handlers:
      /api: mod_http_api
auth_method: internal
auth_password_format: plain
acl:
  admin:
    user:
      - "${USER.name}"
  loopback:
    ip:
      - 127.0.0.0/8
access_rules:
  local:
    allow: local
  c2s:
    allow: all
  configure:
    allow: admin
  muc_create:
    allow: local
api_permissions:
  "seed and keys from loopback":
    from:
      - mod_http_api
    who:
      ip: 127.0.0.1/8
    what: "*"
modules:
  mod_adhoc: {}
  mod_admin_extra: {}
  mod_disco: {}
  mod_last: {}
  mod_muc:
    host: "${MUC_HOST.replace(HOST, '@HOST@')}"
    access_create: muc_create
    default_room_options:
      persistent: true
  mod_muc_admin: {}
  mod_offline: {}
  mod_ping: {}
  mod_roster: {}
  mod_shared_roster: {}
  mod_vcard: {}
  mod_http_api: {}
`
}

/** Calls one `mod_http_api` command (`POST /api/<command>` with a JSON body) and returns its answer. */
export type ApiCall = (command: string, args: Record<string, unknown>) => Promise<unknown>

/**
 * Fills a fresh instance through `mod_http_api`: the admin and every account, the rosters
 * (both ways subscribed), the shared roster groups with their members, and the rooms. Throws
 * naming the command when one answers anything but success.
 */
export async function seed(api: ApiCall): Promise<void> {
  const ok = async (command: string, args: Record<string, unknown>, want: unknown = 0) => {
    const got = await api(command, args)
    const good = typeof want === 'string' ? String(got).includes(want) : got === want
    if (!good)
      throw new Error(`seed: ${command} ${JSON.stringify(args)} answered ${JSON.stringify(got)}`)
  }
  const accounts = [{ user: ADMIN_LOCAL, password: USER.password }, ...ACCOUNTS]
  for (const a of accounts)
    await ok(
      'register',
      { user: a.user, host: HOST, password: a.password },
      'successfully registered',
    )
  for (const h of OTHER_HOSTS)
    for (const user of h.users)
      await ok(
        'register',
        { user, host: h.host, password: `Seed-${user}-pw-1` },
        'successfully registered',
      )
  for (const [owner, contacts] of Object.entries(ROSTERS))
    for (const c of contacts) {
      const [user, host] = c.jid.split('@') as [string, string]
      await ok('add_rosteritem', {
        localuser: owner,
        localhost: HOST,
        user,
        host,
        nick: c.nick,
        group: c.group,
        subs: 'both',
      })
    }
  for (const g of GROUPS) {
    await ok('srg_create', {
      group: g.name,
      host: HOST,
      label: g.label,
      description: g.description,
      display: '',
    })
    for (const m of g.members)
      await ok('srg_user_add', { user: m, host: HOST, group: g.name, grouphost: HOST })
  }
  for (const room of ROOMS) await ok('create_room', { name: room, service: MUC_HOST, host: HOST })
}
