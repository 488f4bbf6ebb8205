/** The scripted workflows of Zabbix, in the order they are recorded (all on one instance). */
import type { Workflow } from '../../types'
import { createMaintenance, deleteUser } from './admin'
import { createHost, createHostGroup, deleteHostGroup } from './groups'
import { filterUsers, listHosts, searchHosts } from './reads'

// filter_users last: Zabbix keeps a list's filter in the user's profile, so the user list that
// delete_user reads must come before anyone filters it.
export const WORKFLOWS: Workflow[] = [
  searchHosts,
  listHosts,
  createHostGroup,
  deleteHostGroup,
  createHost,
  createMaintenance,
  deleteUser,
  filterUsers,
]
