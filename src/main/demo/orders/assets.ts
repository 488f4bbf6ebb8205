import { crc32, deflateSync } from 'node:zlib'
import { orderScript, ordersScript } from './ordersScripts'
import { graphqlScript } from './graphqlScript'
import { shellScript } from './shellScript'
import { spaLoginScript, spaOrdersScript } from './spaScripts'

export interface Asset {
  type: string
  body: string | Buffer
}

/** A 12x12 box icon (brown parcel with a tape stripe) as PNG, made here so nothing binary ships. */
function boxPng(): Buffer {
  const size = 12
  const raw = Buffer.alloc(size * (1 + size * 3))
  for (let y = 0; y < size; y++) {
    const row = y * (1 + size * 3)
    for (let x = 0; x < size; x++) {
      const tape = x === 5 || x === 6
      raw.set(tape ? [240, 220, 160] : [166, 110, 60], row + 1 + x * 3)
    }
  }
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data])
    const head = Buffer.alloc(4)
    head.writeUInt32BE(data.length)
    const tail = Buffer.alloc(4)
    tail.writeUInt32BE(crc32(body))
    return Buffer.concat([head, body, tail])
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(size, 0)
  header.writeUInt32BE(size, 4)
  header[8] = 8 // bit depth
  header[9] = 2 // truecolour RGB
  return Buffer.concat([
    Buffer.from('89504e470d0a1a0a', 'hex'),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

/** The translation dictionary every page fetches; the compiler must never pick it as a target. */
const ordersLocale: Record<string, string> = {
  'site.title': 'Parcel & Co. Orders',
  'nav.orders': 'Orders',
  'nav.graphql': 'GraphQL orders',
  'nav.spa': 'App (token)',
  'nav.signOut': 'Sign out',
  'login.title': 'Sign in',
  'login.submit': 'Sign in',
  'otp.title': 'Two-step verification',
  'otp.submit': 'Verify',
  'orders.title': 'Your orders',
  'orders.create': 'Create order',
  'orders.loading': 'Loading orders…',
  'orders.count': '{n} orders',
  'orders.created': 'Created order {id}',
  'orders.failed': 'Could not save the order (HTTP {status}).',
  'order.title': 'Order details',
}

const CSS = `@font-face {
  font-family: 'Parcel Sans';
  src: url('fonts/parcel-sans.woff2') format('woff2');
  font-display: swap;
}
body { font-family: 'Parcel Sans', system-ui, sans-serif; margin: 0; background: #fbf8f3; color: #2b2118; }
header, main, footer { max-width: 720px; margin: 0 auto; padding: 12px 16px; }
header { display: flex; gap: 16px; align-items: center; }
header form { margin-left: auto; }
form.stack { display: grid; gap: 8px; max-width: 360px; }
.error { color: #a4161a; }
.order { margin: 4px 0; }
footer { color: #8a7f73; font-size: 12px; }
`

const JS = 'text/javascript; charset=utf-8'

/** Files by path below the prefix; the CSS asks for the font relative to itself. */
export function ordersAssets(): Map<string, Asset> {
  return new Map<string, Asset>([
    ['/static/site.css', { type: 'text/css; charset=utf-8', body: CSS }],
    ['/static/site.js', { type: JS, body: shellScript }],
    ['/static/orders.js', { type: JS, body: ordersScript }],
    ['/static/order.js', { type: JS, body: orderScript }],
    ['/static/graphql.js', { type: JS, body: graphqlScript }],
    ['/static/spa-login.js', { type: JS, body: spaLoginScript }],
    ['/static/spa-orders.js', { type: JS, body: spaOrdersScript }],
    ['/static/logo.png', { type: 'image/png', body: boxPng() }],
    // Only the first bytes of a WOFF2 header: the fetch is the noise, the glyphs do not matter.
    [
      '/static/fonts/parcel-sans.woff2',
      { type: 'font/woff2', body: Buffer.from('774f4632', 'hex') },
    ],
    [
      '/locales/en.json',
      { type: 'application/json; charset=utf-8', body: JSON.stringify(ordersLocale) },
    ],
  ])
}
