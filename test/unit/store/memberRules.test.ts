import { describe, expect, it } from 'vitest'
import { memberChangeRefusal } from '../../../src/main/store/memberRules'

describe('memberChangeRefusal (issue 27 A roles)', () => {
  it('lets a member leave but manage no one', () => {
    expect(
      memberChangeRefusal('member', { kind: 'remove', self: true, targetRole: 'member' }),
    ).toBeNull()
    for (const change of [
      { kind: 'add', role: 'member' },
      { kind: 'invite', role: 'member' },
      { kind: 'remove', self: false, targetRole: 'member' },
      { kind: 'set_role', self: true, targetRole: 'member', role: 'admin' },
    ] as const)
      expect(memberChangeRefusal('member', change)).toMatch(/member cannot manage members/)
  })

  it('lets an admin manage admins and members, never an owner or ownership', () => {
    expect(memberChangeRefusal('admin', { kind: 'add', role: 'admin' })).toBeNull()
    expect(memberChangeRefusal('admin', { kind: 'invite', role: 'member' })).toBeNull()
    expect(
      memberChangeRefusal('admin', { kind: 'remove', self: false, targetRole: 'admin' }),
    ).toBeNull()
    expect(
      memberChangeRefusal('admin', {
        kind: 'set_role',
        self: false,
        targetRole: 'member',
        role: 'admin',
      }),
    ).toBeNull()
    expect(
      memberChangeRefusal('admin', { kind: 'remove', self: false, targetRole: 'owner' }),
    ).toMatch(/cannot remove an owner/)
    expect(
      memberChangeRefusal('admin', {
        kind: 'set_role',
        self: false,
        targetRole: 'owner',
        role: 'member',
      }),
    ).toMatch(/owner's role/)
    expect(
      memberChangeRefusal('admin', {
        kind: 'set_role',
        self: false,
        targetRole: 'member',
        role: 'owner',
      }),
    ).toMatch(/Only an owner/)
    expect(memberChangeRefusal('admin', { kind: 'add', role: 'owner' })).toMatch(/Only an owner/)
  })

  it('lets an owner do anything but invite an owner (the last-owner rule is the store’s)', () => {
    expect(
      memberChangeRefusal('owner', { kind: 'remove', self: false, targetRole: 'owner' }),
    ).toBeNull()
    expect(
      memberChangeRefusal('owner', {
        kind: 'set_role',
        self: true,
        targetRole: 'owner',
        role: 'member',
      }),
    ).toBeNull()
    expect(memberChangeRefusal('owner', { kind: 'add', role: 'owner' })).toBeNull()
    expect(memberChangeRefusal('owner', { kind: 'invite', role: 'owner' })).toMatch(
      /admin or a member/,
    )
  })
})
