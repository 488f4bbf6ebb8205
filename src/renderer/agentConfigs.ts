import type { McpStdioCommand } from '../shared/appApi'

/**
 * Copy-paste configurations that connect an agent to this app. Each takes the
 * local service's URL (`http://127.0.0.1:7411`) and an API key, or the placeholder
 * `svc_live_…` when the person has not made one here.
 */

const KEY_PLACEHOLDER = 'svc_live_…'

export interface AgentConfig {
  id: 'claude' | 'cursor' | 'vscode' | 'stdio'
  client: string
  /** Where the text goes. */
  where: string
  text: string
}

const json = (value: unknown) => JSON.stringify(value, null, 2)

/**
 * The MCP configurations (each runs as shown). Cursor and VS Code reach `/mcp`
 * over Streamable HTTP with the key as a bearer. Claude Desktop's config file starts a command:
 * `stdio` is the service's own (`app.info` `mcpStdio`: absolute Node and `bin/sitecall.mjs`
 * paths, `SITECALL_HOME`), since `sitecall` is on no PATH after the set-up and `npx sitecall`
 * outside the checkout would fetch a stranger's package. Without it (a build with no script on
 * disk) the command clients are pointed at the HTTP configurations instead.
 */
export function agentConfigs(
  apiUrl: string,
  key: string | null,
  stdio: McpStdioCommand | null = null,
): AgentConfig[] {
  const url = `${apiUrl}/mcp`
  const headers = { Authorization: `Bearer ${key ?? KEY_PLACEHOLDER}` }
  const http: AgentConfig[] = [
    {
      id: 'cursor',
      client: 'Cursor',
      where: '~/.cursor/mcp.json, or .cursor/mcp.json in a project',
      text: json({ mcpServers: { sitecall: { url, headers } } }),
    },
    {
      id: 'vscode',
      client: 'VS Code',
      where: '.vscode/mcp.json in a workspace (or MCP: Open User Configuration)',
      text: json({ servers: { sitecall: { type: 'http', url, headers } } }),
    },
  ]
  if (!stdio) return http
  return [
    {
      id: 'claude',
      client: 'Claude Desktop',
      where: 'claude_desktop_config.json (Settings → Developer → Edit Config)',
      text: json({ mcpServers: { sitecall: stdio } }),
    },
    ...http,
    {
      id: 'stdio',
      client: 'Any client that starts a command',
      where: 'the client’s MCP settings: command, arguments and environment',
      text: [
        `command: ${stdio.command}`,
        `arguments: ${stdio.args.map(shellWord).join(' ')}`,
        `environment: ${Object.entries(stdio.env)
          .map(([k, v]) => `${k}=${shellWord(v)}`)
          .join(' ')}`,
        `# only some sites’ tools: add the arguments --apps example.com,shop.test`,
      ].join('\n'),
    },
  ]
}

/** A word as a POSIX shell reads it: quoted when it holds anything but safe characters. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`
}

/** `curl` that calls a tool on surface A (interface.md "A. Site tool calls") with `inputs` as the body. */
export function toolCurl(
  apiUrl: string,
  key: string | null,
  tool: { siteHost: string; name: string },
  inputs: Record<string, unknown>,
): string {
  const body = JSON.stringify(inputs).replaceAll("'", "'\\''")
  return [
    `curl -X POST ${apiUrl}/api/v1/sites/${tool.siteHost}/call/${tool.name}`,
    `  -H 'Authorization: Bearer ${key ?? KEY_PLACEHOLDER}'`,
    `  -H 'Content-Type: application/json'`,
    `  -d '${body}'`,
  ].join(' \\\n')
}

/** `curl` that registers a public OAuth client (interface.md "Authentication" 3: S256 PKCE follows). */
export function oauthRegistrationCurl(apiUrl: string, redirectUri: string): string {
  const body = JSON.stringify({ client_name: 'My agent', redirect_uris: [redirectUri] })
  return [
    `curl -X POST ${apiUrl}/oauth/clients`,
    `  -H 'Content-Type: application/json'`,
    `  -d '${body.replaceAll("'", "'\\''")}'`,
  ].join(' \\\n')
}
