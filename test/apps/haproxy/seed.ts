/**
 * The seed of the HAProxy instance: one configuration file, written fresh for every start. Four
 * backends with fixed names, fixed proxy ids (the stats form posts `b=#<id>`) and fixed server
 * names; every server points at a frontend of the same HAProxy that answers its health checks, so
 * no other process is needed and every server's state is the same on every start.
 */

/** The one account of the stats page (`stats auth`): HTTP Basic, nothing else. */
export const USER = { name: 'ops', password: 'Balance-the-load-7' } as const

/** The path of the listener's `monitor-uri`: the one page it serves without the Basic prompt. */
export const HEALTH_PATH = '/healthz'

/** One seeded server: its name, weight, and whether it starts in maintenance (`disabled`). */
export interface SeedServer {
  name: string
  weight: number
  /** Starts in MAINT (the config's `disabled`). */
  maint?: boolean
  /** Points at the upstream port that answers 503: its health check fails, so it is DOWN. */
  down?: boolean
}

/** One seeded backend: name, fixed proxy id (the page's `b=#<id>`), servers. */
export interface SeedBackend {
  name: string
  id: number
  servers: SeedServer[]
}

/** The four backends, in the order the page lists them. */
export const BACKENDS: SeedBackend[] = [
  {
    name: 'web_frontend',
    id: 10,
    servers: [
      { name: 'web1', weight: 100 },
      { name: 'web2', weight: 100 },
      { name: 'web3', weight: 100 },
      { name: 'web4', weight: 50 },
    ],
  },
  {
    name: 'api_servers',
    id: 20,
    servers: [
      { name: 'api1', weight: 10 },
      { name: 'api2', weight: 10 },
      { name: 'api3', weight: 10 },
      { name: 'api_legacy', weight: 1, down: true },
    ],
  },
  {
    name: 'batch_workers',
    id: 30,
    servers: [
      { name: 'batch1', weight: 1 },
      { name: 'batch2', weight: 1, maint: true },
      { name: 'batch3', weight: 1, maint: true },
      { name: 'batch4', weight: 1, maint: true },
    ],
  },
  {
    name: 'static_assets',
    id: 40,
    servers: [
      { name: 'static1', weight: 1 },
      { name: 'static2', weight: 1 },
      { name: 'static3', weight: 1 },
    ],
  },
]

/** The `b` field the stats form of `backend` posts (`#` and its proxy id). */
export function backendField(backend: string): string {
  const found = BACKENDS.find((b) => b.name === backend)
  if (!found) throw new Error(`no seeded backend ${backend}`)
  return `#${found.id}`
}

/** The status the CSV export gives each server right after a start, once checks ran once. */
export function seededStatus(server: SeedServer): string {
  if (server.maint) return 'MAINT'
  return server.down ? 'DOWN' : 'UP'
}

/** The ports of one instance: the stats page, and the two upstream ports the servers point at. */
export interface Ports {
  stats: number
  /** Answers every request 200 "ok": healthy servers. */
  up: number
  /** Answers every request 503: the one server that is DOWN. */
  down: number
}

/**
 * The whole `haproxy.cfg` of an instance: no `global` daemon/chroot/user/log settings (it runs in
 * the foreground with `-db`, as whoever started it, logging nothing), the stats listener on
 * 127.0.0.1 with Basic auth and admin actions, the upstream frontend, the four backends.
 * Health checks run every second, so a state settles quickly; `stats refresh` is off (the
 * default), so the page never reloads by itself during a recording.
 */
export function haproxyConfig(ports: Ports): string {
  const lines = [
    'global',
    '    maxconn 256',
    // One thread: the machine is shared, and the stats page lists the same either way.
    '    nbthread 1',
    '',
    'defaults',
    '    mode http',
    '    timeout connect 2s',
    '    timeout client 30s',
    '    timeout server 30s',
    '    timeout check 1s',
    '',
    'listen stats',
    `    bind 127.0.0.1:${ports.stats}`,
    `    monitor-uri ${HEALTH_PATH}`,
    '    stats enable',
    '    stats uri /',
    `    stats auth ${USER.name}:${USER.password}`,
    '    stats admin if TRUE',
    '',
    // What the servers stand for: one frontend of this same HAProxy, two ports.
    'frontend upstream_apps',
    `    bind 127.0.0.1:${ports.up}`,
    `    bind 127.0.0.1:${ports.down}`,
    `    http-request return status 503 content-type text/plain string "retired" if { dst_port ${ports.down} }`,
    '    http-request return status 200 content-type text/plain string "ok"',
  ]
  for (const backend of BACKENDS) {
    lines.push(
      '',
      `backend ${backend.name}`,
      `    id ${backend.id}`,
      '    balance roundrobin',
      '    option httpchk GET /health',
      '    default-server check inter 1s',
    )
    for (const s of backend.servers)
      lines.push(
        `    server ${s.name} 127.0.0.1:${s.down ? ports.down : ports.up} weight ${s.weight}${s.down ? ' fall 1' : ''}${s.maint ? ' disabled' : ''}`,
      )
  }
  return `${lines.join('\n')}\n`
}
