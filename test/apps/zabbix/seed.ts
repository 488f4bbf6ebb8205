/**
 * The deterministic seed of the Zabbix frontend, put in through its own JSON-RPC API
 * (`api_jsonrpc.php`, signed in as the stock `Admin`) right after a fresh database is loaded: host
 * groups, hosts in them, a user group and users. Zabbix hands out ids from its `ids` table in
 * call order, so the same calls in the same order give the same ids on every start.
 */

/**
 * The stock super admin of a fresh Zabbix database, whom every workflow signs in as, with a
 * password of its own: the stock one, `zabbix`, is in every URL (`zabbix.php`), so a recording
 * could not be checked for the typed password.
 */
export const ADMIN = { name: 'Admin', password: 'Sitecall-Mon-2026' }
/** Admin's password in a fresh database. */
const STOCK_PASSWORD = 'zabbix'

/** Host groups added by the seed, in id order (after Zabbix's own groups). */
const HOST_GROUPS = [
  'Web servers',
  'Database servers',
  'Office printers',
  'Lab devices',
  'Old kiosks',
  'Retired scanners',
  'Test benches',
]

/** Hosts added by the seed: [technical name, visible name, host group]. */
const HOSTS: Array<[string, string, string]> = [
  ['web-01', 'Web frontend 1', 'Web servers'],
  ['web-02', 'Web frontend 2', 'Web servers'],
  ['db-01', 'Primary database', 'Database servers'],
  ['db-02', 'Replica database', 'Database servers'],
  ['printer-hall', 'Hall printer', 'Office printers'],
  ['lab-pi', 'Lab Raspberry Pi', 'Lab devices'],
]

/** The user group the seeded users belong to. */
const USER_GROUP = 'Operators'

/** Users added by the seed: [username, first name, last name]. */
const USERS: Array<[string, string, string]> = [
  ['alice.martin', 'Alice', 'Martin'],
  ['bruno.keller', 'Bruno', 'Keller'],
  ['chloe.dubois', 'Chloe', 'Dubois'],
  ['david.novak', 'David', 'Novak'],
  ['erin.walsh', 'Erin', 'Walsh'],
  ['frank.ortiz', 'Frank', 'Ortiz'],
]

/** One JSON-RPC 2.0 call to `api_jsonrpc.php`; resolves its `result`, throws on an error. */
export async function apiCall<T = unknown>(
  origin: string,
  method: string,
  params: unknown,
  auth: string | null,
): Promise<T> {
  const res = await fetch(`${origin}/api_jsonrpc.php`, {
    method: 'POST',
    headers: { 'content-type': 'application/json-rpc' },
    body: JSON.stringify({ jsonrpc: '2.0', method, params, id: 1, ...(auth ? { auth } : {}) }),
  })
  const answer = (await res.json()) as { result?: T; error?: { message: string; data: string } }
  if (answer.error)
    throw new Error(`Zabbix API ${method}: ${answer.error.message} ${answer.error.data}`)
  return answer.result as T
}

/** Signs in to the API as Admin (with `password`); resolves the API token. */
function apiLogin(origin: string, password = ADMIN.password): Promise<string> {
  return apiCall<string>(origin, 'user.login', { username: ADMIN.name, password }, null)
}

/** Puts the seed in through the API of the instance at `origin`, in a fixed order. */
export async function seedThroughApi(origin: string): Promise<void> {
  const auth = await apiLogin(origin, STOCK_PASSWORD)
  const groupIds = new Map<string, string>()
  for (const name of HOST_GROUPS) {
    const { groupids } = await apiCall<{ groupids: string[] }>(
      origin,
      'hostgroup.create',
      { name },
      auth,
    )
    groupIds.set(name, groupids[0]!)
  }
  for (const [host, name, group] of HOSTS)
    await apiCall(
      origin,
      'host.create',
      { host, name, groups: [{ groupid: groupIds.get(group) }] },
      auth,
    )
  const { usrgrpids } = await apiCall<{ usrgrpids: string[] }>(
    origin,
    'usergroup.create',
    { name: USER_GROUP },
    auth,
  )
  for (const [username, name, surname] of USERS)
    await apiCall(
      origin,
      'user.create',
      {
        username,
        name,
        surname,
        passwd: 'Sitecall-Pass-2026',
        roleid: '1',
        usrgrps: [{ usrgrpid: usrgrpids[0] }],
      },
      auth,
    )
  // Last: changing one's own password ends one's other sessions.
  await apiCall(origin, 'user.update', { userid: '1', passwd: ADMIN.password }, auth)
}
