import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { McpStdioCommand } from '../../shared/appApi'

/**
 * How an MCP client that starts a command runs `sitecall mcp` on this data dir, exactly: this
 * Node's absolute path, the absolute path of the checkout's `bin/sitecall.mjs` (nothing looked up on PATH, nothing fetched from a registry) and `SITECALL_HOME`. Under Electron
 * the app's own binary runs as Node (`ELECTRON_RUN_AS_NODE=1`). Null when the script is not on
 * disk next to this module (a packaged build without the checkout).
 */
export function mcpStdioCommand(home: string): McpStdioCommand | null {
  const script = [
    new URL('../../../bin/sitecall.mjs', import.meta.url),
    new URL('../../bin/sitecall.mjs', import.meta.url),
  ]
    .map((url) => fileURLToPath(url))
    .find((path) => existsSync(path))
  if (!script) return null
  return {
    command: process.execPath,
    args: [script, 'mcp'],
    env: {
      SITECALL_HOME: home,
      ...(process.versions.electron ? { ELECTRON_RUN_AS_NODE: '1' } : {}),
    },
  }
}
