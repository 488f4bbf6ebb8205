/**
 * The scripted workflows of Radicale, in the order they are recorded and checked on one
 * instance: the reads first, then the writes. Each write touches its own seeded collections
 * (Gym/Garden/Volunteering, Family/Book Club/Birthdays, Old contacts/Newsletter/Archive 2019)
 * or makes new ones, so no workflow changes what another reads.
 */
import type { Workflow } from '../../types'
import { createAddressBook, createCalendar, uploadCalendarFile } from './create'
import { deleteAddressBook, recolorCalendar, renameCalendar } from './edit'
import { exportCalendar, listCollections } from './reads'

export const WORKFLOWS: Workflow[] = [
  listCollections,
  exportCalendar,
  createCalendar,
  createAddressBook,
  renameCalendar,
  recolorCalendar,
  deleteAddressBook,
  uploadCalendarFile,
]
