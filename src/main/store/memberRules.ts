/**
 * Who may change a workspace's members (decided here: docs/interface.md marks roles "not
 * shown"). Three roles, most to least: `owner`, `admin`, `member`.
 */
export type MemberRole = 'owner' | 'admin' | 'member'

/** What one member does to another (or to themselves: `remove` of oneself is leaving). */
export type MemberChange =
  | { kind: 'add'; role: MemberRole }
  | { kind: 'remove'; self: boolean; targetRole: MemberRole }
  | { kind: 'set_role'; self: boolean; targetRole: MemberRole; role: MemberRole }
  | { kind: 'invite'; role: MemberRole }

/**
 * Why `actor` may not make `change`, or null when it may. The rules:
 * - a member cannot manage members (add, invite, remove others, change roles); any member may
 *   leave (remove themselves);
 * - an admin manages admins and members but cannot remove an owner, change an owner's role or
 *   make anyone an owner;
 * - an owner may do everything, but the last owner can neither leave nor step down: that check
 *   needs the count of owners at the moment of the change, so the store makes it in the same
 *   transaction (`AccountRepository.removeMember`/`setRole` answer `last_owner`).
 * Invitations carry `admin` or `member` only: ownership is given to someone already a member.
 */
export function memberChangeRefusal(actor: MemberRole, change: MemberChange): string | null {
  const self = change.kind !== 'add' && change.kind !== 'invite' && change.self
  if (change.kind === 'remove' && self) return null
  if (actor === 'member') return 'A member cannot manage members: ask an owner or an admin.'
  if (change.kind === 'invite' && change.role === 'owner')
    return 'An invitation makes an admin or a member: make a member an owner once they joined.'
  if (actor === 'owner') return null
  // An admin.
  if (change.kind === 'remove' && change.targetRole === 'owner')
    return 'An admin cannot remove an owner.'
  if (change.kind === 'set_role' && change.targetRole === 'owner')
    return "An admin cannot change an owner's role."
  if ((change.kind === 'set_role' || change.kind === 'add') && change.role === 'owner')
    return 'Only an owner can make someone an owner.'
  return null
}
