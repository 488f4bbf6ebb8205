/** The scripted workflows of Tryton, in the order they are recorded (one instance). */
import type { Workflow } from '../../types'
import { createCategory, createParty } from './creates'
import { deleteParty } from './deletes'
import { lookupEmail, searchParties } from './reads'
import { addCategory, changeMyEmail, renameParty } from './updates'

// The reads come first, on the seeded names.
export const WORKFLOWS: Workflow[] = [
  searchParties,
  lookupEmail,
  createParty,
  createCategory,
  renameParty,
  addCategory,
  changeMyEmail,
  deleteParty,
]
