/**
 * The deterministic seed of every LDAP Account Manager instance: a private OpenLDAP directory
 * under `dc=example,dc=org` (its slapd.conf and the LDIF loaded with slapadd before slapd starts)
 * with Unix accounts (inetOrgPerson + posixAccount + shadowAccount) and Unix groups (posixGroup,
 * members by `memberUid`), and LAM's own configuration for it: the main `config.cfg` and the
 * server profile `lam.conf` (LAM's "Unix" sample, pointed at this directory). Fixed uids, numbers,
 * mails and phones, so every start looks the same and stored recordings replay on a fresh instance.
 */

/** The directory's suffix. */
export const SUFFIX = 'dc=example,dc=org'
/** Where users live (LAM's "Users" account type). */
export const PEOPLE = `ou=people,${SUFFIX}`
/** Where groups live (LAM's "Groups" account type). */
export const GROUPS = `ou=groups,${SUFFIX}`
/** The directory's administrator: the one LAM admin (the server profile's `Admins`). */
export const ADMIN = { dn: `cn=admin,${SUFFIX}`, password: 'Ldap-admin-2026' }
/**
 * The password of LAM's own settings pages (the server profile's `Passwd` and the main
 * configuration's): not the Debian default `lam`, so it never matches a path or a value by chance.
 */
const CONFIG_PASSWORD = 'Lam-settings-2026'

/** A seeded user: `uid=<uid>,ou=people,dc=example,dc=org`. */
export interface User {
  uid: string
  givenName: string
  sn: string
  mail: string
  phone: string
  uidNumber: number
  /** Primary group (a gidNumber of {@link GROUPS_SEED}). */
  gidNumber: number
}

/** Everybody in ou=people, in uid order. */
export const USERS_SEED: User[] = [
  ['amara', 'Amara', 'Okafor', '+234 1 700 0101'],
  ['bastian', 'Bastian', 'Vogel', '+49 89 700 0102'],
  ['chiara', 'Chiara', 'Rinaldi', '+39 02 700 0103'],
  ['diego', 'Diego', 'Alvarez', '+34 93 700 0104'],
  ['eino', 'Eino', 'Virtanen', '+358 9 700 0105'],
  ['fatima', 'Fatima', 'Benali', '+212 5 2270 0106'],
  ['goran', 'Goran', 'Petrovic', '+381 11 700 0107'],
  ['hanna', 'Hanna', 'Nilsson', '+46 31 700 0108'],
  ['ivan', 'Ivan', 'Sokolov', '+7 495 700 0109'],
  ['julia', 'Julia', 'Rinaldi', '+39 06 700 0110'],
  ['kenji', 'Kenji', 'Watanabe', '+81 6 7000 0111'],
  ['leila', 'Leila', 'Haddad', '+961 1 700 112'],
  ['milan', 'Milan', 'Novak', '+420 2 7000 0113'],
  ['noor', 'Noor', 'Rahman', '+880 2 700 0114'],
  ['olga', 'Olga', 'Kowalska', '+48 12 700 0115'],
].map(([uid, givenName, sn, phone], i) => ({
  uid: uid!,
  givenName: givenName!,
  sn: sn!,
  mail: `${uid}@example.org`,
  phone: phone!,
  uidNumber: 10001 + i,
  gidNumber: 10000,
}))

/** A seeded group: `cn=<cn>,ou=groups,dc=example,dc=org`, a posixGroup. */
export interface Group {
  cn: string
  gidNumber: number
  description: string
  /** `memberUid` values (uids, not DNs). */
  members: string[]
}

/** Everything in ou=groups. */
export const GROUPS_SEED: Group[] = [
  { cn: 'staff', gidNumber: 10000, description: 'Everybody', members: [] },
  {
    cn: 'developers',
    gidNumber: 10001,
    description: 'Software developers',
    members: ['amara', 'diego'],
  },
  { cn: 'designers', gidNumber: 10002, description: 'Product designers', members: ['bastian'] },
  { cn: 'support', gidNumber: 10003, description: 'Customer support', members: ['fatima'] },
  { cn: 'finance', gidNumber: 10004, description: 'Finance team', members: ['chiara'] },
  { cn: 'interns', gidNumber: 10005, description: 'Interns of the year', members: ['noor'] },
]

/** The DN of the seeded user `uid`. */
export const userDn = (uid: string) => `uid=${uid},${PEOPLE}`
/** The DN of the seeded group `cn`. */
export const groupDn = (cn: string) => `cn=${cn},${GROUPS}`

/** The whole seed as LDIF, for slapadd. */
export function seedLdif(): string {
  const blocks: string[] = [
    `dn: ${SUFFIX}\nobjectClass: dcObject\nobjectClass: organization\ndc: example\no: Example Org`,
    `dn: ${PEOPLE}\nobjectClass: organizationalUnit\nou: people`,
    `dn: ${GROUPS}\nobjectClass: organizationalUnit\nou: groups`,
  ]
  for (const u of USERS_SEED)
    blocks.push(
      [
        `dn: ${userDn(u.uid)}`,
        'objectClass: inetOrgPerson',
        'objectClass: posixAccount',
        'objectClass: shadowAccount',
        `uid: ${u.uid}`,
        `cn: ${u.givenName} ${u.sn}`,
        `givenName: ${u.givenName}`,
        `sn: ${u.sn}`,
        `mail: ${u.mail}`,
        `telephoneNumber: ${u.phone}`,
        `uidNumber: ${u.uidNumber}`,
        `gidNumber: ${u.gidNumber}`,
        `homeDirectory: /home/${u.uid}`,
        'loginShell: /bin/bash',
      ].join('\n'),
    )
  for (const g of GROUPS_SEED)
    blocks.push(
      [
        `dn: ${groupDn(g.cn)}`,
        'objectClass: posixGroup',
        `cn: ${g.cn}`,
        `gidNumber: ${g.gidNumber}`,
        `description: ${g.description}`,
        ...g.members.map((m) => `memberUid: ${m}`),
      ].join('\n'),
    )
  return blocks.join('\n\n') + '\n'
}

/** slapd.conf of the instance: the schemas posixAccount needs, one mdb database in `dir`. */
export function slapdConf(dir: string): string {
  return [
    'include /etc/ldap/schema/core.schema',
    'include /etc/ldap/schema/cosine.schema',
    'include /etc/ldap/schema/nis.schema',
    'include /etc/ldap/schema/inetorgperson.schema',
    `pidfile ${dir}/slapd.pid`,
    `argsfile ${dir}/slapd.args`,
    'modulepath /usr/lib/ldap',
    'moduleload back_mdb',
    'database mdb',
    // A small map: the seed is a few KB, and several apps share the machine.
    'maxsize 16777216',
    `suffix "${SUFFIX}"`,
    `rootdn "${ADMIN.dn}"`,
    `rootpw ${ADMIN.password}`,
    `directory ${dir}/db`,
    'index objectClass eq',
    'index uid,cn,mail,memberUid eq,sub',
    '',
  ].join('\n')
}

/**
 * LAM's main configuration (`config/config.cfg`): the settings password, the default server
 * profile `lam`, and no logging (the default is syslog, which a test has no business writing).
 */
export function mainConfig(): string {
  return [
    `password: ${CONFIG_PASSWORD}`,
    'default: lam',
    'logLevel: 4',
    'logDestination: NONE',
    'configDatabaseType: files',
    'license:',
    '',
  ].join('\n')
}

/**
 * The server profile `lam.conf`: the private slapd on `ldapPort`, the admin as the one login,
 * users (Personal, Unix and Shadow modules) under ou=people and Unix groups under ou=groups, with
 * the user list showing mail and phone. `cachetimeout: 0` so lists always read the directory.
 */
export function serverProfile(ldapPort: number): string {
  return [
    `ServerURL: ldap://127.0.0.1:${ldapPort}`,
    `Admins: ${ADMIN.dn}`,
    `Passwd: ${CONFIG_PASSWORD}`,
    `tools: treeViewSuffix: ${SUFFIX}`,
    'defaultLanguage: en_GB.utf8',
    'scriptPath:',
    'scriptServer:',
    'scriptRights: 750',
    'cachetimeout: 0',
    'searchLimit: 0',
    'modules: posixAccount_user_minUID: 10000',
    'modules: posixAccount_user_maxUID: 30000',
    'modules: posixAccount_host_minMachine: 50000',
    'modules: posixAccount_host_maxMachine: 60000',
    'modules: posixGroup_group_minGID: 10000',
    'modules: posixGroup_group_maxGID: 20000',
    'modules: posixAccount_user_uidGeneratorUsers: range',
    'modules: posixAccount_host_uidGeneratorUsers: range',
    'modules: posixAccount_group_gidGeneratorUsers: range',
    'modules: posixGroup_pwdHash: SSHA',
    'modules: posixAccount_pwdHash: SSHA',
    'activeTypes: user,group',
    `types: suffix_user: ${PEOPLE}`,
    'types: attr_user: #uid;#givenName;#sn;#mail;#telephoneNumber;#uidNumber',
    'types: modules_user: inetOrgPerson,posixAccount,shadowAccount',
    `types: suffix_group: ${GROUPS}`,
    'types: attr_group: #cn;#gidNumber;#memberUID;#description',
    'types: modules_group: posixGroup',
    '',
  ].join('\n')
}
