import { create } from 'zustand'
import type { SecretSummary, VaultState } from '../../shared/appApi'
import { invoke } from '../api'
import { attempt } from './useAppStore'
import { safeUrl } from '../../shared/safeJson'

interface SecretsState {
  secrets: SecretSummary[] | null
  vault: VaultState | null
  /** Counts unlocks, so a status read that started before one does not undo it. */
  vaultChanges: number
  load(): Promise<void>
  /** Stores or replaces a secret; true when the vault took it. The value is not kept here. */
  set(name: string, value: string, hosts: string[]): Promise<boolean>
  remove(name: string): Promise<void>
  unlock(passphrase?: string): Promise<boolean>
}

/**
 * Splits what the person typed into host names: commas, spaces or new lines separate them; a
 * pasted URL keeps only its `host[:port]` (the vault binds a secret by host).
 */
export function parseHosts(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((entry) => {
      if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(entry)) return entry
      return safeUrl(entry)?.host ?? entry
    })
}

export const useSecretsStore = create<SecretsState>()((set, get) => ({
  secrets: null,
  vault: null,
  vaultChanges: 0,
  async load() {
    const changesBefore = get().vaultChanges
    const [vault, secrets] = await Promise.all([
      attempt(invoke('vault.status', {})),
      attempt(invoke('secrets.list', {})),
    ])
    // An unlock that answered while this load was on its way is newer than what it read.
    const stale = get().vaultChanges !== changesBefore
    set({
      vault: stale ? get().vault : (vault ?? get().vault),
      secrets: secrets ?? get().secrets ?? [],
    })
  },
  async set(name, value, hosts) {
    const saved = await attempt(invoke('secrets.set', { name, value, hosts }))
    if (!saved) return false
    const others = (get().secrets ?? []).filter((s) => s.name !== saved.name)
    set({ secrets: [...others, saved].sort((a, b) => a.name.localeCompare(b.name)) })
    return true
  },
  async remove(name) {
    const answer = await attempt(invoke('secrets.delete', { name }))
    if (answer) set({ secrets: (get().secrets ?? []).filter((s) => s.name !== name) })
  },
  async unlock(passphrase) {
    const vault = await attempt(invoke('vault.unlock', passphrase ? { passphrase } : {}))
    if (vault) set({ vault, vaultChanges: get().vaultChanges + 1 })
    return Boolean(vault && vault.mode !== 'locked')
  },
}))
