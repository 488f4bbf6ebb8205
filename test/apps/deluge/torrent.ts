/**
 * Deterministic .torrent files and magnet links for the Deluge corpus app, built in Node: a
 * small bencoder and single-file metainfo (BEP 3) with a fixed creation date, so every start
 * makes byte-identical files and the same info hashes (Deluge's torrent ids).
 */
import { createHash } from 'node:crypto'

type Bencodable = number | string | Buffer | Bencodable[] | { [key: string]: Bencodable }

/** Bencodes a value (BEP 3): dictionary keys sorted by their raw bytes, as docs/interface.md requires. */
function bencode(value: Bencodable): Buffer {
  if (typeof value === 'number') return Buffer.from(`i${Math.trunc(value)}e`)
  if (typeof value === 'string') return bencode(Buffer.from(value, 'utf8'))
  if (Buffer.isBuffer(value)) return Buffer.concat([Buffer.from(`${value.length}:`), value])
  if (Array.isArray(value))
    return Buffer.concat([Buffer.from('l'), ...value.map(bencode), Buffer.from('e')])
  const keys = Object.keys(value).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)))
  const parts = keys.flatMap((k) => [bencode(k), bencode(value[k]!)])
  return Buffer.concat([Buffer.from('d'), ...parts, Buffer.from('e')])
}

const sha1 = (data: Buffer | string): Buffer => createHash('sha1').update(data).digest()

/** A torrent of one file: its metainfo bytes and its info hash (40 lowercase hex). */
export interface BuiltTorrent {
  name: string
  hash: string
  bytes: Buffer
}

/** 2024-06-01T00:00:00Z: every seeded torrent says it was made then. */
const CREATED = 1_717_200_000

/** The bytes of a seeded file that is really there to seed: a fixed stream derived from its name. */
export function fileContent(name: string, size: number): Buffer {
  const blocks: Buffer[] = []
  for (let i = 0, got = 0; got < size; i++) {
    const block = createHash('sha256').update(`${name}#${i}`).digest()
    blocks.push(block)
    got += block.length
  }
  return Buffer.concat(blocks).subarray(0, size)
}

/**
 * A single-file torrent. With `content`, its pieces are the SHA-1s of those bytes (piece length
 * 16 KiB), so Deluge finds the file complete and seeds it; without, a large file whose piece
 * hashes are made up (4 MiB pieces): nothing can ever match, the torrent stays at 0 %.
 */
export function buildTorrent(name: string, size: number, content?: Buffer): BuiltTorrent {
  const pieceLength = content ? 16 * 1024 : 4 * 1024 * 1024
  const count = Math.ceil(size / pieceLength)
  const pieces: Buffer[] = []
  for (let i = 0; i < count; i++)
    pieces.push(
      content
        ? sha1(content.subarray(i * pieceLength, (i + 1) * pieceLength))
        : sha1(`${name}/piece/${i}`),
    )
  const info = { length: size, name, 'piece length': pieceLength, pieces: Buffer.concat(pieces) }
  const bytes = bencode({
    comment: `${name} (Sitecall corpus seed)`,
    'created by': 'sitecall corpus',
    'creation date': CREATED,
    info,
  })
  return { name, hash: sha1(bencode(info)).toString('hex'), bytes }
}

/** The made-up info hash of a magnet-only torrent (no metainfo exists anywhere). */
export function magnetHash(name: string): string {
  return sha1(`magnet:${name}`).toString('hex')
}

/** A magnet link as people paste them: the info hash and a display name (`dn`). */
export function magnetLink(name: string): string {
  return `magnet:?xt=urn:btih:${magnetHash(name)}&dn=${name}`
}
