/** The scripted workflows of Request Tracker, in the order they are recorded (all on one instance). */
import type { Workflow } from '../../types'
import { createUser, setSignature } from './admin'
import { queueTickets, searchTickets } from './reads'
import { assignTicket, createTicket, replyToTicket, resolveTicket } from './tickets'

// The reads first: the writes add tickets, and reply to, assign and resolve ones the lists show.
export const WORKFLOWS: Workflow[] = [
  searchTickets,
  queueTickets,
  createTicket,
  replyToTicket,
  assignTicket,
  resolveTicket,
  createUser,
  setSignature,
]
