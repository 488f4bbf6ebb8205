/**
 * The reads of Redis Commander: the server's info (the tree's root, nothing typed), a key picked
 * in the tree, and a key search typed into the command-line panel (the UI has no search box:
 * people type `keys <pattern>` there).
 */
import type { Workflow } from '../types'
import {
  CONN,
  KEY_PATH,
  exec,
  execKey,
  keysMatching,
  mustPass,
  readKey,
  resultText,
  send,
} from './api'
import { answered, openHome, pickKey, rootNode, runCommand } from './person'
import { seededField } from './seed'

/** Clicks the tree's root (the connection): the page shows the server's INFO. */
export const serverInfo: Workflow = {
  id: 'server_info',
  intent: 'show the Redis server info in Redis Commander',
  rewordings: {
    terse: 'redis commander server info',
    chatty:
      'Which Redis version are we running and how many keys does it hold? Show me the server info.',
    withoutValue: 'show the Redis server status',
  },
  startPath: '/',
  signedIn: true,
  async play(page, app) {
    await openHome(page, app)
    const info = answered(page, 'GET', /^\/apiv2\/server\/[^/]+\/info$/)
    await rootNode(page).locator('> a').click()
    await info
    await page.locator('#body').getByText('Redis version').first().waitFor()
  },
  key: {
    target: { method: 'GET', path: /\/apiv2\/server\/[^/]+\/info/ },
    inputs: [],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const result = await send(app, session, 'GET', `/apiv2/server/${CONN}/info`)
      mustPass(await serverInfo.key.check(app, { status: 'succeeded', result }, session, []))
    },
    async check(app, run, session) {
      const text = resultText(run.result)
      const version = String(await exec(app, session, 'info server'))
      const want = /redis_version:(\S+)/.exec(version)?.[1]
      if (!want) return `INFO names no redis_version: ${version.slice(0, 100)}`
      if (!text.includes('Redis version') || !text.includes(want))
        return `the answer does not show Redis version ${want}`
      // The keyspace line counts the keys now (writes of other workflows change it).
      const size = Number(await exec(app, session, 'dbsize'))
      return text.includes(`keys=${size},`) ? null : `the answer does not count ${size} keys`
    },
  },
}

/** Unfolds `user:*` in the tree and clicks a customer: the page shows its hash. */
export const viewKey: Workflow = {
  id: 'view_key',
  intent: 'show me the customer record user:1001 in Redis Commander',
  rewordings: {
    terse: 'redis user:1001',
    chatty:
      "Can you pull up what's stored under user:1001 in our Redis? I need that customer's details.",
    withoutValue: 'show a customer record stored in Redis',
  },
  startPath: '/',
  signedIn: true,
  async play(page, app) {
    await openHome(page, app)
    await pickKey(page, 'user:1001')
    await page.locator('#itemData').getByRole('cell', { name: 'ada@example.com' }).waitFor()
  },
  key: {
    target: { method: 'GET', path: KEY_PATH },
    inputs: [{ recorded: 'user:1001', changed: ['user:1002', 'user:1003'] }],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const result = await readKey(app, session, 'user:1002')
      mustPass(
        await viewKey.key.check(app, { status: 'succeeded', result }, session, ['user:1002']),
      )
    },
    async check(_app, run, _session, used) {
      const key = String(used[0])
      const text = resultText(run.result)
      for (const field of ['name', 'email']) {
        if (!text.includes(seededField(key, field)))
          return `the answer misses ${key}'s ${field} ${seededField(key, field)}`
      }
      return text.includes(seededField('user:1001', 'email'))
        ? 'the answer is that of user:1001'
        : null
    },
  },
}

/** Types `keys order:*` into the command-line panel: it lists the matching keys. */
export const searchKeys: Workflow = {
  id: 'search_keys',
  intent: 'find all keys matching order:* in Redis Commander',
  rewordings: {
    terse: 'redis keys order:*',
    chatty: 'How many order keys do we have in Redis? List every key that matches order:* please.',
    withoutValue: 'search the Redis keys by a pattern',
  },
  startPath: '/',
  signedIn: true,
  async play(page, app) {
    await openHome(page, app)
    await runCommand(page, 'keys order:*', '"order:5002"')
  },
  key: {
    target: execKey('keys order:*'),
    inputs: [{ recorded: 'order:*', changed: ['product:*', 'session:*'] }],
    dependencies: [],
    mutating: false,
    async replayByHand(app, session) {
      const result = await send(app, session, 'POST', `/apiv2/exec/${CONN}`, {
        cmd: 'keys product:*',
      })
      mustPass(
        await searchKeys.key.check(app, { status: 'succeeded', result }, session, ['product:*']),
      )
    },
    async check(app, run, session, used) {
      const pattern = String(used[0])
      const want = await keysMatching(app, session, pattern)
      if (!want.length) return `no key matches ${pattern}`
      const text = resultText(run.result)
      const missing = want.filter((k) => !text.includes(k))
      if (missing.length) return `the answer misses ${missing.join(', ')}`
      return text.includes('order:5001') ? 'the answer lists the order:* keys' : null
    },
  },
}
