// Browser code of the cookie-login pages (see shellScript.ts for why it is text).

/**
 * `static/orders.js` for /orders: lists orders from `GET api/orders`, and the create form sends
 * `POST api/orders?ts=<ms>` with JSON `{item, quantity, shipping}`, the page's CSRF token in
 * `X-CSRF-Token` and a fresh UUID in `X-Request-Id`, then lists again.
 */
export const ordersScript = `;(() => {
  const { ready, track, t, uuid, orderSaved } = window.site
  const csrf = document.querySelector('meta[name="csrf-token"]').content
  const list = document.getElementById('orders')
  const count = document.getElementById('count')
  const status = document.getElementById('status')
  const form = document.getElementById('create-order')

  const row = (o) => {
    const li = document.createElement('li')
    li.className = 'order'
    li.dataset.id = o.id
    const a = document.createElement('a')
    a.href = 'orders/' + encodeURIComponent(o.id)
    a.textContent = o.item
    li.append(a, ' × ' + o.quantity + ' (' + o.shipping + ') — ' + o.status)
    return li
  }

  async function load() {
    const dict = await ready
    count.textContent = t(dict, 'orders.loading', 'Loading orders…')
    const res = await fetch('api/orders', { headers: { accept: 'application/json' } })
    if (res.status === 401) return void (location.href = 'login')
    const body = await res.json()
    list.replaceChildren(...body.orders.map(row))
    count.textContent = t(dict, 'orders.count', '{n} orders', { n: body.count })
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    const dict = await ready
    const data = new FormData(form)
    const order = {
      item: String(data.get('item')),
      quantity: Number(data.get('quantity')),
      shipping: String(data.get('shipping')),
    }
    track({ event: 'create_order', at: Date.now() })
    const res = await fetch('api/orders?ts=' + Date.now(), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-csrf-token': csrf, 'x-request-id': uuid() },
      body: JSON.stringify(order),
    })
    if (await orderSaved(res, dict, status, form)) await load()
  })

  load().catch(() => (count.textContent = 'Orders could not be loaded.'))
})()
`

/** `static/order.js` for /orders/{id}: shows the order from `GET api/orders/{id}`. */
export const orderScript = `;(() => {
  const id = document.body.dataset.orderId
  const details = document.getElementById('order')
  fetch('api/orders/' + encodeURIComponent(id), { headers: { accept: 'application/json' } })
    .then(async (res) => {
      if (res.status === 401) return void (location.href = 'login')
      if (!res.ok) throw new Error('HTTP ' + res.status)
      const { order } = await res.json()
      details.replaceChildren(
        ...['id', 'item', 'quantity', 'shipping', 'status', 'createdAt'].flatMap((key) => {
          const dt = document.createElement('dt')
          dt.textContent = key
          const dd = document.createElement('dd')
          dd.id = 'order-' + key
          dd.textContent = String(order[key])
          return [dt, dd]
        }),
      )
    })
    .catch(() => (details.textContent = 'This order could not be loaded.'))
})()
`
