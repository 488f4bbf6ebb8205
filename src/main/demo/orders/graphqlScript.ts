import { OPERATIONS, queryHash } from './graphqlQueries'

/**
 * `static/graphql.js` for /orders/graphql: lists orders with the persisted `Orders` query (hash
 * only, no query text) and creates one with the `CreateOrder` mutation sent in full; both
 * `POST graphql`, the mutation with the page's CSRF token. (See shellScript.ts for why text.)
 */
export const graphqlScript = `;(() => {
  const { ready, t, uuid } = window.site
  const csrf = document.querySelector('meta[name="csrf-token"]').content
  const list = document.getElementById('orders')
  const count = document.getElementById('count')
  const status = document.getElementById('status')
  const form = document.getElementById('create-order')
  const gql = (body) =>
    fetch('graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-csrf-token': csrf, 'x-request-id': uuid() },
      body: JSON.stringify(body),
    }).then((res) => {
      if (res.status === 401) location.href = 'login'
      return res.json()
    })

  async function load() {
    const dict = await ready
    const { data } = await gql({
      operationName: 'Orders',
      variables: { status: null },
      extensions: { persistedQuery: { version: 1, sha256Hash: ${JSON.stringify(queryHash(OPERATIONS.Orders))} } },
    })
    list.replaceChildren(
      ...data.orders.orders.map((o) => {
        const li = document.createElement('li')
        li.className = 'order'
        li.dataset.id = o.id
        li.textContent = o.item + ' × ' + o.quantity + ' (' + o.shipping + ') — ' + o.status
        return li
      }),
    )
    count.textContent = t(dict, 'orders.count', '{n} orders', { n: data.orders.count })
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    const dict = await ready
    const data = new FormData(form)
    const answer = await gql({
      operationName: 'CreateOrder',
      query: ${JSON.stringify(OPERATIONS.CreateOrder)},
      variables: {
        item: String(data.get('item')),
        quantity: Number(data.get('quantity')),
        shipping: String(data.get('shipping')),
      },
    })
    if (answer.errors || !answer.data) {
      status.textContent = t(dict, 'orders.failed', 'Could not save the order (HTTP {status}).', { status: 400 })
      return
    }
    status.textContent = t(dict, 'orders.created', 'Created order {id}', { id: answer.data.createOrder.id })
    form.reset()
    await load()
  })

  load().catch(() => (count.textContent = 'Orders could not be loaded.'))
})()
`
