/** The scripted workflows of Roundcube, in the order they are recorded (all on one instance). */
import type { Workflow } from '../../types'
import { addContact } from './contacts'
import { deleteMessage, flagMessage, moveMessage } from './messages'
import { listContacts, openMessage, searchMail } from './reads'
import { createFolder, setSignature } from './settings'

export const WORKFLOWS: Workflow[] = [
  searchMail,
  openMessage,
  listContacts,
  flagMessage,
  moveMessage,
  deleteMessage,
  createFolder,
  addContact,
  setSignature,
]
