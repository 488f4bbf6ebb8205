// Server-rendered HTML of the orders demo. Every page has <base href="{prefix}/">, so its links,
// forms and script fetches are relative and work at / and under /demo/orders alike.
import { SHIPPING } from './types'

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

interface LayoutOptions {
  /** Page script under static/, after the shell script. */
  script?: string
  /** The page's CSRF token, put in <meta name="csrf-token">. */
  csrf?: string
  /** Shows the navigation and the sign-out button. */
  signedIn?: boolean
  bodyAttrs?: string
}

function layout(prefix: string, title: string, main: string, o: LayoutOptions = {}): string {
  const nav = o.signedIn
    ? `<nav><a href="orders" data-i18n="nav.orders">Orders</a> · <a href="orders/graphql" data-i18n="nav.graphql">GraphQL orders</a> · <a href="spa/orders" data-i18n="nav.spa">App (token)</a></nav>
<form method="post" action="logout"><button type="submit" data-i18n="nav.signOut">Sign out</button></form>`
    : ''
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<base href="${esc(prefix)}/">
${o.csrf ? `<meta name="csrf-token" content="${esc(o.csrf)}">\n` : ''}<title>${esc(title)}</title>
<link rel="stylesheet" href="static/site.css">
<link rel="icon" href="static/logo.png">
<script src="static/site.js" defer></script>
${o.script ? `<script src="static/${o.script}" defer></script>\n` : ''}</head>
<body${o.bodyAttrs ?? ''}>
<header><img src="static/logo.png" alt="" width="24" height="24"><strong data-i18n="site.title">Parcel &amp; Co. Orders</strong>
${nav}</header>
<main>
${main}
</main>
<footer>A synthetic orders site for trying Sitecall. Nothing is shipped.</footer>
</body>
</html>
`
}

const createForm = `<h2 data-i18n="orders.create">Create order</h2>
<form id="create-order" class="stack">
<label for="item">Item</label>
<input id="item" name="item" type="text" maxlength="200" required>
<label for="quantity">Quantity</label>
<input id="quantity" name="quantity" type="number" min="1" max="999" step="1" value="1" required>
<label for="shipping">Shipping</label>
<select id="shipping" name="shipping">
${SHIPPING.map((s) => `<option value="${s}">${s[0]?.toUpperCase()}${s.slice(1)}</option>`).join('\n')}
</select>
<button type="submit">Create order</button>
</form>
<p id="status" role="status" aria-live="polite"></p>`

const listing = `<p id="count" aria-live="polite"></p>
<ul id="orders"></ul>`

const error = (message?: string) =>
  message ? `<p id="error" class="error" role="alert">${esc(message)}</p>\n` : ''

/** GET /login: the cookie login form (Username, Password, "Sign in"), with an error when given. */
export function loginPage(prefix: string, message?: string, username = ''): string {
  return layout(
    prefix,
    'Sign in – Parcel & Co.',
    `<h1 data-i18n="login.title">Sign in</h1>
${error(message)}<form id="login" class="stack" method="post" action="login">
<label for="username">Username</label>
<input id="username" name="username" type="text" autocomplete="username" value="${esc(username)}" required>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button>
</form>
<p><a href="spa/login">Use the app sign-in (token) instead</a></p>`,
  )
}

/** GET /login/otp: the second step, one field labelled "One-time code" (autocomplete one-time-code). */
export function otpPage(prefix: string, message?: string): string {
  return layout(
    prefix,
    'Two-step verification – Parcel & Co.',
    `<h1 data-i18n="otp.title">Two-step verification</h1>
${error(message)}<form id="otp" class="stack" method="post" action="login/otp">
<label for="code">One-time code</label>
<input id="code" name="code" type="text" inputmode="numeric" pattern="[0-9]{6}" autocomplete="one-time-code" required>
<button type="submit">Verify</button>
</form>`,
  )
}

/** GET /orders: the list (filled by orders.js) and the create form; carries the CSRF token. */
export function ordersPage(prefix: string, username: string, csrf: string): string {
  return layout(
    prefix,
    'Orders – Parcel & Co.',
    `<h1 data-i18n="orders.title">Your orders</h1>
<p>Signed in as <span id="user">${esc(username)}</span>.</p>
${listing}
${createForm}`,
    { script: 'orders.js', csrf, signedIn: true },
  )
}

/** GET /orders/{id}: the detail page; order.js fills it from the API. */
export function orderPage(prefix: string, id: string): string {
  return layout(
    prefix,
    `Order ${id} – Parcel & Co.`,
    `<h1 data-i18n="order.title">Order details</h1>
<dl id="order"></dl>
<p><a href="orders">All orders</a></p>`,
    { script: 'order.js', signedIn: true, bodyAttrs: ` data-order-id="${esc(id)}"` },
  )
}

/** GET /orders/graphql: the same list and form, driven through POST graphql. */
export function graphqlPage(prefix: string, csrf: string): string {
  return layout(
    prefix,
    'Orders (GraphQL) – Parcel & Co.',
    `<h1>Your orders (GraphQL)</h1>
${listing}
${createForm}`,
    { script: 'graphql.js', csrf, signedIn: true },
  )
}

/** GET /spa/login: the token variant's sign-in form; the code row shows when a code is needed. */
export function spaLoginPage(prefix: string): string {
  return layout(
    prefix,
    'App sign in – Parcel & Co.',
    `<h1>Sign in to the app</h1>
<p id="error" class="error" role="alert"></p>
<form id="spa-login" class="stack">
<label for="username">Username</label>
<input id="username" name="username" type="text" autocomplete="username" required>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<div id="code-row" class="stack" hidden>
<label for="code">One-time code</label>
<input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code">
</div>
<button type="submit">Sign in</button>
</form>`,
    { script: 'spa-login.js' },
  )
}

/** GET /spa/orders: a static shell; spa-orders.js reads the token from localStorage. */
export function spaOrdersPage(prefix: string): string {
  return layout(
    prefix,
    'App orders – Parcel & Co.',
    `<h1>Your orders (app)</h1>
<button id="spa-sign-out" type="button">Sign out of the app</button>
${listing}
${createForm}`,
    { script: 'spa-orders.js' },
  )
}

/** What the 'html' fault answers in place of JSON: a sign-in wall, as when a session lapses. */
export function signInWallPage(prefix: string): string {
  return layout(
    prefix,
    'Sign in – Parcel & Co.',
    `<h1>Please sign in to continue</h1>
<p><a href="login">Sign in</a></p>`,
  )
}

/** Any unknown page below the prefix. */
export function notFoundPage(prefix: string): string {
  return layout(
    prefix,
    'Not found – Parcel & Co.',
    '<h1>Page not found</h1>\n<p><a href="orders">Your orders</a></p>',
  )
}
