/**
 * The scripted workflows of Fossil, in the order they are recorded (all on one instance): the
 * reads first, then the writes, each on records no other workflow touches.
 */
import type { Workflow } from '../../types'
import { postForumThread } from './forum'
import { branchTimeline, listTickets, searchSite } from './reads'
import { attachFile, changeTicketStatus, commentOnTicket, createTicket } from './tickets'
import { createWikiPage, editWikiPage } from './wiki'

export const WORKFLOWS: Workflow[] = [
  searchSite,
  branchTimeline,
  listTickets,
  createTicket,
  changeTicketStatus,
  commentOnTicket,
  attachFile,
  createWikiPage,
  editWikiPage,
  postForumThread,
]
