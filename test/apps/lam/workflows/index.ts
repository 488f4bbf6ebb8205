/** The scripted workflows of LDAP Account Manager, in the order they are recorded (all on one instance). */
import type { Workflow } from '../../types'
import { addToGroup, createGroup } from './groups'
import { createProfile } from './profile'
import { filterUsers, listGroups } from './reads'
import { createUser, deleteUser, editPhone } from './users'

export const WORKFLOWS: Workflow[] = [
  filterUsers,
  listGroups,
  createUser,
  editPhone,
  deleteUser,
  createGroup,
  addToGroup,
  createProfile,
]
