/**
 * The scripted workflows of MailDev, in the order they are recorded and checked (all on one
 * instance): the reads first; then the writes, each on its own emails; "delete all" last, since
 * it leaves nothing for any other.
 */
import type { Workflow } from '../../types'
import { downloadAttachment, listInbox, readEmail, searchEmails, viewHtml } from './reads'
import { deleteAll, deleteEmail, markAllRead, relayEmail } from './writes'

export const WORKFLOWS: Workflow[] = [
  listInbox,
  searchEmails,
  readEmail,
  viewHtml,
  downloadAttachment,
  deleteEmail,
  relayEmail,
  markAllRead,
  deleteAll,
]
