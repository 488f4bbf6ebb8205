/** The scripted workflows of phpLDAPadmin, in the order they are recorded (all on one instance). */
import type { Workflow } from '../../types'
import { exportLdif, listPeople, lookupByUid, searchByName } from './reads'
import { addToGroup, createPerson, deletePerson, editPhone, renameGroup } from './writes'

export const WORKFLOWS: Workflow[] = [
  searchByName,
  lookupByUid,
  listPeople,
  exportLdif,
  createPerson,
  editPhone,
  addToGroup,
  renameGroup,
  deletePerson,
]
