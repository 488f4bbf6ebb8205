/** The scripted workflows of DAViCal, in the order they are recorded (all on one instance). */
import type { Workflow } from '../../types'
import { addGroupMember, createCalendar, grantReadAccess } from './access'
import { changeUserEmail, createUser, deleteUser } from './principals'
import { listGroups, showUserEmail } from './reads'

// list_groups first: the group list shows each group's members, which add_group_member changes.
export const WORKFLOWS: Workflow[] = [
  listGroups,
  showUserEmail,
  createUser,
  changeUserEmail,
  deleteUser,
  addGroupMember,
  grantReadAccess,
  createCalendar,
]
