/** The scripted workflows of Icinga Web 2, in the order they are recorded (all on one instance). */
import type { Workflow } from '../../types'
import { addUserToGroup, createGroup, createRole } from './groups'
import { addMenuEntry, changeTimezone } from './personal'
import { createUser, deleteUser, searchUsers } from './users'

export const WORKFLOWS: Workflow[] = [
  searchUsers,
  createUser,
  deleteUser,
  createGroup,
  addUserToGroup,
  createRole,
  addMenuEntry,
  changeTimezone,
]
