/**
 * A few lines of IMAP, enough to seed the private Dovecot: log in and APPEND every seeded
 * message in order (LITERAL+, so no continuation round trips), with its flags and a fixed
 * internal date, so each start holds the same messages under the same UIDs.
 */
import { connect, type Socket } from 'node:net'
import { MESSAGES, messageText, type SeedMessage } from './seed'

/** True when something answers an IMAP greeting on 127.0.0.1:`port`. */
export function imapAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1')
    const done = (ok: boolean) => {
      socket.destroy()
      resolve(ok)
    }
    socket.setTimeout(2000, () => done(false))
    socket.once('error', () => done(false))
    socket.once('data', (chunk) => done(chunk.toString().startsWith('* OK')))
  })
}

/** An IMAP connection that sends one tagged command at a time and waits for its status line. */
class ImapSession {
  private buffer = ''
  private waiting: { tag: string; resolve: (line: string) => void } | null = null
  private counter = 0
  constructor(private socket: Socket) {
    socket.on('data', (chunk) => {
      this.buffer += chunk.toString('latin1')
      this.settle()
    })
  }

  private settle(): void {
    if (!this.waiting) return
    const { tag, resolve } = this.waiting
    const line = this.buffer.split('\r\n').find((l) => l.startsWith(`${tag} `))
    if (!line) return
    this.waiting = null
    this.buffer = ''
    resolve(line)
  }

  /** Sends `command` (raw bytes after the tag) and resolves with the tagged OK line. */
  send(command: string): Promise<string> {
    const tag = `s${++this.counter}`
    return new Promise((resolve, reject) => {
      this.waiting = {
        tag,
        resolve: (line) =>
          line.startsWith(`${tag} OK`) ? resolve(line) : reject(new Error(`IMAP: ${line}`)),
      }
      this.socket.write(`${tag} ${command}\r\n`, 'latin1')
      this.settle()
    })
  }
}

/** `02-Nov-2026 08:10:00 +0000` from the message's `Date:` header value. */
function internalDate(m: SeedMessage): string {
  const [, day, month, year, time, zone] = /\w+, (\d+) (\w+) (\d+) ([\d:]+) ([+-]\d{4})/.exec(
    m.date,
  )!
  return `${day!.padStart(2, '0')}-${month}-${year} ${time} ${zone}`
}

/** Logs in as `user` and appends the whole seed, mailbox by mailbox, in order. */
export async function appendSeed(
  port: number,
  user: { name: string; password: string },
): Promise<void> {
  const socket = connect(port, '127.0.0.1')
  socket.setTimeout(30_000, () => socket.destroy(new Error('IMAP seed timed out')))
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject)
      socket.once('data', () => resolve())
    })
    const imap = new ImapSession(socket)
    await imap.send(`LOGIN ${user.name} "${user.password}"`)
    for (const [mailbox, messages] of Object.entries(MESSAGES)) {
      for (const [i, m] of messages.entries()) {
        const text = Buffer.from(messageText(m, mailbox, i), 'utf8').toString('latin1')
        const flags = m.seen ? '(\\Seen)' : '()'
        await imap.send(
          `APPEND "${mailbox}" ${flags} "${internalDate(m)}" {${Buffer.byteLength(text, 'latin1')}+}\r\n${text}`,
        )
      }
    }
    await imap.send('LOGOUT').catch(() => '')
  } finally {
    socket.destroy()
  }
}
