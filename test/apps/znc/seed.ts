/**
 * The deterministic content of every ZNC instance: one `configs/znc.conf` holding the web-only
 * listener, the global settings, the admin the workflows sign in as and six more users with
 * their IRC networks. Every network's server is a loopback address on a port nobody listens on,
 * so an active network only ever gets "connection refused" from 127.0.0.1: ZNC never reaches out.
 */
import { createHash } from 'node:crypto'

/** A seeded network of a user: its name, its one server line, and whether ZNC connects it. */
interface SeedNetwork {
  name: string
  /** `host [+]port`, as ZNC's config and the webadmin's server list write it. */
  server: string
  active: boolean
}

/** A seeded ZNC user. */
export interface SeedUser {
  name: string
  password: string
  nick: string
  ident: string
  realName: string
  networks: SeedNetwork[]
}

/** The seeded networks' one server: loopback, a port nothing on this machine listens on. */
export const SEED_SERVER = '127.0.0.1 6667'

/** The admin the workflows sign in as (ZNC's webadmin lists and edits users for admins only). */
export const ADMIN: SeedUser = {
  name: 'admin',
  password: 'Bouncer-admin-2026',
  nick: 'admin',
  ident: 'admin',
  realName: 'Bouncer Admin',
  networks: [],
}

const net = (name: string, active: boolean): SeedNetwork => ({ name, server: SEED_SERVER, active })

/**
 * The other users. alice, bob and carol are the ones nicks are changed for, networks added to and
 * networks disabled of; dave, erin and frank exist for the delete workflow only.
 */
const USERS: SeedUser[] = [
  {
    name: 'alice',
    password: 'alice-Pass-2026',
    nick: 'alice',
    ident: 'alice',
    realName: 'Alice Moreau',
    networks: [net('libera', true), net('oftc', false)],
  },
  {
    name: 'bob',
    password: 'bob-Pass-2026',
    nick: 'bobby',
    ident: 'bob',
    realName: 'Bob Lindqvist',
    networks: [net('hackint', true), net('libera', true)],
  },
  {
    name: 'carol',
    password: 'carol-Pass-2026',
    nick: 'carol',
    ident: 'carol',
    realName: 'Carol Nakamura',
    networks: [net('libera', false), net('rizon', true)],
  },
  {
    name: 'dave',
    password: 'dave-Pass-2026',
    nick: 'dave',
    ident: 'dave',
    realName: 'Dave Okafor',
    networks: [net('efnet', false)],
  },
  {
    name: 'erin',
    password: 'erin-Pass-2026',
    nick: 'erin',
    ident: 'erin',
    realName: 'Erin Walsh',
    networks: [],
  },
  {
    name: 'frank',
    password: 'frank-Pass-2026',
    nick: 'frank',
    ident: 'frank',
    realName: 'Frank Dubois',
    networks: [net('libera', false)],
  },
]

/** Global settings (ZNC's defaults, written out): the settings workflows change the delay. */
const CONNECT_DELAY = 5
export const SERVER_THROTTLE = 30

/** The seeded user named `name` (throws for an unknown one: keys only name seeded users). */
export function seedUser(name: string): SeedUser {
  const user = [ADMIN, ...USERS].find((u) => u.name === name)
  if (!user) throw new Error(`no seeded ZNC user ${name}`)
  return user
}

/**
 * The `<Pass password>` block ZNC expects: SHA-256 of password + salt, hex. The salt is fixed per
 * user so the file is the same on every start.
 */
function passBlock(user: SeedUser): string[] {
  const salt = `sitecall-${user.name}-salt`.padEnd(20, '0').slice(0, 20)
  const hash = createHash('sha256')
    .update(user.password + salt)
    .digest('hex')
  return [
    '\t<Pass password>',
    '\t\tMethod = SHA256',
    `\t\tHash = ${hash}`,
    `\t\tSalt = ${salt}`,
    '\t</Pass>',
  ]
}

function userBlock(user: SeedUser, admin: boolean): string[] {
  return [
    `<User ${user.name}>`,
    `\tAdmin = ${admin}`,
    `\tNick = ${user.nick}`,
    `\tAltNick = ${user.nick}_`,
    `\tIdent = ${user.ident}`,
    `\tRealName = ${user.realName}`,
    // ZNC's default of 1 network per non-admin user would refuse the add-network workflow.
    '\tMaxNetworks = 10',
    ...passBlock(user),
    ...user.networks.flatMap((n) => [
      `\t<Network ${n.name}>`,
      `\t\tServer = ${n.server}`,
      `\t\tIRCConnectEnabled = ${n.active}`,
      '\t</Network>',
    ]),
    '</User>',
  ]
}

/** The whole `znc.conf` for a web-only listener on `127.0.0.1:port`. */
export function zncConfig(port: number): string {
  return [
    'Version = 1.8.2',
    `ConnectDelay = ${CONNECT_DELAY}`,
    `ServerThrottle = ${SERVER_THROTTLE}`,
    // Written at once, so a read of the state right after a save sees the file too.
    'ConfigWriteDelay = 0',
    '<Listener web>',
    '\tHost = 127.0.0.1',
    `\tPort = ${port}`,
    '\tIPv4 = true',
    '\tIPv6 = false',
    '\tSSL = false',
    '\tAllowIRC = false',
    '\tAllowWeb = true',
    '</Listener>',
    'LoadModule = webadmin',
    ...userBlock(ADMIN, true),
    ...USERS.flatMap((u) => userBlock(u, false)),
    '',
  ].join('\n')
}
