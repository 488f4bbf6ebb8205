import { useState } from 'react'

/** Text to copy (a config, a command) with a Copy button that says when it worked. */
export function CopyBlock({
  text,
  label,
  testId,
}: {
  text: string
  label: string
  testId?: string
}) {
  return (
    <div className="copy-block">
      <pre className="code" data-testid={testId} aria-label={label}>
        {text}
      </pre>
      <CopyButton text={text} label={label} />
    </div>
  )
}

/** A Copy button that puts `text` on the clipboard and says when it did; `label` names what. */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [copied, setCopied] = useState(false)
  return (
    <button
      type="button"
      aria-label={`Copy ${label}`}
      onClick={() =>
        void navigator.clipboard.writeText(text).then(
          () => setCopied(true),
          () => setCopied(false),
        )
      }
    >
      {copied ? 'Copied' : 'Copy'}
    </button>
  )
}
