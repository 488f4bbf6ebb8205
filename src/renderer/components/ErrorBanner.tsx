import { plainText } from '../format'
import { useAppStore } from '../stores/useAppStore'

export function ErrorBanner() {
  const error = useAppStore((s) => s.error)
  const dismiss = useAppStore((s) => s.dismiss)
  if (!error) return null
  return (
    <div className="banner banner-error" role="alert" data-testid="error-banner">
      <code>{error.code}</code>
      <span>{plainText(error.message)}</span>
      <button className="link" onClick={dismiss} aria-label="Dismiss">
        ✕
      </button>
    </div>
  )
}
