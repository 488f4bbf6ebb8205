/**
 * The deterministic seed of every phpLDAPadmin instance: a private OpenLDAP directory under
 * `dc=example,dc=org` (its slapd.conf and the LDIF loaded with slapadd before slapd starts) and
 * phpLDAPadmin's own config.php pointing at it. Fixed DNs, uids, mails and phone numbers, so
 * every start looks the same and stored recordings replay against a fresh instance.
 */

/** The directory's suffix. */
export const SUFFIX = 'dc=example,dc=org'
/** Where people live. */
export const PEOPLE = `ou=people,${SUFFIX}`
/** Where groups live. */
export const GROUPS = `ou=groups,${SUFFIX}`
/** The directory's administrator: the one account phpLDAPadmin signs in as. */
export const ADMIN = { dn: `cn=admin,${SUFFIX}`, password: 'Ldap-admin-2026' }
/**
 * The blowfish secret of phpLDAPadmin's session (it encrypts the login kept in the session):
 * fixed, so every start behaves alike.
 */
const BLOWFISH = 'f3c1a9d27b5e4c8e9a0b1c2d3e4f5a6b'

/** A seeded person: `uid=<uid>,ou=people,dc=example,dc=org`, an inetOrgPerson. */
export interface Person {
  uid: string
  givenName: string
  sn: string
  mail: string
  phone: string
  title: string
}

/** Everybody in ou=people, in uid order. */
export const PEOPLE_SEED: Person[] = [
  {
    uid: 'alice',
    givenName: 'Alice',
    sn: 'Martin',
    mail: 'alice.martin@example.org',
    phone: '+33 1 40 00 00 01',
    title: 'Engineer',
  },
  {
    uid: 'bruno',
    givenName: 'Bruno',
    sn: 'Keller',
    mail: 'bruno.keller@example.org',
    phone: '+41 44 500 00 02',
    title: 'Designer',
  },
  {
    uid: 'carla',
    givenName: 'Carla',
    sn: 'Rossi',
    mail: 'carla.rossi@example.org',
    phone: '+39 06 5000 0003',
    title: 'Accountant',
  },
  {
    uid: 'dmitri',
    givenName: 'Dmitri',
    sn: 'Volkov',
    mail: 'dmitri.volkov@example.org',
    phone: '+49 30 5000 0004',
    title: 'Engineer',
  },
  {
    uid: 'elena',
    givenName: 'Elena',
    sn: 'Garcia',
    mail: 'elena.garcia@example.org',
    phone: '+34 91 500 0005',
    title: 'Manager',
  },
  {
    uid: 'farid',
    givenName: 'Farid',
    sn: 'Haddad',
    mail: 'farid.haddad@example.org',
    phone: '+961 1 500 006',
    title: 'Support',
  },
  {
    uid: 'greta',
    givenName: 'Greta',
    sn: 'Lindqvist',
    mail: 'greta.lindqvist@example.org',
    phone: '+46 8 500 000 07',
    title: 'Engineer',
  },
  {
    uid: 'hiro',
    givenName: 'Hiro',
    sn: 'Tanaka',
    mail: 'hiro.tanaka@example.org',
    phone: '+81 3 5000 0008',
    title: 'Researcher',
  },
  {
    uid: 'ines',
    givenName: 'Ines',
    sn: 'Moreau',
    mail: 'ines.moreau@example.org',
    phone: '+33 1 40 00 00 09',
    title: 'Designer',
  },
  {
    uid: 'jonas',
    givenName: 'Jonas',
    sn: 'Berg',
    mail: 'jonas.berg@example.org',
    phone: '+47 22 50 00 10',
    title: 'Support',
  },
  {
    uid: 'kofi',
    givenName: 'Kofi',
    sn: 'Mensah',
    mail: 'kofi.mensah@example.org',
    phone: '+233 30 500 0011',
    title: 'Engineer',
  },
  {
    uid: 'lucia',
    givenName: 'Lucia',
    sn: 'Fernandez',
    mail: 'lucia.fernandez@example.org',
    phone: '+54 11 5000 0012',
    title: 'Manager',
  },
  {
    uid: 'mateo',
    givenName: 'Mateo',
    sn: 'Silva',
    mail: 'mateo.silva@example.org',
    phone: '+55 11 5000 0013',
    title: 'Intern',
  },
  {
    uid: 'nadia',
    givenName: 'Nadia',
    sn: 'Petrova',
    mail: 'nadia.petrova@example.org',
    phone: '+359 2 500 0014',
    title: 'Intern',
  },
  {
    uid: 'oskar',
    givenName: 'Oskar',
    sn: 'Nowak',
    mail: 'oskar.nowak@example.org',
    phone: '+48 22 500 00 15',
    title: 'Intern',
  },
]

/** A seeded group: `cn=<cn>,ou=groups,dc=example,dc=org`, a groupOfNames whose members are DNs. */
interface Group {
  cn: string
  description: string
  members: string[]
}

/** Everything in ou=groups. */
const GROUPS_SEED: Group[] = [
  { cn: 'developers', description: 'Software developers', members: ['alice', 'dmitri'] },
  { cn: 'designers', description: 'Product designers', members: ['bruno'] },
  { cn: 'support', description: 'Customer support', members: ['farid'] },
  { cn: 'managers', description: 'People managers', members: ['elena'] },
]

/** The DN of the seeded person `uid`. */
export const personDn = (uid: string) => `uid=${uid},${PEOPLE}`
/** The DN of the seeded group `cn`. */
export const groupDn = (cn: string) => `cn=${cn},${GROUPS}`

/** The whole seed as LDIF, for slapadd. */
export function seedLdif(): string {
  const blocks: string[] = [
    `dn: ${SUFFIX}\nobjectClass: dcObject\nobjectClass: organization\ndc: example\no: Example Org`,
    `dn: ${PEOPLE}\nobjectClass: organizationalUnit\nou: people\ndescription: Staff`,
    `dn: ${GROUPS}\nobjectClass: organizationalUnit\nou: groups\ndescription: Teams`,
  ]
  for (const p of PEOPLE_SEED)
    blocks.push(
      [
        `dn: ${personDn(p.uid)}`,
        'objectClass: inetOrgPerson',
        `uid: ${p.uid}`,
        `cn: ${p.givenName} ${p.sn}`,
        `givenName: ${p.givenName}`,
        `sn: ${p.sn}`,
        `mail: ${p.mail}`,
        `telephoneNumber: ${p.phone}`,
        `title: ${p.title}`,
      ].join('\n'),
    )
  for (const g of GROUPS_SEED)
    blocks.push(
      [
        `dn: ${groupDn(g.cn)}`,
        'objectClass: groupOfNames',
        `cn: ${g.cn}`,
        `description: ${g.description}`,
        ...g.members.map((m) => `member: ${personDn(m)}`),
      ].join('\n'),
    )
  return blocks.join('\n\n') + '\n'
}

/** slapd.conf of the instance: the schemas inetOrgPerson needs, one mdb database in `dir`. */
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
    'index uid,cn,mail eq,sub',
    '',
  ].join('\n')
}

/** A PHP single-quoted string literal. */
const php = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`

/**
 * phpLDAPadmin's config.php for the instance: one server (the private slapd on `ldapPort`),
 * session login with the admin DN prefilled, English, UTC, no template warnings.
 */
export function configPhp(ldapPort: number): string {
  return `<?php
$config->custom->session['blowfish'] = ${php(BLOWFISH)};
$config->custom->appearance['timezone'] = 'UTC';
$config->custom->appearance['language'] = 'en_US';
$config->custom->appearance['hide_template_warning'] = true;
$config->custom->appearance['friendly_attrs'] = array(
  'facsimileTelephoneNumber' => 'Fax',
  'mail' => 'Email',
  'telephoneNumber' => 'Telephone',
  'uid' => 'User Name',
  'userPassword' => 'Password'
);
$servers = new Datastore();
$servers->newServer('ldap_pla');
$servers->setValue('server','name','Example Directory');
$servers->setValue('server','host','127.0.0.1');
$servers->setValue('server','port',${ldapPort});
$servers->setValue('server','base',array(${php(SUFFIX)}));
$servers->setValue('login','auth_type','session');
$servers->setValue('login','bind_id',${php(ADMIN.dn)});
$servers->setValue('auto_number','enable',false);
`
}
