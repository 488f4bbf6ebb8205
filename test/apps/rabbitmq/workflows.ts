/**
 * The RabbitMQ management UI workflows: what people do there, done in the page as they do it
 * (tabs, clicking a queue, exchange or user in its list, unfolding a section, typing in its form),
 * each with its answer key written by hand from the API's real behaviour.
 */
import type { Workflow } from '../types'
import {
  apiPath,
  getJson,
  mustPass,
  peekPayloads,
  readQueue,
  resultText,
  send,
  settledCount,
} from './api'
import {
  acceptNextConfirm,
  answered,
  openQueue,
  openQueues,
  openTab,
  popupSays,
  queueLink,
  signInWithForm,
  typeInto,
  unfold,
} from './person'
import { QUEUES, seededQueue, shopExchange } from './seed'

/** The queue list's read, every page load and every filter: `GET /api/queues?page=…&name=…`. */
const LIST_QUEUES = { method: 'GET', path: '/api/queues' }

/** The queues no workflow deletes: a list must name them all. */
const KEPT_QUEUES = QUEUES.filter((q) => !q.name.startsWith('tmp.'))

/** Opens the Queues tab: the page-load read of every queue, nothing typed. */
const listQueues: Workflow = {
  id: 'list_queues',
  intent: 'list my RabbitMQ queues',
  rewordings: {
    terse: 'rabbitmq queues',
    chatty:
      'Can you show me all the queues we have on the RabbitMQ broker, with their message counts?',
    withoutValue: 'show the queues',
  },
  startPath: '/',
  signedIn: true,
  async play(page) {
    await page.locator('#tabs').waitFor()
    await openQueues(page, 'inventory.sync')
  },
  key: {
    target: LIST_QUEUES,
    inputs: [],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const res = await app.fetch(
        '/api/queues?page=1&page_size=100&name=&use_regex=false&pagination=true',
        { session },
      )
      if (!res.ok) throw new Error(`GET /api/queues answered ${res.status}`)
      mustPass(
        await listQueues.key.check(
          app,
          { status: 'succeeded', result: await res.json() },
          session,
          [],
        ),
      )
    },
    async check(_app, run) {
      const text = resultText(run.result)
      const missing = KEPT_QUEUES.filter((q) => !text.includes(`"${q.name}"`)).map((q) => q.name)
      return missing.length ? `the result lacks the queues ${missing.join(', ')}` : null
    },
  },
}

/** Types a word into the queue list's Filter box and presses Enter. */
const searchQueues: Workflow = {
  id: 'search_queues',
  intent: 'find the queues whose name contains payments',
  rewordings: {
    terse: 'queues matching payments',
    chatty:
      "Which of our RabbitMQ queues have 'payments' in their name? I want to see how full they are.",
    withoutValue: 'filter the queues by name',
  },
  startPath: '/',
  signedIn: true,
  async play(page) {
    await page.locator('#tabs').waitFor()
    await openQueues(page, 'inventory.sync')
    const filtered = page.waitForResponse(
      (res) =>
        new URL(res.url()).pathname === '/api/queues' &&
        new URL(res.url()).searchParams.get('name') === 'payments',
    )
    const box = page.locator('#queues-name')
    await typeInto(box, 'payments')
    await box.press('Enter')
    await filtered
    await queueLink(page, 'inventory.sync').waitFor({ state: 'detached' })
    await queueLink(page, 'payments.failed').waitFor()
  },
  key: {
    target: LIST_QUEUES,
    inputs: [{ recorded: 'payments', changed: ['orders', 'events'] }],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const res = await app.fetch(
        '/api/queues?page=1&page_size=100&name=orders&use_regex=false&pagination=true',
        { session },
      )
      if (!res.ok) throw new Error(`GET /api/queues answered ${res.status}`)
      mustPass(
        await searchQueues.key.check(
          app,
          { status: 'succeeded', result: await res.json() },
          session,
          ['orders'],
        ),
      )
    },
    async check(_app, run, _session, used) {
      const word = String(used[0])
      const text = resultText(run.result)
      const want = QUEUES.filter((q) => q.name.includes(word)).map((q) => q.name)
      const missing = want.filter((name) => !text.includes(`"${name}"`))
      if (missing.length) return `the result lacks the queues ${missing.join(', ')}`
      const extra = QUEUES.filter((q) => !q.name.includes(word) && text.includes(`"${q.name}"`))
      return extra.length
        ? `the result also lists ${extra.map((q) => q.name).join(', ')} (not filtered by ${word})`
        : null
    },
  },
}

/** Not signed in: logs in, Queues, "Add a new queue" in vhost shop with a Message TTL. */
const addQueue: Workflow = {
  id: 'add_queue',
  intent: 'add a durable queue refunds.pending in the shop vhost with a message TTL of 60000 ms',
  rewordings: {
    terse: 'new queue refunds.pending ttl 60000',
    chatty:
      "We're starting to process refunds asynchronously, could you create a durable queue called refunds.pending on the shop vhost where messages expire after 60000 ms?",
    withoutValue: 'create a queue in the shop vhost',
  },
  startPath: '/',
  signedIn: false,
  async play(page, app) {
    await signInWithForm(page, app)
    await openQueues(page, 'inventory.sync')
    const form = await unfold(page, 'Add a new queue')
    await form.locator('select[name="vhost"]').selectOption('shop')
    await typeInto(form.locator('input[name="name"]'), 'refunds.pending')
    await form.locator('select[name="durable"]').selectOption('true')
    // "Message TTL" among the argument links fills the next argument's key; its value follows.
    await form.locator('.argument-link', { hasText: 'Message TTL' }).click()
    const value = form.locator('#arguments input[name$="_mfvalue"]').first()
    await typeInto(value, '60000')
    const created = answered(page, 'PUT', /^\/api\/queues\/shop\/refunds\.pending$/)
    await form.getByRole('button', { name: 'Add queue' }).click()
    await created
    await queueLink(page, 'refunds.pending').waitFor()
  },
  key: {
    // `/api/queues/<vhost>/<name>`: the vhost picked in the form is the path's first part.
    target: { method: 'PUT', path: /\/api\/queues\/[^/]+\/[^/]+/ },
    inputs: [
      { recorded: 'shop', changed: ['analytics', '/'] },
      { recorded: 'refunds.pending', changed: ['refunds.review', 'refunds.archive'] },
      { recorded: 60000, changed: [120000, 300000] },
    ],
    dependencies: [],
    mutating: true,
    async replayByHand(app, session) {
      await send(app, session, 'PUT', apiPath('queues', 'analytics', 'refunds.review'), {
        vhost: 'analytics',
        name: 'refunds.review',
        durable: 'true',
        auto_delete: 'false',
        arguments: { 'x-message-ttl': 120000, 'x-queue-type': 'classic' },
      })
      mustPass(
        await addQueue.key.check(app, { status: 'succeeded', result: null }, session, [
          'analytics',
          'refunds.review',
          120000,
        ]),
      )
    },
    async check(app, _run, session, used) {
      const vhost = String(used[0])
      const name = String(used[1])
      const q = await readQueue(app, session, vhost, name)
      if (!q) return `the vhost ${vhost} has no queue ${name}`
      if (!q.durable) return `${name} is not durable`
      const ttl = q.arguments['x-message-ttl']
      if (ttl !== Number(used[2]))
        return `${name} has x-message-ttl ${String(ttl)}, not ${String(used[2])}`
      if (await readQueue(app, session, 'shop', name)) return `${name} was created in shop too`
      const recorded = await readQueue(app, session, 'shop', 'refunds.pending')
      return recorded ? 'the recorded queue refunds.pending was created too' : null
    },
  },
}

/** Queues, clicks tmp.import-2024, unfolds Delete, Delete Queue, confirms. */
const deleteQueue: Workflow = {
  id: 'delete_queue',
  intent: 'delete the queue tmp.import-2024',
  rewordings: {
    terse: 'delete queue tmp.import-2024',
    chatty:
      "The 2024 import is long done, please delete the tmp.import-2024 queue, we don't need it anymore.",
    withoutValue: 'delete a queue',
  },
  startPath: '/',
  signedIn: true,
  async play(page) {
    await page.locator('#tabs').waitFor()
    await openQueues(page, 'tmp.import-2024')
    await openQueue(page, 'tmp.import-2024')
    const section = await unfold(page, 'Delete')
    const deleted = answered(page, 'DELETE', /^\/api\/queues\/\/\/tmp\.import-2024$/)
    acceptNextConfirm(page)
    await section.getByRole('button', { name: 'Delete Queue' }).click()
    await deleted
    // The page goes back to the list, which no longer holds the queue.
    await queueLink(page, 'tmp.export-2024').waitFor()
    await queueLink(page, 'tmp.import-2024').waitFor({ state: 'detached' })
  },
  key: {
    // `/api/queues/<vhost>/<name>`: the default vhost `/` is `%2F` in the path.
    target: { method: 'DELETE', path: /\/api\/queues\/[^/]+\/[^/]+/ },
    inputs: [{ recorded: 'tmp.import-2024', changed: ['tmp.export-2024', 'tmp.scratch'] }],
    dependencies: [],
    mutating: true,
    async replayByHand(app, session) {
      await send(app, session, 'DELETE', apiPath('queues', '/', 'tmp.export-2024'))
      mustPass(
        await deleteQueue.key.check(app, { status: 'succeeded', result: null }, session, [
          'tmp.export-2024',
        ]),
      )
    },
    async check(app, _run, session, used) {
      const name = String(used[0])
      if (await readQueue(app, session, '/', name)) return `the queue ${name} still exists`
      const recorded = await readQueue(app, session, '/', 'tmp.import-2024')
      return recorded ? null : 'the recorded queue tmp.import-2024 was deleted too'
    },
  },
}

/** Queues, clicks payments.failed, unfolds Purge, Purge Messages, confirms. */
const purgeQueue: Workflow = {
  id: 'purge_queue',
  intent: 'purge all messages from the queue payments.failed',
  rewordings: {
    terse: 'purge payments.failed',
    chatty:
      'Those failed payments were all handled by hand already, can you empty the payments.failed queue for me?',
    withoutValue: 'purge a queue',
  },
  startPath: '/',
  signedIn: true,
  async play(page) {
    await page.locator('#tabs').waitFor()
    await openQueues(page, 'payments.failed')
    await openQueue(page, 'payments.failed')
    const section = await unfold(page, 'Purge')
    const purged = answered(page, 'DELETE', /^\/api\/queues\/shop\/payments\.failed\/contents$/)
    acceptNextConfirm(page)
    await section.getByRole('button', { name: 'Purge Messages' }).click()
    await purged
    await popupSays(page, 'Queue purged')
  },
  key: {
    target: { method: 'DELETE', path: /\/api\/queues\/shop\/[^/]+\/contents/ },
    inputs: [{ recorded: 'payments.failed', changed: ['payments.retry', 'inventory.sync'] }],
    dependencies: [],
    mutating: true,
    async replayByHand(app, session) {
      await send(app, session, 'DELETE', apiPath('queues', 'shop', 'payments.retry', '/contents'))
      mustPass(
        await purgeQueue.key.check(app, { status: 'succeeded', result: null }, session, [
          'payments.retry',
        ]),
      )
    },
    async check(app, _run, session, used) {
      const name = String(used[0])
      const left = await settledCount(app, session, 'shop', name, 0)
      if (left !== 0) return `${name} still holds ${String(left)} messages`
      const seeded = seededQueue('payments.failed').messages.length
      const recorded = await settledCount(app, session, 'shop', 'payments.failed', seeded, 1500)
      return recorded === seeded
        ? null
        : `the recorded queue payments.failed holds ${String(recorded)}`
    },
  },
}

/** Exchanges, clicks shop.orders, unfolds Publish message, types a routing key and a payload. */
const publishMessage: Workflow = {
  id: 'publish_message',
  intent:
    'publish the message "order 1042 created" to the exchange shop.orders with routing key order.created',
  rewordings: {
    terse: 'publish "order 1042 created" to shop.orders, key order.created',
    chatty:
      "I need to replay an event by hand: could you publish 'order 1042 created' on the shop.orders exchange with the routing key order.created?",
    withoutValue: 'publish a message to the orders exchange',
  },
  startPath: '/',
  signedIn: true,
  async play(page) {
    await page.locator('#tabs').waitFor()
    const listed = answered(page, 'GET', /^\/api\/exchanges$/)
    await openTab(page, 'Exchanges', /Exchanges/)
    await listed
    await page
      .locator('#main table.list')
      .getByRole('link', { name: 'shop.orders', exact: true })
      .click()
    await page.locator('#main h1').filter({ hasText: 'shop.orders' }).waitFor()
    const form = await unfold(page, 'Publish message')
    await typeInto(form.locator('input[name="routing_key"]'), 'order.created')
    await typeInto(form.locator('textarea[name="payload"]'), 'order 1042 created')
    const published = answered(page, 'POST', /^\/api\/exchanges\/shop\/shop\.orders\/publish$/)
    await form.getByRole('button', { name: 'Publish message' }).click()
    await published
    await popupSays(page, 'Message published')
  },
  key: {
    // `/api/exchanges/shop/<exchange>/publish`: the exchange clicked in the list.
    target: { method: 'POST', path: /\/api\/exchanges\/shop\/[^/]+\/publish/ },
    inputs: [
      { recorded: 'shop.orders', changed: ['shop.returns', 'shop.shipping'] },
      { recorded: 'order.created', changed: ['return.requested', 'shipment.dispatched'] },
      {
        recorded: 'order 1042 created',
        changed: ['return 77 requested for order 1042', 'order 2002 shipped'],
      },
    ],
    dependencies: [],
    mutating: true,
    async replayByHand(app, session) {
      const answer = (await send(
        app,
        session,
        'POST',
        apiPath('exchanges', 'shop', 'shop.returns', '/publish'),
        {
          vhost: 'shop',
          name: 'shop.returns',
          properties: { delivery_mode: 2, headers: {} },
          routing_key: 'return.requested',
          delivery_mode: '2',
          payload: 'return 77 requested for order 1042',
          payload_encoding: 'string',
          headers: {},
          props: {},
        },
      )) as { routed: boolean }
      if (!answer.routed) throw new Error('the message was not routed')
      mustPass(
        await publishMessage.key.check(app, { status: 'succeeded', result: answer }, session, [
          'shop.returns',
          'return.requested',
          'return 77 requested for order 1042',
        ]),
      )
    },
    async check(app, _run, session, used) {
      const [exchange, key, payload] = used.map(String) as [string, string, string]
      const queue = shopExchange(exchange).routes[key]
      if (!queue) return `${exchange} has no queue bound with ${key}`
      const got = (await send(app, session, 'POST', apiPath('queues', 'shop', queue, '/get'), {
        count: 100,
        ackmode: 'ack_requeue_true',
        encoding: 'auto',
        truncate: 50000,
      })) as Array<{ payload: string; exchange: string; routing_key: string }>
      const mine = got.find((m) => m.payload === payload)
      if (!mine) return `${queue} holds no message "${payload}"`
      if (mine.exchange !== exchange || mine.routing_key !== key)
        return `"${payload}" came through ${mine.exchange} with key ${mine.routing_key}`
      const recorded = await peekPayloads(app, session, 'shop', 'orders.created')
      return recorded.includes(payload) ? `"${payload}" went to orders.created too` : null
    },
  },
}

/** Not signed in: logs in, Queues, clicks emails.outbound, Get messages with a count of 2. */
const getMessages: Workflow = {
  id: 'get_messages',
  intent: 'show me the first 2 messages waiting in the queue emails.outbound without removing them',
  rewordings: {
    terse: 'peek 2 messages emails.outbound',
    chatty:
      "Emails seem stuck; can you look at the first 2 messages sitting in emails.outbound so I can see what they are? Don't take them off the queue.",
    withoutValue: 'look at the messages waiting in a queue',
  },
  startPath: '/',
  signedIn: false,
  async play(page, app) {
    await signInWithForm(page, app)
    await openQueues(page, 'emails.outbound')
    await openQueue(page, 'emails.outbound')
    const form = await unfold(page, 'Get messages')
    // The default ack mode, "Nack message requeue true", puts the messages back.
    await typeInto(form.locator('input[name="count"]'), '2')
    const got = answered(page, 'POST', /^\/api\/queues\/\/\/emails\.outbound\/get$/)
    await form.getByRole('button', { name: 'Get Message(s)' }).click()
    await got
    await page.locator('#msg-wrapper').getByText('email to customer #2').waitFor()
  },
  key: {
    target: { method: 'POST', path: /\/api\/queues\/[^/]+\/[^/]+\/get/ },
    inputs: [
      { recorded: 'emails.outbound', changed: ['webhooks.pending', 'sms.outbound'] },
      { recorded: 2, changed: [3, 1] },
    ],
    dependencies: [],
    // Requeued: the messages stay where they were (only their redelivered flag is set).
    mutating: false,
    async replayByHand(app, session) {
      const got = await send(
        app,
        session,
        'POST',
        apiPath('queues', '/', 'webhooks.pending', '/get'),
        {
          vhost: '/',
          name: 'webhooks.pending',
          truncate: '50000',
          ackmode: 'ack_requeue_true',
          encoding: 'auto',
          count: '3',
        },
      )
      mustPass(
        await getMessages.key.check(app, { status: 'succeeded', result: got }, session, [
          'webhooks.pending',
          3,
        ]),
      )
    },
    async check(app, run, session, used) {
      const queue = seededQueue(String(used[0]), '/')
      const count = Number(used[1])
      const text = resultText(run.result)
      const missing = queue.messages.slice(0, count).filter((p) => !text.includes(p))
      if (missing.length) return `the result lacks ${missing.join(', ')}`
      const extra = queue.messages.slice(count).filter((p) => text.includes(p))
      if (extra.length) return `the result holds more than ${count} messages (${extra.join(', ')})`
      if (text.includes('email to customer')) return 'the result holds messages of emails.outbound'
      const left = await peekPayloads(app, session, '/', queue.name)
      return left.length === queue.messages.length
        ? null
        : `${queue.name} lost messages: ${left.length} of ${queue.messages.length} left`
    },
  },
}

/** Admin, "Add a user": user name, password twice, tags typed. */
const addUser: Workflow = {
  id: 'add_user',
  intent: 'add a RabbitMQ user called reporting with the monitoring tag',
  rewordings: {
    terse: 'new user reporting, tag monitoring',
    chatty:
      'Our reporting dashboard needs its own login to the broker, could you add a user named reporting and give it the monitoring tag?',
    withoutValue: 'add a user',
  },
  startPath: '/',
  signedIn: true,
  async play(page) {
    await page.locator('#tabs').waitFor()
    await openTab(page, 'Admin', /Users/)
    const form = await unfold(page, 'Add a user')
    await typeInto(form.locator('input[name="username"]'), 'reporting')
    await form.locator('input[name="password"]').fill('Dash-Board-77')
    await form.locator('input[name="password_confirm"]').fill('Dash-Board-77')
    await typeInto(form.locator('input[name="tags"]'), 'monitoring')
    const added = answered(page, 'PUT', /^\/api\/users\/reporting$/)
    await form.getByRole('button', { name: 'Add user' }).click()
    await added
    await page
      .locator('#main table.list')
      .getByRole('link', { name: 'reporting', exact: true })
      .waitFor()
  },
  key: {
    target: { method: 'PUT', path: /\/api\/users\/[^/]+/ },
    inputs: [
      { recorded: 'reporting', changed: ['auditor', 'billing-bot'] },
      { recorded: 'monitoring', changed: ['management', 'policymaker'] },
      { recorded: 'Dash-Board-77', changed: ['Audit-Trail-31', 'Bill-Bot-42'], secret: true },
    ],
    dependencies: [],
    mutating: true,
    async replayByHand(app, session) {
      await send(app, session, 'PUT', '/api/users/auditor', {
        username: 'auditor',
        password: 'Audit-Trail-5',
        tags: 'management',
      })
      mustPass(
        await addUser.key.check(app, { status: 'succeeded', result: null }, session, [
          'auditor',
          'management',
        ]),
      )
    },
    async check(app, _run, session, used) {
      const name = String(used[0])
      const user = await getJson<{ tags: string[] | string }>(app, session, `/api/users/${name}`)
      if (!user) return `there is no user ${name}`
      const tags = Array.isArray(user.tags) ? user.tags.join(',') : user.tags
      if (tags !== String(used[1])) return `${name} has the tags "${tags}", not ${String(used[1])}`
      const recorded = await getJson(app, session, '/api/users/reporting')
      return recorded ? 'the recorded user reporting was added too' : null
    },
  },
}

/** Admin, clicks carol, "Set permission": picks the vhost shop, types the read pattern. */
const setPermission: Workflow = {
  id: 'set_permission',
  intent: 'let user carol read the queues matching ^orders\\. on the shop vhost, and nothing else',
  rewordings: {
    terse: 'carol on shop: read ^orders\\. only',
    chatty:
      'Carol is building the order export; can you give her read access to the ^orders\\. queues on the shop vhost? No configure or write rights though.',
    withoutValue: 'set a user permission on a vhost',
  },
  startPath: '/',
  signedIn: true,
  async play(page) {
    await page.locator('#tabs').waitFor()
    await openTab(page, 'Admin', /Users/)
    await page.locator('#main table.list').getByRole('link', { name: 'carol', exact: true }).click()
    await page.locator('#main h1').filter({ hasText: 'carol' }).waitFor()
    const form = await unfold(page, 'Permissions')
    await form.locator('select[name="vhost"]').selectOption('shop')
    // Nothing to configure or write: the empty-match pattern, as RabbitMQ's docs write it.
    await typeInto(form.locator('input[name="configure"]'), '^$')
    await typeInto(form.locator('input[name="write"]'), '^$')
    await typeInto(form.locator('input[name="read"]'), '^orders\\.')
    const set = answered(page, 'PUT', /^\/api\/permissions\/shop\/carol$/)
    await form.getByRole('button', { name: 'Set permission' }).click()
    await set
    await form.locator('table.list').getByText('^orders\\.').waitFor()
  },
  key: {
    target: { method: 'PUT', path: /\/api\/permissions\/[^/]+\/[^/]+/ },
    inputs: [
      { recorded: 'carol', changed: ['etl', 'frank'] },
      { recorded: 'shop', changed: ['analytics', '/'] },
      { recorded: '^orders\\.', changed: ['^events\\.', '^emails\\.'] },
    ],
    dependencies: [],
    mutating: true,
    async replayByHand(app, session) {
      await send(app, session, 'PUT', apiPath('permissions', 'analytics', 'etl'), {
        username: 'etl',
        vhost: 'analytics',
        configure: '^$',
        write: '^$',
        read: '^events\\.',
      })
      mustPass(
        await setPermission.key.check(app, { status: 'succeeded', result: null }, session, [
          'etl',
          'analytics',
          '^events\\.',
        ]),
      )
    },
    async check(app, _run, session, used) {
      const [user, vhost, read] = used.map(String) as [string, string, string]
      const p = await getJson<{ configure: string; write: string; read: string }>(
        app,
        session,
        apiPath('permissions', vhost, user),
      )
      if (!p) return `${user} has no permission on ${vhost}`
      if (p.read !== read) return `${user} may read "${p.read}" on ${vhost}, not "${read}"`
      if (p.configure !== '^$' || p.write !== '^$')
        return `${user} got configure "${p.configure}" and write "${p.write}" on ${vhost}`
      const recorded = await getJson(app, session, apiPath('permissions', 'shop', 'carol'))
      return recorded ? 'the recorded user carol got a permission on shop too' : null
    },
  },
}

/** Every workflow, in the order they are recorded and measured. */
export const WORKFLOWS: Workflow[] = [
  listQueues,
  searchQueues,
  addQueue,
  deleteQueue,
  purgeQueue,
  publishMessage,
  getMessages,
  addUser,
  setPermission,
]
