import { LOCAL_TENANT, type Core } from '../../src/main/core'
import type { ToolSpec } from '../../src/shared/toolSpec'
import type { OrdersSite } from '../fixtures/sites/orders'
import { orderTool } from '../fixtures/sites/orders/orderTool'

/**
 * Saves `orderTool` verified in the core's store and alice's session on the site as the
 * person's login (sealed in the vault, which must be open). Returns the tool.
 */
export async function saveOrderToolAndLogin(core: Core, site: OrdersSite): Promise<ToolSpec> {
  const tool = orderTool(site)
  core.store.tools.save(tool)
  const session = site.state.sessions.start('alice')
  await core.logins.save(LOCAL_TENANT, site.host, {
    cookies: [
      { name: 'parcel_session', value: session, domain: '127.0.0.1', path: '/', expires: -1 },
    ],
    origins: [],
  })
  return tool
}
