/**
 * The deterministic content of every phpMyAdmin instance: one MariaDB account the workflows sign
 * in as (with every privilege, so it can create databases and users), two more accounts, and two
 * databases of small tables with fixed ids, names and dates, so stored traces stay valid.
 */

/** The account the workflows sign in to phpMyAdmin with. */
export const MAIN_USER = { name: 'ada', password: 'Sitecall-Pma-2026' }

/** Other accounts that exist from the start (the user-accounts page lists them). */
const OTHER_USERS = [
  { name: 'grace', password: 'grace-Hopper-1906' },
  { name: 'linus', password: 'linus-Pauling-1901' },
]

/** The root password of the private server (only the seed uses root, over the socket). */
export const ROOT_PASSWORD = 'Sitecall-Root-2026'

/** Seeded customers of `shop.customers`: id, name, email, city. */
export const CUSTOMERS: Array<[number, string, string, string]> = [
  [1, 'Ada Lovelace', 'ada@example.org', 'London'],
  [2, 'Grace Hopper', 'grace@example.org', 'New York'],
  [3, 'Alan Turing', 'alan@example.org', 'Manchester'],
  [4, 'Marie Curie', 'marie@example.org', 'Paris'],
  [5, 'Niels Bohr', 'niels@example.org', 'Copenhagen'],
  [6, 'Lise Meitner', 'lise@example.org', 'Vienna'],
  [7, 'Emmy Noether', 'emmy@example.org', 'Erlangen'],
  [8, 'Pierre Curie', 'pierre@example.org', 'Paris'],
  [9, 'Rosalind Franklin', 'rosalind@example.org', 'London'],
  [10, 'Enrico Fermi', 'enrico@example.org', 'Rome'],
]

/** Seeded products of `shop.products`: id, name, price, stock. */
const PRODUCTS: Array<[number, string, string, number]> = [
  [1, 'Desk Lamp', '19.90', 40],
  [2, 'Office Chair', '149.00', 12],
  [3, 'Notebook A5', '3.50', 300],
  [4, 'Fountain Pen', '24.00', 55],
  [5, 'Standing Desk', '399.00', 5],
  [6, 'Monitor Arm', '59.90', 18],
  [7, 'Paper Tray', '8.75', 90],
  [8, 'Whiteboard', '89.00', 7],
]

/** Seeded orders of `shop.orders`: id, customer id, product id, quantity, date. */
const ORDERS: Array<[number, number, number, number, string]> = [
  [1, 1, 3, 10, '2026-11-02'],
  [2, 2, 2, 1, '2026-11-05'],
  [3, 4, 1, 2, '2026-11-09'],
  [4, 3, 5, 1, '2026-11-12'],
  [5, 8, 4, 3, '2026-11-16'],
  [6, 9, 7, 5, '2026-11-20'],
]

/** Seeded staff of `hr.employees`: id, name, department, salary. */
const EMPLOYEES: Array<[number, string, string, number]> = [
  [1, 'Ada Lovelace', 'Engineering', 72000],
  [2, 'Grace Hopper', 'Operations', 68000],
  [3, 'Linus Pauling', 'Facilities', 51000],
  [4, 'Katherine Johnson', 'Engineering', 70500],
  [5, 'Edsger Dijkstra', 'Research', 66000],
]

const q = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`

/** The SQL the seed runs as root over the private socket, once the server is up. */
export function seedSql(): string {
  const accounts = [MAIN_USER, ...OTHER_USERS]
  return [
    `ALTER USER 'root'@'localhost' IDENTIFIED BY ${q(ROOT_PASSWORD)};`,
    // Only the socket's root remains; the installer's root@<hostname> etc. would differ per host.
    "DELETE FROM mysql.global_priv WHERE User = 'root' AND Host <> 'localhost';",
    "DELETE FROM mysql.global_priv WHERE User = '';",
    'FLUSH PRIVILEGES;',
    ...accounts.map((u) => `CREATE USER ${q(u.name)}@'%' IDENTIFIED BY ${q(u.password)};`),
    `GRANT ALL PRIVILEGES ON *.* TO ${q(MAIN_USER.name)}@'%' WITH GRANT OPTION;`,
    "GRANT SELECT ON shop.* TO 'grace'@'%';",
    'CREATE DATABASE shop CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci;',
    'CREATE DATABASE hr CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci;',
    'USE shop;',
    'CREATE TABLE customers (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, name VARCHAR(100) NOT NULL, ' +
      'email VARCHAR(100) NOT NULL, city VARCHAR(60) NOT NULL) ENGINE=InnoDB;',
    'CREATE TABLE products (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, name VARCHAR(100) NOT NULL, ' +
      'price DECIMAL(8,2) NOT NULL, stock INT NOT NULL) ENGINE=InnoDB;',
    'CREATE TABLE orders (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, customer_id INT NOT NULL, ' +
      'product_id INT NOT NULL, quantity INT NOT NULL, ordered_on DATE NOT NULL) ENGINE=InnoDB;',
    `INSERT INTO customers VALUES ${CUSTOMERS.map((c) => `(${c[0]}, ${q(c[1])}, ${q(c[2])}, ${q(c[3])})`).join(', ')};`,
    `INSERT INTO products VALUES ${PRODUCTS.map((p) => `(${p[0]}, ${q(p[1])}, ${p[2]}, ${p[3]})`).join(', ')};`,
    `INSERT INTO orders VALUES ${ORDERS.map((o) => `(${o.slice(0, 4).join(', ')}, ${q(String(o[4]))})`).join(', ')};`,
    'USE hr;',
    'CREATE TABLE employees (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, name VARCHAR(100) NOT NULL, ' +
      'department VARCHAR(60) NOT NULL, salary INT NOT NULL) ENGINE=InnoDB;',
    `INSERT INTO employees VALUES ${EMPLOYEES.map((e) => `(${e[0]}, ${q(e[1])}, ${q(e[2])}, ${e[3]})`).join(', ')};`,
    '',
  ].join('\n')
}

/**
 * The instance's own phpMyAdmin configuration (the file vendor_config.php names): one server,
 * the private MariaDB over TCP, cookie login, English, and nothing that calls out to the internet.
 */
export function configPhp(dbPort: number, tempDir: string): string {
  return [
    '<?php',
    // A fixed 32-byte secret: the login cookie is encrypted with it.
    "$cfg['blowfish_secret'] = 'sitecall-phpmyadmin-fixed-secret';",
    "$cfg['Servers'][1]['auth_type'] = 'cookie';",
    "$cfg['Servers'][1]['host'] = '127.0.0.1';",
    "$cfg['Servers'][1]['connect_type'] = 'tcp';",
    `$cfg['Servers'][1]['port'] = '${dbPort}';`,
    "$cfg['Servers'][1]['compress'] = false;",
    "$cfg['Servers'][1]['AllowNoPassword'] = false;",
    "$cfg['AllowArbitraryServer'] = false;",
    `$cfg['TempDir'] = '${tempDir}';`,
    "$cfg['UploadDir'] = '';",
    "$cfg['SaveDir'] = '';",
    "$cfg['DefaultLang'] = 'en';",
    "$cfg['Lang'] = 'en';",
    "$cfg['ServerDefault'] = 1;",
    "$cfg['VersionCheck'] = false;",
    "$cfg['SendErrorReports'] = 'never';",
    "$cfg['ShowGitRevision'] = false;",
    // A long login, so a saved session outlives a whole evaluation.
    "$cfg['LoginCookieValidity'] = 86400;",
    "$cfg['LoginCookieStore'] = 0;",
    // No warning banner about the missing configuration storage database on every page.
    "$cfg['PmaNoRelation_DisableWarning'] = true;",
    "$cfg['SuhosinDisableWarning'] = true;",
    "$cfg['ZeroConf'] = false;",
    '',
  ].join('\n')
}
