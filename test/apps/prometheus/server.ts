/**
 * Starts a private Prometheus server: Debian's `/usr/bin/prometheus` with only its own config,
 * rules, TSDB and empty console dirs in a temp dir (nothing from /etc/prometheus, no service), on
 * a free 127.0.0.1 port, as its own process group. The TSDB starts with blocks backfilled by
 * `promtool` (a fixed past window), and the two exporters of `exporters.ts` are its live targets.
 * Resolves once every target was scraped and every rule evaluated, so all starts look alike.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  freePort,
  instanceStopper,
  killOnExit,
  orStop,
  spawnServer,
  waitUntil,
} from '../childProcess'
import { serveExporter, type RunningExporter } from './exporters'
import {
  backfillOpenMetrics,
  prometheusYml,
  RULES_YML,
  SHOP,
  WAREHOUSE,
  type ConfigPlaces,
} from './seed'

/** Where Debian's `prometheus` package puts the server and its tool. */
const PROMETHEUS = '/usr/bin/prometheus'
const PROMTOOL = '/usr/bin/promtool'

/** A running Prometheus. */
export interface PrometheusServer {
  origin: string
  close(): Promise<void>
}

/** Why Prometheus cannot run here (naming the apt package), or null. */
export function prometheusUnavailable(): string | null {
  if (!existsSync(PROMETHEUS) || !existsSync(PROMTOOL))
    return 'Prometheus is not installed: apt-get install prometheus'
  return null
}

/** The JSON answer of `GET origin+path`, or null when it did not answer 200 with JSON. */
async function getJson(origin: string, path: string): Promise<unknown> {
  try {
    const res = await fetch(`${origin}${path}`)
    if (!res.ok) {
      await res.arrayBuffer()
      return null
    }
    return await res.json()
  } catch {
    // Not listening yet.
    return null
  }
}

/** The number of series an instant query answers (0 when it failed). */
async function seriesCount(origin: string, query: string): Promise<number> {
  const json = (await getJson(origin, `/api/v1/query?query=${encodeURIComponent(query)}`)) as {
    data?: { result?: unknown[] }
  } | null
  return json?.data?.result?.length ?? 0
}

/**
 * True once the instance shows its seeded state: all four targets scraped (three up, the retired
 * one down), the recording rule evaluated, and the alerts in their seeded states.
 */
async function settled(origin: string): Promise<boolean> {
  if ((await seriesCount(origin, 'up == 1')) !== 3) return false
  if ((await seriesCount(origin, 'up == 0')) !== 1) return false
  if ((await seriesCount(origin, 'region:shop_orders:sum')) !== 3) return false
  const alerts = (await getJson(origin, '/api/v1/alerts')) as {
    data?: { alerts?: Array<{ labels: Record<string, string>; state: string }> }
  } | null
  const states = new Set(
    (alerts?.data?.alerts ?? []).map((a) => `${a.labels.alertname}:${a.state}`),
  )
  return [
    'WarehouseTooHot:firing',
    'ScrapeTargetDown:firing',
    'ShopCheckoutErrorsHigh:pending',
  ].every((s) => states.has(s))
}

/**
 * Writes the config, rules and backfilled blocks, starts the exporters and Prometheus, and waits
 * until it is settled; stops by itself after `lifetimeMs`. Rejects, after removing everything,
 * when a step fails.
 */
export async function startPrometheus(lifetimeMs: number): Promise<PrometheusServer> {
  const dir = mkdtempSync(join(tmpdir(), 'sitecall-prometheus-'))
  const exporters: RunningExporter[] = []
  // SIGKILL at once: the TSDB is in a temp dir about to be removed, nothing needs flushing.
  const stopper = instanceStopper(
    async () => {
      await Promise.all(exporters.map((e) => e.close()))
      rmSync(dir, { recursive: true, force: true, maxRetries: 3 })
    },
    { first: 'SIGKILL' },
  )
  return orStop(stopper.stop, async () => {
    const shop = await serveExporter(SHOP)
    exporters.push(shop)
    const warehouse = await serveExporter(WAREHOUSE)
    exporters.push(warehouse)
    const port = await freePort()
    const origin = `http://127.0.0.1:${port}`
    const dataDir = join(dir, 'data')
    const consoles = join(dir, 'consoles')
    const libraries = join(dir, 'console_libraries')
    for (const d of [dataDir, consoles, libraries]) mkdirSync(d)
    const places: ConfigPlaces = {
      prometheusPort: port,
      shopPort: shop.port,
      warehousePort: warehouse.port,
      rulesFile: join(dir, 'rules.yml'),
    }
    const configFile = join(dir, 'prometheus.yml')
    writeFileSync(places.rulesFile, RULES_YML)
    writeFileSync(configFile, prometheusYml(places))
    // The fixed past window and the exporters' last hour, as TSDB blocks written straight into
    // the data dir before the start.
    const backfill = join(dir, 'backfill.om')
    writeFileSync(backfill, backfillOpenMetrics(Date.now() / 1000))
    execFileSync(PROMTOOL, ['tsdb', 'create-blocks-from', 'openmetrics', '-q', backfill, dataDir], {
      stdio: 'ignore',
      timeout: 60_000,
    })
    const server = spawnServer(
      PROMETHEUS,
      [
        `--config.file=${configFile}`,
        `--storage.tsdb.path=${dataDir}`,
        // The backfilled window is in the past: the default 15 days would delete it one day.
        '--storage.tsdb.retention.time=100y',
        `--web.listen-address=127.0.0.1:${port}`,
        // Empty console dirs (the defaults point into /etc/prometheus).
        `--web.console.templates=${consoles}`,
        `--web.console.libraries=${libraries}`,
        '--log.level=warn',
      ],
      { cwd: dir, output: { stderr: true } },
    )
    stopper.server = server.child
    const forget = killOnExit(server.child)
    server.child.once('exit', forget)
    stopper.expireAfter(lifetimeMs)
    await waitUntil('prometheus', server.child, () => settled(origin), {
      timeoutMs: 60_000,
      intervalMs: 250,
      detail: server.log,
    })
    return { origin, close: stopper.stop }
  })
}
