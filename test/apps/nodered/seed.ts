/**
 * The deterministic seed of the Node-RED instance: the flows file (six tabs with fixed ids, so
 * stored traces stay valid and the flows' `rev` hash is the same on every start) and the editor
 * user. Every inject node is wired to a "count runs" function that counts its runs in the
 * global context, so a key can see through the admin API that an inject really fired.
 */

/** One editor user of `adminAuth`: bcrypt hashes precomputed with node-red's own bcryptjs. */
export interface SeedUser {
  name: string
  password: string
  hash: string
}

/** The user the workflows sign in as (full permissions). */
export const USER: SeedUser = {
  name: 'operator',
  password: 'Flows-are-fun-42',
  hash: '$2a$08$03tDoK7OIme9zY4vlSafoucukeaPonPO4P2Oel/ZDQWFil6KyVyqq',
}

/**
 * Two more editor users with the operator's password: the login key's user name is an input
 * (the person typed it) while the password is the saved secret, so other names that the same
 * password opens are what the login tool can be called with.
 */
export const OTHER_USER_NAMES: [string, string] = ['auditor', 'deployer']

/** Ids of the seeded tabs (Node-RED ids are 16 hex digits). */
export const TAB = {
  nightly: 'f1a0000000000001',
  reports: 'f1a0000000000002',
  alerts: 'f1a0000000000003',
  customers: 'f1a0000000000004',
  sensors: 'f1a0000000000005',
  cleanup: 'f1a0000000000006',
} as const

/** The tab labels as seeded. */
export const TAB_LABEL: Record<keyof typeof TAB, string> = {
  nightly: 'Nightly import',
  reports: 'Reports',
  alerts: 'Alerts',
  customers: 'Customer API',
  sensors: 'Sensor alerts',
  cleanup: 'Cleanup',
}

/** A node of the flows file; Node-RED keeps every type-specific property on the node itself. */
export type FlowNode = Record<string, unknown> & { id: string; type: string }

/** Counts the runs of each inject (by its topic, which is the inject's name) in global context. */
const COUNT_RUNS = [
  "const runs = global.get('runs') || {}",
  'runs[msg.topic] = (runs[msg.topic] || 0) + 1',
  "global.set('runs', runs)",
  'return msg',
].join('\n')

function tab(key: keyof typeof TAB): FlowNode {
  return { id: TAB[key], type: 'tab', label: TAB_LABEL[key], disabled: false, info: '', env: [] }
}

/** An inject whose topic is its own name, wired to the tab's "count runs" function. */
function inject(id: string, z: string, name: string, next: string, y: number): FlowNode {
  return {
    id,
    type: 'inject',
    z,
    name,
    props: [{ p: 'payload' }, { p: 'topic', vt: 'str' }],
    repeat: '',
    crontab: '',
    once: false,
    onceDelay: 0.1,
    topic: name,
    payload: '',
    payloadType: 'date',
    x: 160,
    y,
    wires: [[next]],
  }
}

function fn(
  id: string,
  z: string,
  name: string,
  func: string,
  next: string[],
  y: number,
): FlowNode {
  return {
    id,
    type: 'function',
    z,
    name,
    func,
    outputs: 1,
    timeout: 0,
    noerr: 0,
    initialize: '',
    finalize: '',
    libs: [],
    x: 400,
    y,
    wires: [next],
  }
}

function debug(id: string, z: string, name: string, y: number): FlowNode {
  return {
    id,
    type: 'debug',
    z,
    name,
    active: true,
    tosidebar: true,
    console: false,
    tostatus: false,
    complete: 'false',
    statusVal: '',
    statusType: 'auto',
    x: 640,
    y,
    wires: [],
  }
}

function httpIn(id: string, z: string, name: string, url: string, next: string, y: number) {
  const node: FlowNode = { id, type: 'http in', z, name, url, method: 'get', upload: false }
  return { ...node, swaggerDoc: '', x: 160, y, wires: [[next]] }
}

function httpResponse(id: string, z: string, name: string, y: number): FlowNode {
  return { id, type: 'http response', z, name, statusCode: '', headers: {}, x: 640, y, wires: [] }
}

/**
 * An HTTP endpoint on one row: `http in` on `url` → a function running `func` → `http response`,
 * named `names` in that order, with the ids `<base>1` to `<base>3`.
 */
function endpoint(
  base: string,
  z: string,
  names: [string, string, string],
  url: string,
  func: string,
): FlowNode[] {
  return [
    httpIn(`${base}1`, z, names[0], url, `${base}2`, 80),
    fn(`${base}2`, z, names[1], func, [`${base}3`], 80),
    httpResponse(`${base}3`, z, names[2], 80),
  ]
}

/** An inject `name` wired to a "count runs" function that ends the flow, both on row `y`. */
function countedInject(ids: [string, string], z: string, name: string, y: number): FlowNode[] {
  return [inject(ids[0], z, name, ids[1], y), fn(ids[1], z, 'count runs', COUNT_RUNS, [], y)]
}

/** The seeded flows file, in the order Node-RED itself would save it (tabs first). */
export function seedFlows(): FlowNode[] {
  const { nightly, reports, alerts, customers, sensors, cleanup } = TAB
  return [
    tab('nightly'),
    tab('reports'),
    tab('alerts'),
    tab('customers'),
    tab('sensors'),
    tab('cleanup'),
    inject('a1a0000000000001', nightly, 'run nightly import', 'a1a0000000000002', 80),
    fn('a1a0000000000002', nightly, 'count runs', COUNT_RUNS, ['a1a0000000000003'], 80),
    fn(
      'a1a0000000000003',
      nightly,
      'parse import file',
      "msg.payload = { imported: 42, source: 'orders.csv' }\nreturn msg",
      ['a1a0000000000004'],
      140,
    ),
    debug('a1a0000000000004', nightly, 'import result', 140),
    ...endpoint(
      'b1a000000000000',
      reports,
      ['daily report endpoint', 'build daily report', 'send report'],
      '/reports/daily',
      "msg.payload = { report: 'daily', rows: 3 }\nreturn msg",
    ),
    ...countedInject(
      ['b1a0000000000004', 'b1a0000000000005'],
      reports,
      'refresh reports cache',
      160,
    ),
    inject('c1a0000000000001', alerts, 'heartbeat', 'c1a0000000000002', 80),
    fn('c1a0000000000002', alerts, 'count runs', COUNT_RUNS, ['c1a0000000000003'], 80),
    fn(
      'c1a0000000000003',
      alerts,
      'check thresholds',
      'if (msg.payload > 90) { return msg }\nreturn null',
      ['c1a0000000000004'],
      140,
    ),
    debug('c1a0000000000004', alerts, 'alert log', 140),
    ...endpoint(
      'd1a000000000000',
      customers,
      ['customer endpoint', 'load customer', 'send customer'],
      '/customers/:id',
      "msg.payload = { id: msg.req.params.id, name: 'Ada Lovelace' }\nreturn msg",
    ),
    ...countedInject(
      ['d1a0000000000004', 'd1a0000000000005'],
      customers,
      'rebuild search index',
      160,
    ),
    ...countedInject(['e1a0000000000001', 'e1a0000000000002'], sensors, 'poll sensors', 80),
    ...countedInject(['e2a0000000000001', 'e2a0000000000002'], cleanup, 'purge old logs', 80),
  ]
}
