/**
 * The deterministic seed of a graphite-web instance: the admin user, saved dashboards, events,
 * and the metrics whose whisper files hold twelve hours of points (one a minute). `seed.py`
 * puts it in before the web server starts, through Django's own models and the `whisper`
 * module; this file is the one place the values are named, so keys and persons read them here.
 */

/** The superuser the workflows sign in as (Django admin and the account login form). */
export const ADMIN = {
  name: 'opsadmin',
  email: 'opsadmin@example.test',
  password: 'Sitecall-Graphs-2026',
}

/** Metric paths with whisper files, in the order seed.py numbers them. */
export const METRICS = [
  'servers.web01.cpu.user',
  'servers.web01.cpu.system',
  'servers.web01.memory.used',
  'servers.web02.cpu.user',
  'servers.web02.cpu.system',
  'servers.web02.memory.used',
  'servers.db01.cpu.user',
  'servers.db01.disk.used',
  'servers.db02.cpu.user',
  'servers.db02.disk.used',
  'apps.checkout.requests',
  'apps.checkout.errors',
  'apps.search.requests',
  'apps.search.errors',
]

/** Saved dashboards: [name, the metric of each graph]. */
export const DASHBOARDS: Array<[string, string[]]> = [
  ['Web overview', ['servers.web01.cpu.user', 'servers.web02.cpu.user']],
  ['Web errors', ['apps.checkout.errors', 'apps.search.errors']],
  ['Database capacity', ['servers.db01.disk.used', 'servers.db02.disk.used']],
  ['Checkout funnel', ['apps.checkout.requests']],
  ['Old capacity plan', ['servers.db01.disk.used']],
  ['Legacy mail queue', ['servers.web01.memory.used']],
  ['Summer load test', ['apps.search.requests']],
]

/** Events: [what, space-separated tags, data, hours before the seed]. */
const EVENTS: Array<[string, string, string, number]> = [
  ['Deploy checkout v2.3', 'deploy checkout', 'Rolled out by CI', 5],
  ['Deploy search v1.8', 'deploy search', 'Rolled out by CI', 4],
  ['DB failover drill', 'drill database', 'Planned drill on db02', 3],
  ['Kernel patch web01', 'maintenance web', 'Rebooted after patching', 2],
  ['Test event please ignore', 'test', 'Sent while setting up', 1],
  ['Load balancer restart', 'maintenance network', 'Config reload', 6],
]

/** The seed as seed.py reads it (a JSON file in the instance's dir). */
export function seedJson(): string {
  return JSON.stringify({
    admin: ADMIN,
    metrics: METRICS,
    dashboards: DASHBOARDS,
    events: EVENTS,
  })
}
