import type { ToolNeed } from '../../shared/appApi'
import type { ToolSpec } from '../../shared/toolSpec'
import { secretNames } from '../engine/template'

/** What `toolNeeds` checks a tool against: the workspace as it is now. */
export interface NeedsContext {
  vaultLocked: boolean
  /** True when a login is saved for this host. */
  hasLogin: (siteHost: string) => boolean
  /** True when the host's saved login keeps a username and password; absent: not checked. */
  hasPassword?: (siteHost: string) => boolean
  /** Names of the workspace's stored secrets. */
  secretNames: ReadonlySet<string>
}

/**
 * What a run of `tool` needs before it can succeed ("Verify says what it needs
 * first"), each with the one thing that fixes it: an open vault when the tool uses a saved login
 * or a secret (both are sealed in it), the site's saved login when its requests carry session
 * values (`tool.login`), and each `{{secret:NAME}}` of its steps that is not stored. Empty when
 * nothing is missing. Pure: the caller reads the vault and the stores.
 */
export function toolNeeds(tool: ToolSpec, context: NeedsContext): ToolNeed[] {
  const needs: ToolNeed[] = []
  const secrets = [...new Set(tool.steps.flatMap((s) => secretNames(s.request)))]
  if (context.vaultLocked && (tool.login || secrets.length))
    needs.push({
      kind: 'vault',
      message: 'The vault is locked: the saved login and secrets this tool uses are sealed in it.',
    })
  if (tool.login && !context.hasLogin(tool.siteHost))
    needs.push({
      kind: 'login',
      host: tool.siteHost,
      message: `This tool signs in as you on ${tool.siteHost}, and no login is saved for it.`,
    })
  else if (tool.login?.httpAuth && context.hasPassword && !context.hasPassword(tool.siteHost))
    // A site behind HTTP authentication answers only to a username and password.
    needs.push({
      kind: 'login',
      host: tool.siteHost,
      message: `${tool.siteHost} asks HTTP ${tool.login.httpAuth.scheme === 'digest' ? 'Digest' : 'Basic'} authentication, and its saved login keeps no username and password: sign in again.`,
    })
  for (const name of secrets.filter((n) => !context.secretNames.has(n)))
    needs.push({
      kind: 'secret',
      secret: name,
      host: tool.siteHost,
      message: name.startsWith('login.')
        ? `This tool signs in with the username and password saved with the login of ${tool.siteHost}; none are saved.`
        : `This tool sends the secret ${name}, which is not stored.`,
    })
  return needs
}
