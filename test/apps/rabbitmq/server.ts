/**
 * Starts a private RabbitMQ node: Debian's `rabbitmq-server` start script from
 * `/usr/lib/rabbitmq/bin` (not the `/usr/sbin` wrapper, which switches to the system's
 * `rabbitmq` user and its `/var/lib/rabbitmq`), with every directory, config file and port of its
 * own in a temp dir, and its own `epmd` on a private port, each in its own process group. The
 * management plugin's UI and API listen on a free 127.0.0.1 port. Resolves once the seeded
 * messages show in the queues' statistics.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  delay,
  freePort,
  instanceStopper,
  killGroup,
  killOnExit,
  spawnServer,
  waitUntil,
  type ServerProcess,
} from '../childProcess'
import { QUEUES, SEED_TIMESTAMP, USER, definitions } from './seed'
import { basicAuth } from './session'

/** The start script of Debian's package (runs `erl` in the foreground). */
const RABBITMQ_SERVER = '/usr/lib/rabbitmq/bin/rabbitmq-server'
/** Erlang's port mapper, started privately per instance. */
const EPMD = '/usr/bin/epmd'

/** A running RabbitMQ node. */
export interface RabbitServer {
  /** The management UI and API: `http://127.0.0.1:<port>`. */
  origin: string
  close(): Promise<void>
}

/** Why RabbitMQ cannot run here (naming the apt package), or null. */
export function rabbitUnavailable(): string | null {
  return existsSync(RABBITMQ_SERVER) && existsSync(EPMD)
    ? null
    : 'RabbitMQ is not installed: apt-get install rabbitmq-server'
}

/** `n` distinct free ports (the kernel could hand the same one out twice in a row). */
async function freePorts(n: number): Promise<number[]> {
  const ports = new Set<number>()
  while (ports.size < n) ports.add(await freePort())
  return [...ports]
}

/**
 * The node's `rabbitmq.conf`: AMQP and the management listener on 127.0.0.1 only, the seed
 * imported at boot, statistics every second (so the UI's and the checks' message counts settle
 * quickly), logs to a file in the temp dir only.
 */
function configFile(amqpPort: number, httpPort: number, definitionsPath: string): string {
  return [
    `listeners.tcp.1 = 127.0.0.1:${amqpPort}`,
    'management.tcp.ip = 127.0.0.1',
    `management.tcp.port = ${httpPort}`,
    `load_definitions = ${definitionsPath}`,
    'collect_statistics_interval = 1000',
    'log.console = false',
    'log.file.level = warning',
    '',
  ].join('\n')
}

/** Publishes every seeded message, in order, to the default exchange of its queue's vhost. */
async function publishSeedMessages(origin: string): Promise<void> {
  const authorization = basicAuth(USER)
  let n = 0
  for (const q of QUEUES)
    for (const payload of q.messages) {
      n++
      const res = await fetch(
        `${origin}/api/exchanges/${encodeURIComponent(q.vhost)}/amq.default/publish`,
        {
          method: 'POST',
          headers: { authorization, 'content-type': 'application/json' },
          body: JSON.stringify({
            routing_key: q.name,
            payload,
            payload_encoding: 'string',
            properties: {
              delivery_mode: 2,
              content_type: 'text/plain',
              message_id: `seed-${n}`,
              timestamp: SEED_TIMESTAMP,
            },
          }),
        },
      )
      const answer = (await res.json()) as { routed?: boolean }
      if (!res.ok || !answer.routed) throw new Error(`seeding ${q.name} answered ${res.status}`)
    }
}

/**
 * `imported` once the definitions file is all in: every seeded queue listed and every seeded
 * binding present (bindings come last in an import); else what is still missing.
 */
async function seedImported(origin: string): Promise<string> {
  const get = async (path: string): Promise<unknown[] | string> => {
    const res = await fetch(`${origin}${path}`, {
      headers: { authorization: basicAuth(USER) },
      signal: AbortSignal.timeout(3000),
    })
    if (!res.ok) {
      await res.arrayBuffer()
      return `GET ${path} answered ${res.status}`
    }
    return (await res.json()) as unknown[]
  }
  const queues = await get('/api/queues?columns=name,vhost')
  if (typeof queues === 'string') return queues
  if (queues.length < QUEUES.length) return `${queues.length} of ${QUEUES.length} queues`
  const seeded = (definitions() as { bindings: unknown[] }).bindings.length
  const bindings = await get('/api/bindings')
  if (typeof bindings === 'string') return bindings
  // Each queue also has its implicit binding to the default exchange (source "").
  const own = bindings.filter((b) => (b as { source: string }).source !== '').length
  return own < seeded ? `${own} of ${seeded} bindings` : 'imported'
}

/** True once `GET /api/queues` shows every seeded queue with its seeded message count. */
async function countsSettled(origin: string): Promise<boolean> {
  const res = await fetch(`${origin}/api/queues?columns=name,vhost,messages`, {
    headers: { authorization: basicAuth(USER) },
  })
  if (!res.ok) return false
  const listed = (await res.json()) as Array<{ name: string; vhost: string; messages?: number }>
  return QUEUES.every((q) =>
    listed.some(
      (l) => l.name === q.name && l.vhost === q.vhost && l.messages === q.messages.length,
    ),
  )
}

/**
 * Starts a fresh node in a new temp dir; resolves once the management API answers, the seed
 * messages are published and the statistics show them. Stops by itself after `lifetimeMs`;
 * rejects, after cleaning up, when it does not come up.
 */
export async function startRabbit(lifetimeMs: number): Promise<RabbitServer> {
  const dir = mkdtempSync(join(tmpdir(), 'sitecall-rabbitmq-'))
  const [amqpPort, httpPort, distPort, epmdPort] = (await freePorts(4)) as [
    number,
    number,
    number,
    number,
  ]
  const home = join(dir, 'home')
  mkdirSync(home)
  // A fixed cookie in a private HOME: erl never reads or writes the system's.
  writeFileSync(join(home, '.erlang.cookie'), 'SITECALLCORPUSRABBITCOOKIE', { mode: 0o600 })
  writeFileSync(join(dir, 'enabled_plugins'), '[rabbitmq_management].\n')
  writeFileSync(join(dir, 'rabbitmq-env.conf'), '')
  const definitionsPath = join(dir, 'definitions.json')
  writeFileSync(definitionsPath, JSON.stringify(definitions(), null, 2))
  writeFileSync(join(dir, 'rabbitmq.conf'), configFile(amqpPort, httpPort, definitionsPath))

  let epmd: ServerProcess | null = null
  let forgetEpmd = (): void => {}
  let forgetServer = (): void => {}
  // SIGKILL at once: the node's data is removed next, and a graceful stop takes seconds.
  const stopper = instanceStopper(
    async () => {
      forgetServer()
      await killGroup(epmd?.child, { first: 'SIGKILL', graceMs: 3000 })
      forgetEpmd()
      rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 })
    },
    { first: 'SIGKILL', graceMs: 5000 },
  )
  stopper.expireAfter(lifetimeMs)

  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    LANG: 'C.UTF-8',
    HOME: home,
    ERL_EPMD_PORT: String(epmdPort),
    ERL_EPMD_ADDRESS: '127.0.0.1',
    RABBITMQ_NODENAME: `sitecall-${amqpPort}@localhost`,
    RABBITMQ_NODE_IP_ADDRESS: '127.0.0.1',
    RABBITMQ_NODE_PORT: String(amqpPort),
    RABBITMQ_DIST_PORT: String(distPort),
    RABBITMQ_MNESIA_BASE: join(dir, 'mnesia'),
    RABBITMQ_LOG_BASE: join(dir, 'log'),
    RABBITMQ_ENABLED_PLUGINS_FILE: join(dir, 'enabled_plugins'),
    RABBITMQ_CONFIG_FILE: join(dir, 'rabbitmq.conf'),
    RABBITMQ_CONF_ENV_FILE: join(dir, 'rabbitmq-env.conf'),
    RABBITMQ_ADVANCED_CONFIG_FILE: join(dir, 'advanced.config'),
    RABBITMQ_PLUGINS_EXPAND_DIR: join(dir, 'plugins-expand'),
    RABBITMQ_PID_FILE: join(dir, 'rabbitmq.pid'),
    RABBITMQ_FEATURE_FLAGS_FILE: join(dir, 'feature_flags'),
    // Erlang distribution on loopback only (it listens on every interface by default).
    RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS: '-kernel inet_dist_use_interface {127,0,0,1}',
  }

  const origin = `http://127.0.0.1:${httpPort}`
  let server: ServerProcess | null = null
  try {
    epmd = spawnServer(EPMD, ['-port', String(epmdPort), '-address', '127.0.0.1'], {
      env,
      output: { stderr: true },
    })
    forgetEpmd = killOnExit(epmd.child)
    server = spawnServer(RABBITMQ_SERVER, [], {
      cwd: dir,
      env,
      output: { stdout: true, stderr: true },
    })
    stopper.server = server.child
    forgetServer = killOnExit(server.child)
    let last = 'no answer'
    // The API answers before the boot's definitions import is done (a user may already sign in
    // while its permissions are not there yet): ready once every seeded queue and binding shows.
    const answers = async (): Promise<boolean> => {
      try {
        last = await seedImported(origin)
        return last === 'imported'
      } catch (error) {
        last = String(error)
        return false
      }
    }
    await waitUntil('rabbitmq', server.child, answers, {
      timeoutMs: 90_000,
      intervalMs: 300,
      detail: () => last,
    })
    await publishSeedMessages(origin)
    const deadline = Date.now() + 20_000
    while (!(await countsSettled(origin))) {
      if (Date.now() > deadline) throw new Error('the seeded message counts never showed')
      await delay(250)
    }
    return { origin, close: stopper.stop }
  } catch (error) {
    await stopper.stop()
    const message = error instanceof Error ? error.message : String(error)
    throw new Error(`${message}\n${server?.log() ?? ''}`)
  }
}
