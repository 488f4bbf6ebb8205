import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { isAbsolute, join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { createCore } from '../../../src/main/core'
import { mcpStdioCommand } from '../../../src/main/surface/stdioCommand'
import { keepServeFile, readServeFile, SERVE_FILE } from '../../../src/main/mcp/serveFile'
import { agentConfigs } from '../../../src/renderer/agentConfigs'
import type { AppInfo, McpStdioCommand } from '../../../src/shared/appApi'
import type { Run } from '../../../src/shared/run'
import type { ToolSpec } from '../../../src/shared/toolSpec'
import { startDirectorySite, type DirectorySite } from '../../fixtures/sites/directory'
import { makeSearchTool } from '../../fixtures/harness/searchTool'
import { startServe, until, type ServeProcess } from '../engine/serveProcess'

/**
 * The Connect page's command configurations run as shown (issue 26 item 2.3): the configuration
 * text the page renders for this installation, started the way its client starts it (the official
 * SDK's stdio client: command, arguments, environment; another working directory), beside a
 * running `sitecall serve` (bridged to it) and with nothing running.
 */
let home: string
let site: DirectorySite
let tool: ToolSpec
let serve: ServeProcess | null = null
const clients: Client[] = []

beforeEach(async () => {
  home = mkdtempSync(join(tmpdir(), 'sitecall-mcp-config-'))
  site = await startDirectorySite()
  const core = createCore({ home, rendererDir: null })
  ;({ tool } = await makeSearchTool(core, site))
  await core.close()
})

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close()
  await serve?.stop('SIGTERM')
  serve = null
  await site.close()
  rmSync(home, { recursive: true, force: true })
})

/** `app.info` of the running service, as the Connect page reads it (owner token of the file). */
async function appInfo(base: string): Promise<AppInfo> {
  const token = readServeFile(home)!.token
  const answer = await fetch(`${base}/app-api/app.info`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: '{}',
  })
  const body = (await answer.json()) as { ok: boolean; value: AppInfo }
  expect(body.ok).toBe(true)
  return body.value
}

/** Starts a client's command as Claude Desktop does: its own cwd, the config's env added. */
async function start(command: McpStdioCommand): Promise<Client> {
  const transport = new StdioClientTransport({
    command: command.command,
    args: command.args,
    env: { PATH: process.env.PATH ?? '', ...command.env },
    cwd: tmpdir(),
    stderr: 'pipe',
  })
  const client = new Client({ name: 'sitecall-config-test', version: '1.0.0' })
  await client.connect(transport)
  clients.push(client)
  return client
}

/** The "any client that starts a command" text read back into command, arguments, environment. */
function parseGeneric(text: string): McpStdioCommand {
  const line = (name: string) =>
    text
      .split('\n')
      .find((l) => l.startsWith(`${name}: `))!
      .slice(name.length + 2)
  const words = (s: string) => s.split(' ').map((w) => w.replace(/^'(.*)'$/, '$1'))
  return {
    command: line('command'),
    args: words(line('arguments')),
    env: Object.fromEntries(
      words(line('environment')).map((pair) => [
        pair.slice(0, pair.indexOf('=')),
        pair.slice(pair.indexOf('=') + 1),
      ]),
    ),
  }
}

async function callSearch(client: Client): Promise<Run> {
  const query = Object.keys(tool.inputs.properties).find((k) => /query/i.test(k))!
  const result = (await client.callTool({
    name: tool.name,
    arguments: { [query]: 'writing' },
  })) as CallToolResult
  expect(result.isError).toBeFalsy()
  return result.structuredContent as unknown as Run
}

describe('the Connect page’s command configurations', () => {
  it('name absolute paths and the data dir, and run beside serve through it, then alone', async () => {
    serve = await startServe(home, { SITECALL_KEYCHAIN: 'off' })
    await until(() => existsSync(join(home, SERVE_FILE)))
    expect(statSync(join(home, SERVE_FILE)).mode & 0o077).toBe(0)
    const info = await appInfo(serve.base)
    const stdio = info.mcpStdio!
    expect(isAbsolute(stdio.command)).toBe(true)
    expect(stdio.args[0]).toMatch(/\/bin\/sitecall\.mjs$/)
    expect(isAbsolute(stdio.args[0]!)).toBe(true)
    expect(stdio.args.slice(1)).toEqual(['mcp'])
    expect(stdio.env).toEqual({ SITECALL_HOME: home })

    const configs = agentConfigs(serve.base, null, stdio)
    const claude = JSON.parse(configs.find((c) => c.id === 'claude')!.text) as {
      mcpServers: { sitecall: McpStdioCommand }
    }
    expect(claude.mcpServers.sitecall).toEqual(stdio)
    const generic = parseGeneric(configs.find((c) => c.id === 'stdio')!.text)
    expect(generic).toEqual(stdio)

    // Beside serve: the bridge; the run is the serving process's (it answers it over REST).
    const bridged = await start(claude.mcpServers.sitecall)
    const { tools } = await bridged.listTools()
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining([tool.name, 'service_compose']))
    const run = await callSearch(bridged)
    expect(run.status).toBe('succeeded')
    const token = readServeFile(home)!.token
    const polled = await fetch(`${serve.base}/api/v1/runs/${run.runId}`, {
      headers: { authorization: `Bearer ${token}` },
    })
    expect(polled.status).toBe(200)
    const second = await start(generic)
    expect((await callSearch(second)).status).toBe('succeeded')
    for (const client of clients.splice(0)) await client.close()

    // serve gone: the same configuration runs its own engine on the data dir.
    await serve.stop('SIGTERM')
    serve = null
    expect(existsSync(join(home, SERVE_FILE))).toBe(false)
    const alone = await start(claude.mcpServers.sitecall)
    expect((await callSearch(alone)).status).toBe('succeeded')
  }, 180_000)

  it('bridges to the desktop app the same way (a core serving in-process keeps the file)', async () => {
    // What src/main/index.ts does: listen, then keep the serve file while the window runs.
    const app = createCore({ home, port: 0, rendererDir: null, keychain: null })
    try {
      const base = await app.listen()
      const forget = keepServeFile(home, base, () => app.ownerTokens.issue().token)
      try {
        const client = await start(mcpStdioCommand(home)!)
        const run = await callSearch(client)
        expect(run.status).toBe('succeeded')
        // The run is the app's: its engine ran it.
        expect(app.store.runs.list({ toolId: tool.id }).map((r) => r.runId)).toContain(run.runId)
      } finally {
        for (const client of clients.splice(0)) await client.close()
        forget()
      }
      expect(existsSync(join(home, SERVE_FILE))).toBe(false)
    } finally {
      await app.close()
    }
  }, 120_000)
})
