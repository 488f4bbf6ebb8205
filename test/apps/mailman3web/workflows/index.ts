/** The scripted workflows of the Mailman suite, in the order they are recorded (one instance). */
import type { Workflow } from '../../types'
import { createList, deleteList } from './lists'
import { banAddress, removeMember, subscribeMember } from './members'
import { listMembers, searchMembers } from './reads'
import { changeDescription } from './settings'

// The reads come first, while the Team list still holds everyone the seed put there.
export const WORKFLOWS: Workflow[] = [
  searchMembers,
  listMembers,
  createList,
  subscribeMember,
  removeMember,
  changeDescription,
  banAddress,
  deleteList,
]
