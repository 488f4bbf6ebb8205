/**
 * The scripted workflows of ejabberd's web admin, in the order they are recorded and checked (all
 * on one instance): the reads first, then the writes, each on accounts, rosters and groups that
 * no other workflow reads or changes.
 */
import type { Workflow } from '../../types'
import { addRosterContact, changePassword, deleteUser, registerUser } from './accounts'
import { createSharedGroup, describeGroup } from './groups'
import { listUsers, userRoster } from './reads'

export const WORKFLOWS: Workflow[] = [
  listUsers,
  userRoster,
  registerUser,
  changePassword,
  deleteUser,
  addRosterContact,
  createSharedGroup,
  describeGroup,
]
