/**
 * The deterministic seed of Cacti, put into the template database once, right after Cacti's own
 * command-line installer (`cli/install_cacti.php`) ran: sites by SQL, devices through Cacti's own
 * `cli/add_device.php` (no SNMP, no availability checks: the addresses lead nowhere), users through
 * `cli/copy_user.php`, and the admin's password. Ids come from AUTO_INCREMENT in call order, so
 * they are the same in every template.
 */
import { join } from 'node:path'
import { DB, run, sql } from './mariadb'

/**
 * The stock admin of a fresh Cacti, whom every workflow signs in as, with a password of its own
 * (the stock `admin` would appear in every URL of `user_admin.php`, and it must be changed at the
 * first login).
 */
export const ADMIN = { name: 'admin', password: 'Sitecall-Cacti-2026' }

/** Cacti's own sites (Edge 1, Core 2) plus these, in id order (3, 4, 5): [name, city, country]. */
export const SITES: Array<[string, string, string]> = [
  ['Head Office', 'London', 'United Kingdom'],
  ['Paris Branch', 'Paris', 'France'],
  ['Lab', 'Leeds', 'United Kingdom'],
]

/** Every site's name by id, Cacti's two first. */
export const SITE_IDS: Record<string, number> = {
  Edge: 1,
  Core: 2,
  'Head Office': 3,
  'Paris Branch': 4,
  Lab: 5,
}

/** The Device Template `Generic SNMP Device` the installer imports (id 6 in every install). */
const GENERIC_SNMP = 6

/** Devices added by the seed, in id order (1..9): [description, hostname, site, template id]. */
export const DEVICES: Array<[string, string, string, number]> = [
  ['web-01', '10.20.0.11', 'Core', GENERIC_SNMP],
  ['web-02', '10.20.0.12', 'Core', GENERIC_SNMP],
  ['db-01', '10.20.0.21', 'Core', GENERIC_SNMP],
  ['db-02', '10.20.0.22', 'Core', 0],
  ['printer-hall', '10.20.1.40', 'Head Office', 0],
  ['old-kiosk', '10.20.1.90', 'Edge', 0],
  ['retired-scanner', '10.20.1.91', 'Edge', 0],
  ['spare-switch', '10.20.1.92', 'Edge', 0],
  ['lab-pi', '10.20.5.10', 'Lab', 0],
]

/** Users copied from Cacti's `guest` template user: [username, full name, email]. */
export const USERS: Array<[string, string, string]> = [
  ['alice.martin', 'Alice Martin', 'alice.martin@example.org'],
  ['bruno.keller', 'Bruno Keller', 'bruno.keller@example.org'],
  ['chloe.dubois', 'Chloe Dubois', 'chloe.dubois@example.org'],
]

/**
 * Settings the seed changes (Configuration → Settings → Device Defaults): new devices get no
 * Device Template, no SNMP and no availability check, as on a site that monitors nothing over
 * SNMP, so saving a device does not wait for SNMP or ping timeouts against addresses that lead
 * nowhere. The mail sender is set so the Mail tab holds values to change.
 */
export const SETTINGS: Record<string, string> = {
  default_template: '0',
  snmp_version: '0',
  availability_method: '0',
  settings_from_email: 'cacti@example.org',
  settings_from_name: 'Cacti Monitoring',
}

const quote = (value: string) => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`

/**
 * Puts the seed into the installed Cacti whose tree is `cactiDir` (the copy's `cli/` runs against
 * the config pointing at `socket`), with `php` and the options the instance's PHP uses.
 */
export async function seedInstalledCacti(
  cactiDir: string,
  socket: string,
  php: string[],
): Promise<void> {
  const cli = (script: string, args: string[]) =>
    run(php[0]!, [...php.slice(1), join(cactiDir, 'cli', script), ...args], { cwd: cactiDir })
  await sql(
    socket,
    SITES.map(
      ([name, city, country]) =>
        `INSERT INTO sites (name, city, country) VALUES (${quote(name)}, ${quote(city)}, ${quote(country)});`,
    ).join('\n'),
    DB.name,
  )
  for (const [description, hostname, site, template] of DEVICES) {
    const out = await cli('add_device.php', [
      `--description=${description}`,
      `--ip=${hostname}`,
      `--template=${template}`,
      `--site=${SITE_IDS[site]}`,
      '--avail=none',
      '--version=0',
    ])
    if (!/Success - new device-id/.test(out)) throw new Error(`add_device ${description}: ${out}`)
  }
  for (const [username, fullName, email] of USERS) {
    await cli('copy_user.php', ['guest', username])
    await sql(
      socket,
      `UPDATE user_auth SET full_name = ${quote(fullName)}, email_address = ${quote(email)},` +
        ` enabled = 'on', must_change_password = '' WHERE username = ${quote(username)};`,
      DB.name,
    )
  }
  await sql(
    socket,
    Object.entries(SETTINGS)
      .map(
        ([name, value]) =>
          `REPLACE INTO settings (name, value) VALUES (${quote(name)}, ${quote(value)});`,
      )
      .join('\n'),
    DB.name,
  )
  const hash = await run(php[0]!, [
    '-r',
    `echo password_hash(${quote(ADMIN.password)}, PASSWORD_DEFAULT);`,
  ])
  await sql(
    socket,
    `UPDATE user_auth SET password = ${quote(hash)}, must_change_password = '' WHERE username = 'admin';`,
    DB.name,
  )
}
