import { parseArgs } from 'node:util'
import { ServiceError } from '../shared/errors'
import { dataDir, databasePath } from './config'
import { LOCAL_TENANT } from './core'
import { createStore } from './store/store'
import { createDesktopSync } from './sync/desktopSync'
import { changedFields, type SyncReport } from './sync/syncRun'
import { createKeychain } from './vault/keychain'
import { createVault } from './vault/vault'

export const SYNC_USAGE = `sitecall link SERVER_URL [--token OWNER_TOKEN] [--workspace WS_ID] [--json]
  sitecall link --remove
  sitecall sync [--take mine|theirs TOOL] [--json]`

/** Opens the data dir's store, vault and keychain for one sync command; `close` when done. */
function openDesktopSync(env: Record<string, string | undefined> = process.env) {
  const store = createStore(databasePath(dataDir(env)))
  const keychain = env.SITECALL_KEYCHAIN === 'off' ? null : createKeychain({ env })
  const vault = createVault({
    secrets: store.secrets,
    keychain,
    passphrase: env.SITECALL_PASSPHRASE ?? null,
    clock: Date.now,
  })
  const sync = createDesktopSync({ store, vault, keychain, tenant: LOCAL_TENANT, clock: Date.now })
  return { sync, close: () => store.close() }
}

/**
 * `sitecall link SERVER_URL`: links this desktop's tools to a team server (docs/team-server.md). Prints
 * the URL to open and waits for the approval (OAuth, PKCE S256, public client); `--token`
 * takes an owner token instead (scripts); `--remove` unlinks. Exit 0 linked, 1 refused.
 */
export async function linkCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      token: { type: 'string' },
      workspace: { type: 'string' },
      remove: { type: 'boolean' },
      json: { type: 'boolean' },
    },
  })
  const { sync, close } = openDesktopSync()
  try {
    if (values.remove) {
      const removed = await sync.disconnect()
      process.stdout.write(removed ? 'Unlinked: the tools stay here.\n' : 'Not linked.\n')
      return 0
    }
    const [serverUrl] = positionals
    if (!serverUrl || positionals.length > 1)
      throw new ServiceError('invalid_input', `Usage: ${SYNC_USAGE}`)
    const link = await sync.connect(serverUrl, {
      token: values.token ?? null,
      workspace: values.workspace ?? null,
      openUrl: (url) =>
        void process.stdout.write(
          `Open this URL in a browser signed in to the server, and approve:\n${url}\n`,
        ),
    })
    process.stdout.write(
      values.json
        ? `${JSON.stringify({ serverUrl: link.serverUrl, workspace: link.workspace, auth: link.auth, tokenStore: link.tokenStore })}\n`
        : `Linked to ${link.serverUrl} (token kept in the ${link.tokenStore === 'keychain' ? 'OS keychain' : 'vault, sealed'}). Every verified tool is queued: run \`sitecall sync\`.\n`,
    )
    return 0
  } finally {
    close()
  }
}

/**
 * `sitecall sync`: pushes the outbox, pulls the server's changes, and lists conflicts with
 * what differs; `--take mine|theirs TOOL` settles one first. Exit 0 synced (conflicts may stay
 * open: they are listed), 1 when the sync stopped (the server out of reach) or was refused.
 */
export async function syncCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { take: { type: 'string' }, json: { type: 'boolean' } },
  })
  if (values.take !== undefined && values.take !== 'mine' && values.take !== 'theirs')
    throw new ServiceError('invalid_input', '--take is mine or theirs.')
  if (values.take !== undefined && positionals.length !== 1)
    throw new ServiceError('invalid_input', '--take needs the tool (its id or name).')
  const { sync, close } = openDesktopSync()
  try {
    const report = values.take ? await sync.take(positionals[0]!, values.take) : await sync.sync()
    process.stdout.write(values.json ? `${JSON.stringify(report)}\n` : describe(report))
    return report.stopped ? 1 : 0
  } finally {
    close()
  }
}

/** The lines `sitecall sync` prints. */
function describe(report: SyncReport): string {
  const lines = [
    `Pushed ${report.pushed.length}, deleted ${report.deleted.length}; pulled ` +
      `${report.pulled.length}, removed ${report.removed.length}; server revision ${report.revision}.`,
  ]
  for (const r of report.refused) lines.push(`Refused ${r.toolId}: ${r.code}: ${r.message}`)
  for (const c of report.conflicts) {
    const name = c.mine?.name ?? c.theirs?.name ?? c.toolId
    lines.push(
      `Conflict ${name} (${c.toolId}): the server has revision ${c.theirRevision}; they differ in ` +
        `${changedFields(c.mine, c.theirs).join(', ') || 'nothing but time'}. Choose: ` +
        `sitecall sync --take mine ${c.toolId}  or  sitecall sync --take theirs ${c.toolId}`,
    )
  }
  if (report.stopped) lines.push(`Stopped: ${report.stopped} (the outbox keeps the rest).`)
  return `${lines.join('\n')}\n`
}
