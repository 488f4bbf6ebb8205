/**
 * Copy-paste configurations that connect an agent to this app. Each takes the
 * local service's URL (`http://127.0.0.1:7411`) and an API key, or the placeholder
 * `svc_live_…` when the person has not made one here.
 */

export const KEY_PLACEHOLDER = 'svc_live_…'

export interface AgentConfig {
  id: 'claude' | 'cursor' | 'vscode' | 'stdio'
  client: string
  /** Where the text goes. */
  where: string
  text: string
}

const json = (value: unknown) => JSON.stringify(value, null, 2)

/**
 * The MCP configurations: Cursor and VS Code reach `/mcp` over Streamable HTTP with the key as a
 * bearer; Claude Desktop's config file starts a command, so it runs `sitecall mcp` (stdio), as
 * does any client that only starts commands.
 */
export function agentConfigs(apiUrl: string, key: string | null): AgentConfig[] {
  const url = `${apiUrl}/mcp`
  const headers = { Authorization: `Bearer ${key ?? KEY_PLACEHOLDER}` }
  const stdio = { command: 'sitecall', args: ['mcp'] }
  return [
    {
      id: 'claude',
      client: 'Claude Desktop',
      where: 'claude_desktop_config.json (Settings → Developer → Edit Config)',
      text: json({ mcpServers: { sitecall: stdio } }),
    },
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
    {
      id: 'stdio',
      client: 'Any client that starts a command',
      where: 'the client’s MCP settings: command and arguments',
      text: 'sitecall mcp\n# only some sites’ tools:  sitecall mcp --apps example.com,shop.test',
    },
  ]
}

/** `curl` that calls a tool on surface A (spec "A. Site tool calls") with `inputs` as the body. */
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

/** `curl` that registers a public OAuth client (spec "Authentication" 3: S256 PKCE follows). */
export function oauthRegistrationCurl(apiUrl: string, redirectUri: string): string {
  const body = JSON.stringify({ client_name: 'My agent', redirect_uris: [redirectUri] })
  return [
    `curl -X POST ${apiUrl}/oauth/clients`,
    `  -H 'Content-Type: application/json'`,
    `  -d '${body.replaceAll("'", "'\\''")}'`,
  ].join(' \\\n')
}
