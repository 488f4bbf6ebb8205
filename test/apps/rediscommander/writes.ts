/**
 * The writes of Redis Commander, each done as a person does in the UI: a new key from the tree's
 * menu (Add Key), a hash field edited by double-clicking its row, a value pushed onto a list
 * (Add New Value...), a key renamed from its menu, a key deleted with the Delete Key button (and
 * the browser's confirm), and an expiry set with `expire` in the command-line panel (the UI has
 * no TTL form).
 */
import type { StorageState } from '../../../src/shared/trace'
import type { AppInstance, Workflow } from '../types'
import { CONN, KEY_PATH, execKey, keyPath, mustPass, readKey, send } from './api'
import {
  answered,
  contextMenu,
  keyShown,
  openFolder,
  openHome,
  pickKey,
  rootNode,
  runCommand,
  treeNode,
} from './person'
import { seeded, seededField } from './seed'

/** A seeded string key's value; throws when the key is no seeded string. */
function seededString(key: string): string {
  const k = seeded(key)
  if (k.type !== 'string') throw new Error(`${key} is no seeded string`)
  return k.value
}

/** Null when `key` holds the string `value` now, else why not. */
async function holdsString(
  app: AppInstance,
  session: StorageState,
  key: string,
  value: string,
): Promise<string | null> {
  const got = await readKey(app, session, key)
  if (got.type !== 'string') return `${key} is ${got.type}, not a string`
  return got.value === value ? null : `${key} holds ${JSON.stringify(got.value)}, not ${value}`
}

/** Right-clicks the tree's root, picks Add Key, types a key and a string value, saves. */
export const addKey: Workflow = {
  id: 'add_key',
  intent: 'add a string key coupon:SPRING24 with the value "20% off" in Redis Commander',
  rewordings: {
    terse: 'redis set coupon:SPRING24 20% off',
    chatty:
      'Marketing wants a new coupon in Redis: could you create the key coupon:SPRING24 holding "20% off"?',
    withoutValue: 'add a new string key to Redis',
  },
  startPath: '/',
  signedIn: true,
  async play(page, app) {
    await openHome(page, app)
    await contextMenu(page, rootNode(page), 'Add Key')
    const modal = page.locator('#addKeyModal')
    await modal.locator('#keyValue').fill('coupon:SPRING24')
    await modal.locator('#keyType').selectOption('string')
    await modal.locator('#newStringValue').fill('20% off')
    const saved = answered(page, 'POST', /^\/apiv2\/key\//)
    await modal.locator('#saveKeyButton').click()
    await saved
    await modal.waitFor({ state: 'hidden' })
    await treeNode(page, 'coupon:').waitFor()
    await openFolder(page, 'coupon:')
    await treeNode(page, 'coupon:SPRING24').waitFor()
  },
  key: {
    target: { method: 'POST', path: KEY_PATH, operation: { field: 'keyType', value: 'string' } },
    inputs: [
      { recorded: 'coupon:SPRING24', changed: ['coupon:SUMMER24', 'coupon:AUTUMN24'] },
      { recorded: '20% off', changed: ['15% off', '10% off'] },
    ],
    dependencies: [],
    mutating: true,
    async replayByHand(app, session) {
      await send(app, session, 'POST', keyPath('coupon:SUMMER24'), {
        keyType: 'string',
        stringValue: '15% off',
      })
      mustPass(
        await addKey.key.check(app, { status: 'succeeded', result: null }, session, [
          'coupon:SUMMER24',
          '15% off',
        ]),
      )
    },
    async check(app, _run, session, used) {
      const why = await holdsString(app, session, String(used[0]), String(used[1]))
      if (why) return why
      const recorded = await readKey(app, session, 'coupon:SPRING24')
      return recorded.type === 'none' ? null : 'the recorded key coupon:SPRING24 was written'
    },
  },
}

/** Picks a product in the tree, double-clicks its price row, types the new price, saves. */
export const editHashField: Workflow = {
  id: 'edit_hash_field',
  intent: 'change the price of product:p100 to 19.90 in Redis Commander',
  rewordings: {
    terse: 'redis product:p100 price 19.90',
    chatty:
      "The espresso beans are on sale, can you set product:p100's price field to 19.90 in Redis?",
    withoutValue: "change a product's price in Redis",
  },
  startPath: '/',
  signedIn: true,
  async play(page, app) {
    await openHome(page, app)
    await pickKey(page, 'product:p100')
    await page.locator('#itemData tbody tr').filter({ hasText: 'price' }).dblclick()
    const modal = page.locator('#editHashFieldModal')
    await modal.locator('#hashFieldValue').fill('19.90')
    const saved = answered(page, 'POST', /^\/apiv2\/hash\/field\/edit$/)
    await modal.locator('#editHashFieldButton').click()
    await saved
    await modal.waitFor({ state: 'hidden' })
  },
  key: {
    target: { method: 'POST', path: '/apiv2/hash/field/edit' },
    inputs: [
      { recorded: 'product:p100', changed: ['product:p200', 'product:p300'] },
      { recorded: '19.90', changed: ['49.00', '15.75'] },
    ],
    dependencies: [],
    mutating: true,
    async replayByHand(app, session) {
      await send(app, session, 'POST', '/apiv2/hash/field/edit', {
        key: 'product:p200',
        field: 'price',
        value: '49.00',
        connectionId: decodeURIComponent(CONN),
      })
      mustPass(
        await editHashField.key.check(app, { status: 'succeeded', result: null }, session, [
          'product:p200',
          '49.00',
        ]),
      )
    },
    async check(app, _run, session, used) {
      const key = String(used[0])
      const got = await readKey(app, session, key)
      if (got.data?.['price'] !== String(used[1]))
        return `${key}'s price is ${got.data?.['price']}, not ${String(used[1])}`
      if (got.data['title'] !== seededField(key, 'title')) return `${key}'s title changed`
      const recorded = await readKey(app, session, 'product:p100')
      return recorded.data?.['price'] === seededField('product:p100', 'price')
        ? null
        : `product:p100's price changed to ${recorded.data?.['price']}`
    },
  },
}

/** Picks a queue (list) in the tree, presses Add New Value..., types a value, saves (LPUSH). */
export const addListValue: Workflow = {
  id: 'add_list_value',
  intent: 'add welcome:1004 to the queue:emails list in Redis Commander',
  rewordings: {
    terse: 'redis lpush queue:emails welcome:1004',
    chatty:
      'Customer 1004 never got their welcome mail, can you push welcome:1004 onto the queue:emails list?',
    withoutValue: 'add a job to a Redis queue',
  },
  startPath: '/',
  signedIn: true,
  async play(page, app) {
    await openHome(page, app)
    await pickKey(page, 'queue:emails')
    await page.getByRole('button', { name: 'Add New Value...' }).click()
    const modal = page.locator('#addListValueModal')
    await modal.locator('#addListValue').fill('welcome:1004')
    const saved = answered(page, 'POST', /^\/apiv2\/list\/value\/add$/)
    await modal.locator('#saveValueButton').click()
    await saved
    await modal.waitFor({ state: 'hidden' })
  },
  key: {
    target: { method: 'POST', path: '/apiv2/list/value/add' },
    inputs: [
      { recorded: 'queue:emails', changed: ['queue:sms', 'queue:push'] },
      { recorded: 'welcome:1004', changed: ['otp:1005', 'promo:autumn'] },
    ],
    dependencies: [],
    mutating: true,
    async replayByHand(app, session) {
      await send(app, session, 'POST', '/apiv2/list/value/add', {
        key: 'queue:sms',
        type: 'lpush',
        value: 'otp:1005',
        connectionId: decodeURIComponent(CONN),
      })
      mustPass(
        await addListValue.key.check(app, { status: 'succeeded', result: null }, session, [
          'queue:sms',
          'otp:1005',
        ]),
      )
    },
    async check(app, _run, session, used) {
      const key = String(used[0])
      const seededItems = (seeded(key) as { items: string[] }).items
      const got = (await readKey(app, session, key)).items?.map((i) => i.value) ?? []
      const want = [String(used[1]), ...seededItems]
      if (JSON.stringify(got) !== JSON.stringify(want))
        return `${key} holds ${JSON.stringify(got)}, not ${JSON.stringify(want)}`
      const recorded = (await readKey(app, session, 'queue:emails')).items?.length
      return recorded === 2 ? null : `queue:emails holds ${recorded} items, not its seeded 2`
    },
  },
}

/** Right-clicks a draft in the tree, picks Rename Key, types the new name, saves. */
export const renameKey: Workflow = {
  id: 'rename_key',
  intent: 'rename the key draft:q1-report to report:q1 in Redis Commander',
  rewordings: {
    terse: 'redis rename draft:q1-report report:q1',
    chatty: 'The Q1 report is final now, could you rename draft:q1-report to report:q1 in Redis?',
    withoutValue: 'rename a Redis key',
  },
  startPath: '/',
  signedIn: true,
  async play(page, app) {
    await openHome(page, app)
    await openFolder(page, 'draft:')
    await contextMenu(page, treeNode(page, 'draft:q1-report'), 'Rename Key')
    const modal = page.locator('#renameKeyModal')
    await modal.locator('#renamedKeyName').fill('report:q1')
    const saved = answered(page, 'POST', /^\/apiv2\/key\//)
    await modal.locator('#renameKeyButton').click()
    await saved
    await modal.waitFor({ state: 'hidden' })
    await treeNode(page, 'report:').waitFor()
  },
  key: {
    target: { method: 'POST', path: KEY_PATH, operation: { field: 'action', value: 'patch' } },
    inputs: [
      { recorded: 'draft:q1-report', changed: ['draft:q2-report', 'draft:q3-report'] },
      { recorded: 'report:q1', changed: ['report:q2', 'report:q3'] },
    ],
    dependencies: [],
    mutating: true,
    async replayByHand(app, session) {
      await send(app, session, 'POST', keyPath('draft:q2-report'), {
        key: 'report:q2',
        force: 'false',
        action: 'patch',
      })
      mustPass(
        await renameKey.key.check(app, { status: 'succeeded', result: null }, session, [
          'draft:q2-report',
          'report:q2',
        ]),
      )
    },
    async check(app, _run, session, used) {
      const [from, to] = [String(used[0]), String(used[1])]
      const why = await holdsString(app, session, to, seededString(from))
      if (why) return why
      if ((await readKey(app, session, from)).type !== 'none') return `${from} still exists`
      const recorded = await holdsString(
        app,
        session,
        'draft:q1-report',
        seededString('draft:q1-report'),
      )
      if (recorded) return `the recorded key changed: ${recorded}`
      return (await readKey(app, session, 'report:q1')).type === 'none'
        ? null
        : 'the recorded new name report:q1 exists'
    },
  },
}

/** Picks a cached page in the tree, presses Delete Key and confirms. */
export const deleteKey: Workflow = {
  id: 'delete_key',
  intent: 'delete the key cache:homepage in Redis Commander',
  rewordings: {
    terse: 'redis del cache:homepage',
    chatty: 'The homepage cache is stale, can you just delete cache:homepage from Redis?',
    withoutValue: 'delete a Redis key',
  },
  startPath: '/',
  signedIn: true,
  async play(page, app) {
    await openHome(page, app)
    await pickKey(page, 'cache:homepage')
    page.once('dialog', (dialog) => void dialog.accept())
    const deleted = answered(page, 'POST', /^\/apiv2\/key\//)
    await page.getByRole('button', { name: 'Delete Key' }).click()
    await deleted
    await keyShown(page, 'cache:homepage').waitFor({ state: 'detached' })
    await treeNode(page, 'cache:homepage').waitFor({ state: 'detached' })
  },
  key: {
    target: { method: 'POST', path: KEY_PATH, operation: { field: 'action', value: 'delete' } },
    inputs: [{ recorded: 'cache:homepage', changed: ['cache:pricing', 'cache:faq'] }],
    dependencies: [],
    mutating: true,
    async replayByHand(app, session) {
      await send(app, session, 'POST', `${keyPath('cache:pricing')}?action=delete`)
      mustPass(
        await deleteKey.key.check(app, { status: 'succeeded', result: null }, session, [
          'cache:pricing',
        ]),
      )
    },
    async check(app, _run, session, used) {
      const key = String(used[0])
      if ((await readKey(app, session, key)).type !== 'none') return `${key} still exists`
      const recorded = await holdsString(
        app,
        session,
        'cache:homepage',
        seededString('cache:homepage'),
      )
      return recorded ? `the recorded key changed: ${recorded}` : null
    },
  },
}

/** Types `expire session:abc 3600` into the command-line panel (Redis answers 1). */
export const setTtl: Workflow = {
  id: 'set_ttl',
  intent: 'make the key session:abc expire in 3600 seconds in Redis Commander',
  rewordings: {
    terse: 'redis expire session:abc 3600',
    chatty:
      "That session shouldn't live forever, can you give session:abc an expiry of 3600 seconds?",
    withoutValue: 'set an expiry on a Redis key',
  },
  startPath: '/',
  signedIn: true,
  async play(page, app) {
    await openHome(page, app)
    await runCommand(page, 'expire session:abc 3600', '1')
  },
  key: {
    target: execKey('expire session:abc 3600'),
    inputs: [
      { recorded: 'session:abc', changed: ['session:def', 'session:ghi'] },
      { recorded: 3600, changed: [7200, 1800] },
    ],
    dependencies: [],
    mutating: true,
    async replayByHand(app, session) {
      await send(app, session, 'POST', `/apiv2/exec/${CONN}`, { cmd: 'expire session:def 7200' })
      mustPass(
        await setTtl.key.check(app, { status: 'succeeded', result: null }, session, [
          'session:def',
          7200,
        ]),
      )
    },
    async check(app, _run, session, used) {
      const key = String(used[0])
      const seconds = Number(used[1])
      const got = await readKey(app, session, key)
      if (got.type !== 'string') return `${key} is ${got.type}`
      // A few seconds may pass between the tool's run and this read.
      const ttl = got.ttl ?? -1
      if (ttl > seconds || ttl < seconds - 60) return `${key}'s TTL is ${ttl}, not about ${seconds}`
      const recorded = await readKey(app, session, 'session:abc')
      return recorded.ttl === -1 ? null : `session:abc got a TTL of ${recorded.ttl}`
    },
  },
}
