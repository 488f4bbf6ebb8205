import { useCallback, useEffect, useState } from 'react'
import type { ToolNeed } from '../../shared/appApi'
import { invoke } from '../api'
import { attempt, useAppStore } from '../stores/useAppStore'
import { useLoginsStore } from '../stores/useLoginsStore'
import { useSecretsStore } from '../stores/useSecretsStore'
import { VaultUnlock } from './VaultUnlock'

function NeedAction({ need, recheck }: { need: ToolNeed; recheck: () => void }) {
  const vault = useSecretsStore((s) => s.vault)
  const startSignIn = useLoginsStore((s) => s.start)
  if (need.kind === 'vault') return vault ? <VaultUnlock vault={vault} onOpen={recheck} /> : null
  if (need.kind === 'login' && need.host)
    return (
      <button
        data-testid="need-sign-in"
        onClick={() =>
          void startSignIn({ host: need.host! }).then(() => (location.hash = '#/logins'))
        }
      >
        Sign in to {need.host}
      </button>
    )
  return (
    <a href="#/secrets" data-testid="need-secret">
      Store {need.secret} under Secrets
    </a>
  )
}

/**
 * What a Verify or a run needs before it starts: each missing thing with the
 * one action that fixes it. Checked when shown and again after each fix; nothing when ready.
 */
export function NeedsBox({ toolId }: { toolId: string }) {
  const [needs, setNeeds] = useState<ToolNeed[]>([])
  const loadVault = useSecretsStore((s) => s.load)
  const vaultChanges = useSecretsStore((s) => s.vaultChanges)
  const revision = useAppStore((s) => s.needsRevision)
  const recheck = useCallback(() => {
    void attempt(invoke('tools.needs', { id: toolId })).then((n) => setNeeds(n ?? []))
  }, [toolId])
  useEffect(() => void loadVault(), [loadVault])
  useEffect(() => recheck(), [recheck, vaultChanges, revision])
  if (!needs.length) return null
  return (
    <div className="banner banner-warn needs" data-testid="tool-needs" role="note">
      <div>
        <strong>Before it runs, this tool needs:</strong>
        <ul>
          {needs.map((need) => (
            <li
              key={`${need.kind}:${need.secret ?? need.host ?? ''}`}
              data-testid={`need-${need.kind}`}
            >
              {need.message} <NeedAction need={need} recheck={recheck} />
            </li>
          ))}
        </ul>
      </div>
    </div>
  )
}
