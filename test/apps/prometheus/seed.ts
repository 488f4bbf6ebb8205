/**
 * The deterministic content of every Prometheus instance: the metrics its two scraped exporters
 * serve (fixed names, labels and values), the backfilled past window (OpenMetrics turned into
 * TSDB blocks by promtool), the configuration and the rules. The same series, values, rules and
 * alert states on every start, so stored traces stay valid.
 */

/** One exposed sample: a metric name, its labels, a fixed value. */
interface Sample {
  name: string
  labels: Record<string, string>
  value: number
}

/** One exporter: the job and instance labels Prometheus gives its series, and what it serves. */
export interface Exporter {
  job: string
  instance: string
  /** `# HELP` and `# TYPE` per metric family, in the order served. */
  families: Array<{ name: string; type: 'counter' | 'gauge'; help: string }>
  samples: Sample[]
}

/** Orders placed in the shop, by region and status (a counter that never moves). */
export const SHOP_ORDERS: Record<string, Record<string, number>> = {
  eu: { paid: 1284, refunded: 37, failed: 12 },
  us: { paid: 2210, refunded: 54, failed: 19 },
  apac: { paid: 736, refunded: 9, failed: 4 },
}

/** Temperatures of the warehouse rooms, °C: the dock is too hot (its alert fires). */
export const ROOM_TEMPERATURES: Record<string, number> = {
  dock: 27.5,
  freezer: -18.5,
  office: 21.25,
}

/** The shop's exporter: orders, open carts and the checkout error ratio. */
export const SHOP: Exporter = {
  job: 'shop',
  instance: 'shop-1',
  families: [
    { name: 'shop_orders_total', type: 'counter', help: 'Orders placed, by region and status.' },
    { name: 'shop_open_carts', type: 'gauge', help: 'Carts with items that are not paid yet.' },
    {
      name: 'shop_checkout_errors_ratio',
      type: 'gauge',
      help: 'Share of checkouts that failed in the last five minutes.',
    },
  ],
  samples: [
    ...Object.entries(SHOP_ORDERS).flatMap(([region, byStatus]) =>
      Object.entries(byStatus).map(([status, value]) => ({
        name: 'shop_orders_total',
        labels: { region, status },
        value,
      })),
    ),
    { name: 'shop_open_carts', labels: { region: 'eu' }, value: 42 },
    { name: 'shop_open_carts', labels: { region: 'us' }, value: 67 },
    { name: 'shop_open_carts', labels: { region: 'apac' }, value: 15 },
    { name: 'shop_checkout_errors_ratio', labels: {}, value: 0.08 },
  ],
}

/** The warehouse's exporter: room temperatures and stock per SKU. */
export const WAREHOUSE: Exporter = {
  job: 'warehouse',
  instance: 'warehouse-1',
  families: [
    {
      name: 'warehouse_temperature_celsius',
      type: 'gauge',
      help: 'Air temperature per room, in degrees Celsius.',
    },
    { name: 'warehouse_stock_items', type: 'gauge', help: 'Items on the shelves, per SKU.' },
  ],
  samples: [
    ...Object.entries(ROOM_TEMPERATURES).map(([room, value]) => ({
      name: 'warehouse_temperature_celsius',
      labels: { room },
      value,
    })),
    { name: 'warehouse_stock_items', labels: { sku: 'SKU-1042' }, value: 310 },
    { name: 'warehouse_stock_items', labels: { sku: 'SKU-2077' }, value: 48 },
    { name: 'warehouse_stock_items', labels: { sku: 'SKU-3310' }, value: 0 },
  ],
}

/** A label value as the text exposition format quotes it. */
function quote(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`
}

/** `{a="1",b="2"}`, or '' for no labels. */
function labelText(labels: Record<string, string>): string {
  const parts = Object.entries(labels).map(([k, v]) => `${k}=${quote(v)}`)
  return parts.length ? `{${parts.join(',')}}` : ''
}

/** The exporter's answer to `GET /metrics`, in the Prometheus text exposition format 0.0.4. */
export function exposition(exporter: Exporter): string {
  const lines: string[] = []
  for (const family of exporter.families) {
    lines.push(`# HELP ${family.name} ${family.help}`, `# TYPE ${family.name} ${family.type}`)
    for (const s of exporter.samples.filter((x) => x.name === family.name))
      lines.push(`${s.name}${labelText(s.labels)} ${s.value}`)
  }
  return lines.join('\n') + '\n'
}

/** 2026-01-15T00:00:00Z: where the backfilled window starts (Unix seconds). */
const BACKFILL_START = 1768435200
/** 2026-01-15T12:00:00Z: where it ends, and the end the fixed-window graph picks. */
export const BACKFILL_END = 1768478400
/** Seconds between two backfilled samples. */
const BACKFILL_STEP = 300

/** Power drawn per data-centre site at the start of the backfilled day, kW. */
const SITE_BASE_KW: Record<string, number> = { berlin: 410, paris: 385, madrid: 290 }

/**
 * The backfilled power of `site` at Unix second `t` of the window: the site's base, plus 5 kW
 * for every full hour since the window began (a staircase, so every hour reads differently).
 */
export function sitePowerAt(site: string, t: number): number {
  return SITE_BASE_KW[site]! + 5 * Math.floor((t - BACKFILL_START) / 3600)
}

/** Metrics of a retired batch system, only in the backfilled window. */
const LEGACY_METRICS = [
  'legacy_queue_depth',
  'legacy_cron_runs_total',
  'legacy_mail_sent_total',
  'legacy_disk_free_bytes',
] as const

/** The value of legacy metric `name` at the `i`-th backfilled sample. */
function legacyValue(name: (typeof LEGACY_METRICS)[number], i: number): number {
  switch (name) {
    case 'legacy_queue_depth':
      return 12 + (i % 7)
    case 'legacy_cron_runs_total':
      return i
    case 'legacy_mail_sent_total':
      return 3 * i
    case 'legacy_disk_free_bytes':
      return 52_000_000_000 - 1_000_000 * i
  }
}

/** A metric's OpenMetrics family name: a counter's sample name without its `_total`. */
function omFamily(name: string, type: 'counter' | 'gauge'): string {
  return type === 'counter' ? name.replace(/_total$/, '') : name
}

/**
 * The OpenMetrics text (without its `# EOF`) of the fixed past window: the power per site and the
 * legacy metrics, one sample every 5 minutes.
 */
function pastOpenMetrics(): string {
  const times: number[] = []
  for (let t = BACKFILL_START; t <= BACKFILL_END; t += BACKFILL_STEP) times.push(t)
  const lines: string[] = [
    '# HELP datacenter_power_kilowatts Power drawn per data-centre site.',
    '# TYPE datacenter_power_kilowatts gauge',
  ]
  for (const site of Object.keys(SITE_BASE_KW))
    for (const t of times)
      lines.push(
        `datacenter_power_kilowatts{instance="dc-meter-1",job="datacenter",site="${site}"} ${sitePowerAt(site, t)} ${t}`,
      )
  for (const name of LEGACY_METRICS) {
    const type = name.endsWith('_total') ? 'counter' : 'gauge'
    const family = omFamily(name, type)
    lines.push(`# HELP ${family} Kept from the retired batch system.`, `# TYPE ${family} ${type}`)
    times.forEach((t, i) =>
      lines.push(`${name}{instance="old-batch-1",job="legacy-batch"} ${legacyValue(name, i)} ${t}`),
    )
  }
  return lines.join('\n') + '\n'
}

/**
 * What `promtool tsdb create-blocks-from openmetrics` turns into the blocks a start begins with:
 * the fixed past window, and the exporters' hour before `now` (Unix seconds).
 */
export function backfillOpenMetrics(now: number): string {
  return pastOpenMetrics() + recentOpenMetrics(now) + '# EOF\n'
}

/** Seconds between two samples of the exporters' hour backfilled before a start. */
const RECENT_STEP = 15

/**
 * The OpenMetrics text of the exporters' last hour before a start at Unix second `now`: their
 * fixed values every 15 s from `now` − 1 h up to just before `now`, with the job and instance
 * labels the scrapes give them. A graph of "the last hour" then shows a full hour on a fresh
 * instance too (the scrapes go on from there with the same values).
 */
function recentOpenMetrics(now: number): string {
  const end = Math.floor(now / RECENT_STEP) * RECENT_STEP - RECENT_STEP
  const times: number[] = []
  for (let t = end - 3600 + RECENT_STEP; t <= end; t += RECENT_STEP) times.push(t)
  const lines: string[] = []
  for (const exporter of [SHOP, WAREHOUSE])
    for (const family of exporter.families) {
      const name = omFamily(family.name, family.type)
      lines.push(`# HELP ${name} ${family.help}`, `# TYPE ${name} ${family.type}`)
      for (const sample of exporter.samples.filter((x) => x.name === family.name)) {
        const labels = labelText({
          ...sample.labels,
          instance: exporter.instance,
          job: exporter.job,
        })
        for (const t of times) lines.push(`${sample.name}${labels} ${sample.value} ${t}`)
      }
    }
  return lines.join('\n') + '\n'
}

/** The ports and paths the configuration names, known only once the instance has them. */
export interface ConfigPlaces {
  prometheusPort: number
  shopPort: number
  warehousePort: number
  rulesFile: string
}

/**
 * `prometheus.yml`: short intervals so a start settles in seconds; four jobs with fixed
 * `instance` labels (the ports differ per start, the series must not): Prometheus itself, the
 * two exporters, and a retired billing target on port 1, where nothing listens, so it is always
 * down.
 */
export function prometheusYml(places: ConfigPlaces): string {
  const job = (name: string, target: string, instance: string) =>
    [
      `  - job_name: ${name}`,
      '    static_configs:',
      `      - targets: ['${target}']`,
      '        labels:',
      `          instance: ${instance}`,
    ].join('\n')
  return [
    'global:',
    '  scrape_interval: 2s',
    '  scrape_timeout: 1s',
    '  evaluation_interval: 1s',
    'rule_files:',
    `  - ${places.rulesFile}`,
    'scrape_configs:',
    job('prometheus', `127.0.0.1:${places.prometheusPort}`, 'prometheus-1'),
    job(SHOP.job, `127.0.0.1:${places.shopPort}`, SHOP.instance),
    job(WAREHOUSE.job, `127.0.0.1:${places.warehousePort}`, WAREHOUSE.instance),
    job('legacy-billing', '127.0.0.1:1', 'billing-1'),
    '',
  ].join('\n')
}

/**
 * The rules file: one recording rule, and alerts whose state is fixed by the seeded values:
 * WarehouseTooHot and ScrapeTargetDown fire, ShopCheckoutErrorsHigh stays pending (its `for`
 * outlasts an instance), ShopNoOrders and FreezerTooWarm stay inactive.
 */
export const RULES_YML = `groups:
  - name: shop
    rules:
      - record: region:shop_orders:sum
        expr: sum by (region) (shop_orders_total)
      - alert: ShopCheckoutErrorsHigh
        expr: shop_checkout_errors_ratio > 0.05
        for: 1h
        labels:
          severity: ticket
        annotations:
          summary: More than 5% of checkouts fail.
      - alert: ShopNoOrders
        expr: sum(shop_orders_total) == 0
        labels:
          severity: page
        annotations:
          summary: The shop has taken no orders at all.
  - name: warehouse
    rules:
      - alert: WarehouseTooHot
        expr: warehouse_temperature_celsius{room!="freezer"} > 25
        labels:
          severity: page
        annotations:
          summary: Room {{ $labels.room }} is at {{ $value }} °C.
      - alert: FreezerTooWarm
        expr: warehouse_temperature_celsius{room="freezer"} > -10
        labels:
          severity: page
        annotations:
          summary: The freezer is at {{ $value }} °C.
  - name: targets
    rules:
      - alert: ScrapeTargetDown
        expr: up == 0
        labels:
          severity: ticket
        annotations:
          summary: Target {{ $labels.instance }} of job {{ $labels.job }} is down.
`
