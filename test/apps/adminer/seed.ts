/**
 * The deterministic database every Adminer instance opens: a small shop (`customers`, `products`,
 * `orders`) with fixed ids, names and dates, owned by the workflows' user, who signs in to
 * Adminer with a password (Adminer refuses a login without one).
 */

/** The database the workflows work in (created next to the default `postgres` database). */
export const DATABASE = 'shop'

/** The PostgreSQL role the person signs in to Adminer as (it owns the shop database). */
export const DB_USER = { name: 'ada', password: 'Lovelace-1815' }

/**
 * What the person types in the login form's Server field. The port is not in it: PostgreSQL
 * listens on a free port per start, which PHP's server passes to libpq as `PGPORT`, so Adminer's
 * URLs (`?pgsql=127.0.0.1&username=ada&db=shop`) are the same on every start.
 */
export const SERVER = '127.0.0.1'

/** A seeded customer. */
interface SeedCustomer {
  id: number
  name: string
  email: string
  city: string
}

/** A seeded product; `price` is numeric(8,2), written as Adminer shows it. */
interface SeedProduct {
  id: number
  name: string
  price: string
  stock: number
}

/** A seeded order of one product by one customer. */
export interface SeedOrder {
  id: number
  customerId: number
  productId: number
  quantity: number
  status: 'pending' | 'paid' | 'shipped' | 'delivered' | 'cancelled'
  /** `YYYY-MM-DD` */
  orderedOn: string
}

const CUSTOMERS: SeedCustomer[] = [
  { id: 1, name: 'Ada Lovelace', email: 'ada@example.org', city: 'London' },
  { id: 2, name: 'Grace Hopper', email: 'grace@example.org', city: 'New York' },
  { id: 3, name: 'Linus Pauling', email: 'linus@example.org', city: 'Portland' },
  { id: 4, name: 'Mary Jackson', email: 'mary@example.org', city: 'Hampton' },
  { id: 5, name: 'Alan Turing', email: 'alan@example.org', city: 'London' },
  { id: 6, name: 'Marie Curie', email: 'marie@example.org', city: 'Paris' },
  { id: 7, name: 'Niels Bohr', email: 'niels@example.org', city: 'Copenhagen' },
  { id: 8, name: 'Rosalind Franklin', email: 'rosalind@example.org', city: 'London' },
  { id: 9, name: 'Emmy Noether', email: 'emmy@example.org', city: 'Erlangen' },
  { id: 10, name: 'Srinivasa Ramanujan', email: 'srinivasa@example.org', city: 'Madras' },
  { id: 11, name: 'Lise Meitner', email: 'lise@example.org', city: 'Vienna' },
  { id: 12, name: 'Enrico Fermi', email: 'enrico@example.org', city: 'Rome' },
]

const PRODUCTS: SeedProduct[] = [
  { id: 1, name: 'Notebook A5', price: '4.50', stock: 120 },
  { id: 2, name: 'Fountain pen', price: '24.00', stock: 35 },
  { id: 3, name: 'Desk lamp', price: '39.90', stock: 14 },
  { id: 4, name: 'Paper clips', price: '1.20', stock: 500 },
  { id: 5, name: 'Stapler', price: '12.75', stock: 42 },
  { id: 6, name: 'Whiteboard', price: '89.00', stock: 6 },
  { id: 7, name: 'Sticky notes', price: '3.10', stock: 260 },
  { id: 8, name: 'Label printer', price: '64.50', stock: 9 },
]

export const ORDERS: SeedOrder[] = [
  {
    id: 1001,
    customerId: 1,
    productId: 2,
    quantity: 1,
    status: 'delivered',
    orderedOn: '2026-10-02',
  },
  {
    id: 1002,
    customerId: 2,
    productId: 1,
    quantity: 10,
    status: 'delivered',
    orderedOn: '2026-10-09',
  },
  { id: 1003, customerId: 3, productId: 3, quantity: 1, status: 'paid', orderedOn: '2026-10-21' },
  {
    id: 1004,
    customerId: 5,
    productId: 4,
    quantity: 3,
    status: 'shipped',
    orderedOn: '2026-11-02',
  },
  { id: 1005, customerId: 6, productId: 6, quantity: 1, status: 'paid', orderedOn: '2026-11-05' },
  {
    id: 1006,
    customerId: 4,
    productId: 7,
    quantity: 20,
    status: 'pending',
    orderedOn: '2026-11-12',
  },
  {
    id: 1007,
    customerId: 8,
    productId: 5,
    quantity: 2,
    status: 'pending',
    orderedOn: '2026-11-16',
  },
  { id: 1008, customerId: 9, productId: 8, quantity: 1, status: 'paid', orderedOn: '2026-11-20' },
  {
    id: 1009,
    customerId: 1,
    productId: 1,
    quantity: 5,
    status: 'pending',
    orderedOn: '2026-11-24',
  },
  {
    id: 1010,
    customerId: 12,
    productId: 2,
    quantity: 2,
    status: 'pending',
    orderedOn: '2026-11-27',
  },
]

/** A SQL string literal. */
const lit = (s: string): string => `'${s.replace(/'/g, "''")}'`

/**
 * The seed script, run by the superuser in the fresh `shop` database: the user's role is created
 * by the caller first. Tables belong to the user; the serial sequences start after the fixed ids
 * so a row added in Adminer gets the next one.
 */
export function seedSql(): string {
  const rows = (values: string[]) => values.join(',\n  ')
  return `
set role ${DB_USER.name};
create table customers (
  id serial primary key,
  name text not null,
  email text not null unique,
  city text not null
);
create table products (
  id serial primary key,
  name text not null unique,
  price numeric(8,2) not null,
  stock integer not null default 0
);
create table orders (
  id serial primary key,
  customer_id integer not null references customers(id),
  product_id integer not null references products(id),
  quantity integer not null default 1,
  status text not null default 'pending',
  ordered_on date not null
);
insert into customers (id, name, email, city) values
  ${rows(CUSTOMERS.map((c) => `(${c.id}, ${lit(c.name)}, ${lit(c.email)}, ${lit(c.city)})`))};
insert into products (id, name, price, stock) values
  ${rows(PRODUCTS.map((p) => `(${p.id}, ${lit(p.name)}, ${p.price}, ${p.stock})`))};
insert into orders (id, customer_id, product_id, quantity, status, ordered_on) values
  ${rows(
    ORDERS.map(
      (o) =>
        `(${o.id}, ${o.customerId}, ${o.productId}, ${o.quantity}, ${lit(o.status)}, ${lit(o.orderedOn)})`,
    ),
  )};
select setval('customers_id_seq', 100, false);
select setval('products_id_seq', 100, false);
select setval('orders_id_seq', 2001, false);
reset role;
`
}
