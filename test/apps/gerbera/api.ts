/**
 * What the answer keys of Gerbera do by hand, as a person with curl would: call the one endpoint
 * `/content/interface` with the operation in `req_type` (and `action`), the saved login's
 * session id in `sid`, and read the JSON answers (the new UI's format) to find folders and items
 * by name and to judge the state after a write.
 */
import type { StorageState } from '../../../src/shared/trace'
import type { AppInstance, RequestKey } from '../types'
import { INTERFACE, sidOf } from './session'

/** The interface call named by its `req_type` (and `action` when given), any other fields. */
export function op(reqType: string, action?: string): RequestKey {
  const fields = [{ field: 'req_type', value: reqType }]
  if (action) fields.push({ field: 'action', value: action })
  return { method: 'GET', path: INTERFACE, operation: fields.length === 1 ? fields[0] : fields }
}

/** Hex of a path, as the Filesystem view names files and folders. */
export function fsId(path: string): string {
  return Buffer.from(path, 'utf8').toString('hex')
}

/** Throws `message` when `problem` is not null (replayByHand reuses the checks this way). */
export function mustPass(problem: string | null): void {
  if (problem) throw new Error(problem)
}

/** A run's result as one searchable string (XML answers are text; JSON ones are serialised). */
export function resultText(result: unknown): string {
  const text = typeof result === 'string' ? result : JSON.stringify(result ?? '')
  return text
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
}

/**
 * Calls the interface as the signed-in user (`sid` from the saved login) and returns the JSON
 * answer; throws when Gerbera answers an error.
 */
export async function call(
  app: AppInstance,
  session: StorageState,
  params: Record<string, string>,
): Promise<Record<string, unknown>> {
  const query = new URLSearchParams({ ...params, sid: sidOf(session) })
  const res = await app.fetch(`${INTERFACE}?${query}`, { session })
  const text = await res.text()
  let answer: Record<string, unknown>
  try {
    answer = JSON.parse(text) as Record<string, unknown>
  } catch {
    throw new Error(`${params['req_type']} answered ${res.status}: ${text.slice(0, 200)}`)
  }
  if (answer['success'] !== true)
    throw new Error(`${params['req_type']} failed: ${JSON.stringify(answer['error'] ?? answer)}`)
  return answer
}

/** One entry of a list answer: a folder, an item or a file. */
export interface Entry {
  id: string
  title: string
  autoscan?: string
}

/** The sub-folders of a database folder (`containers`), with their autoscan type. */
export async function containers(
  app: AppInstance,
  session: StorageState,
  parentId: string,
): Promise<Entry[]> {
  const answer = await call(app, session, {
    req_type: 'containers',
    parent_id: parentId,
    select_it: '0',
  })
  const list = (answer['containers'] as { container: Array<Record<string, unknown>> }).container
  return list.map((c) => ({
    id: String(c['id']),
    title: String(c['title']),
    autoscan: String(c['autoscan_type']),
  }))
}

/** The items of a database folder (`items`, first 100). */
export async function items(
  app: AppInstance,
  session: StorageState,
  parentId: string,
): Promise<Entry[]> {
  const answer = await call(app, session, {
    req_type: 'items',
    parent_id: parentId,
    start: '0',
    count: '100',
  })
  const list = (answer['items'] as { item: Array<Record<string, unknown>> }).item
  return list.map((i) => ({ id: String(i['id']), title: String(i['title']) }))
}

/** The files of a filesystem folder (`files`, by hex path). */
export async function files(
  app: AppInstance,
  session: StorageState,
  dir: string,
): Promise<Entry[]> {
  const answer = await call(app, session, {
    req_type: 'files',
    parent_id: fsId(dir),
    start: '0',
    count: '100',
  })
  const list = (answer['files'] as { file: Array<Record<string, unknown>> }).file
  return list.map((f) => ({ id: String(f['id']), title: String(f['filename']) }))
}

/**
 * The id of the database folder at `path` (titles from the root, e.g. PC Directory, srv, media),
 * or null when one of them does not exist.
 */
export async function folderId(
  app: AppInstance,
  session: StorageState,
  path: string[],
): Promise<string | null> {
  let id = '0'
  for (const title of path) {
    const found = (await containers(app, session, id)).find((c) => c.title === title)
    if (!found) return null
    id = found.id
  }
  return id
}

/** The items of the database folder at `path`; throws when it does not exist. */
export async function itemsAt(
  app: AppInstance,
  session: StorageState,
  path: string[],
): Promise<Entry[]> {
  const id = await folderId(app, session, path)
  if (id === null) throw new Error(`Gerbera has no folder ${path.join('/')}`)
  return items(app, session, id)
}

/** What the edit form shows of an object (`edit_load`): each field's value. */
export async function editLoad(
  app: AppInstance,
  session: StorageState,
  objectId: string,
): Promise<Record<string, string>> {
  const answer = await call(app, session, { req_type: 'edit_load', object_id: objectId })
  const item = answer['item'] as Record<string, unknown>
  const fields: Record<string, string> = { obj_type: String(item['obj_type']) }
  for (const [name, value] of Object.entries(item))
    if (value && typeof value === 'object' && 'value' in value)
      fields[name] = String((value as { value: unknown }).value)
  return fields
}

/** An autoscan setting as the autoscan form loads it (`as_edit_load`). */
export interface Autoscan {
  scanMode: string
  interval: number
  recursive: boolean
}

/**
 * The autoscan setting of a folder: by database id, or by path (`fromFs`). Never the
 * `action=list` call: Gerbera 1.1.0 can crash answering it right after an autoscan was removed.
 */
export async function autoscanOf(
  app: AppInstance,
  session: StorageState,
  objectId: string,
  fromFs: boolean,
): Promise<Autoscan> {
  const answer = await call(app, session, {
    req_type: 'autoscan',
    action: 'as_edit_load',
    object_id: objectId,
    from_fs: fromFs ? 'true' : 'false',
  })
  const a = answer['autoscan'] as Record<string, unknown>
  return {
    scanMode: String(a['scan_mode']),
    interval: Number(a['interval']),
    recursive: a['recursive'] === true,
  }
}

/**
 * Polls `probe` (every 200 ms, up to `timeoutMs`) until it returns null; returns its last answer.
 * Gerbera adds files and rescans in a background task, so a check waits for the result.
 */
export async function eventually(
  probe: () => Promise<string | null>,
  timeoutMs = 5000,
): Promise<string | null> {
  const deadline = Date.now() + timeoutMs
  let problem = await probe()
  while (problem && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 200))
    problem = await probe()
  }
  return problem
}
