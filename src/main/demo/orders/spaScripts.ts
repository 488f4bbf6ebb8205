// Browser code of the bearer-token variant (see shellScript.ts for why it is text). The token
// lives in localStorage under TOKEN_KEY as JSON `{token}`; no cookie is involved.

/** The localStorage key holding `{"token": "..."}`. */
export const TOKEN_KEY = 'parcel.auth'

/**
 * `static/spa-login.js` for /spa/login: `POST api/token` with JSON `{username, password}` (plus
 * `code` once the answer is 401 `otp_required`), stores `{token}`, goes to spa/orders.
 */
export const spaLoginScript = `;(() => {
  const form = document.getElementById('spa-login')
  const error = document.getElementById('error')
  const codeRow = document.getElementById('code-row')
  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    const data = new FormData(form)
    const credentials = { username: String(data.get('username')), password: String(data.get('password')) }
    if (!codeRow.hidden) credentials.code = String(data.get('code'))
    const res = await fetch('api/token', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(credentials),
    })
    const body = await res.json().catch(() => ({}))
    if (res.ok && body.token) {
      localStorage.setItem(${JSON.stringify(TOKEN_KEY)}, JSON.stringify({ token: body.token }))
      location.href = 'spa/orders'
      return
    }
    if (body.error === 'otp_required') {
      codeRow.hidden = false
      document.getElementById('code').focus()
    }
    error.textContent = body.message || 'Sign-in failed.'
  })
})()
`

/**
 * `static/spa-orders.js` for /spa/orders: `GET api/spa/orders` and `POST api/spa/orders?ts=<ms>`
 * with `Authorization: Bearer <token>` and `X-Request-Id`; no token or a 401 goes to spa/login.
 */
export const spaOrdersScript = `;(() => {
  const { ready, t, uuid, orderSaved } = window.site
  const saved = JSON.parse(localStorage.getItem(${JSON.stringify(TOKEN_KEY)}) || 'null')
  if (!saved || !saved.token) return void (location.href = 'spa/login')
  const auth = { authorization: 'Bearer ' + saved.token }
  const list = document.getElementById('orders')
  const count = document.getElementById('count')
  const status = document.getElementById('status')
  const form = document.getElementById('create-order')
  const signOut = () => {
    localStorage.removeItem(${JSON.stringify(TOKEN_KEY)})
    location.href = 'spa/login'
  }

  async function load() {
    const dict = await ready
    const res = await fetch('api/spa/orders', { headers: { accept: 'application/json', ...auth } })
    if (res.status === 401) return signOut()
    const body = await res.json()
    list.replaceChildren(
      ...body.orders.map((o) => {
        const li = document.createElement('li')
        li.className = 'order'
        li.dataset.id = o.id
        li.textContent = o.item + ' × ' + o.quantity + ' (' + o.shipping + ') — ' + o.status
        return li
      }),
    )
    count.textContent = t(dict, 'orders.count', '{n} orders', { n: body.count })
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    const dict = await ready
    const data = new FormData(form)
    const res = await fetch('api/spa/orders?ts=' + Date.now(), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-request-id': uuid(), ...auth },
      body: JSON.stringify({
        item: String(data.get('item')),
        quantity: Number(data.get('quantity')),
        shipping: String(data.get('shipping')),
      }),
    })
    if (res.status === 401) return signOut()
    if (await orderSaved(res, dict, status, form)) await load()
  })
  document.getElementById('spa-sign-out').addEventListener('click', signOut)

  load().catch(() => (count.textContent = 'Orders could not be loaded.'))
})()
`
