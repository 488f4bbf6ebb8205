import { ServiceError } from '../../shared/errors'
import type { ToolEdit } from '../../shared/toolEdit'
import type { ToolSpec } from '../../shared/toolSpec'
import type { Store } from '../store/store'
import type { Vault } from '../vault'
import { applyToolEdit } from './toolEdit'

export interface EditToolDeps {
  store: Pick<Store, 'tools'>
  /** Secrets a header or body field may name. */
  vault: Pick<Vault, 'list'>
  /** Milliseconds since the Unix epoch. */
  clock: () => number
}

/**
 * Loads tool `id`, applies `edit` (see `applyToolEdit`) and saves the new version in its place:
 * the one use case behind the app method `tools.update` and `PATCH /v1/tools/{id}`. Returns the
 * saved tool. Errors: 404 `not_found`; 400 `invalid_input` from the edit's checks (nothing saved).
 */
export function editTool(deps: EditToolDeps, tenant: string, id: string, edit: ToolEdit): ToolSpec {
  const tool = deps.store.tools.get(id)
  if (!tool) throw new ServiceError('not_found', `No tool ${id}.`)
  const next = applyToolEdit(tool, edit, {
    now: deps.clock(),
    nameTaken: (name) => {
      const other = deps.store.tools.getByName(tool.siteHost, name)
      return other !== null && other.id !== tool.id
    },
    secrets: deps.vault.list(tenant),
  })
  deps.store.tools.save(next)
  return next
}
