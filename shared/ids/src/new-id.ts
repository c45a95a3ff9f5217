import { randomFillSync } from 'node:crypto';

/** Mattermost's id alphabet: lowercase base32 with a custom order. */
export const ID_ALPHABET = 'ybndrfg8ejkmcpqxot1uwisza345h769';
export const ID_LENGTH = 26;

/** Encodes bytes as unpadded base32 in the reference's alphabet. 16 bytes give 26 characters. */
export function encodeBase32(bytes: Uint8Array): string {
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ID_ALPHABET[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
    buffer &= (1 << bits) - 1;
  }
  if (bits > 0) out += ID_ALPHABET[(buffer << (5 - bits)) & 31];
  return out;
}

const ID_BYTES = 16;
const POOL_IDS = 256;
const pool = Buffer.alloc(ID_BYTES * POOL_IDS);
let next = POOL_IDS;

/**
 * A new 26-character id (128 random bits), as `model.NewId()`. Also used for tokens. The bits come from a
 * pool refilled by one CSPRNG call per 256 ids (as Node's own `randomUUID` does): one `randomBytes(16)`
 * per id was a visible share of a hook's CPU. Each id's bytes are zeroed once encoded, so the pool never
 * holds the bits of an id already handed out.
 */
export function newId(): string {
  if (next === POOL_IDS) {
    randomFillSync(pool);
    next = 0;
  }
  const start = next * ID_BYTES;
  next += 1;
  const bytes = pool.subarray(start, start + ID_BYTES);
  const id = encodeBase32(bytes);
  bytes.fill(0);
  return id;
}

const VALID_ID = /^[a-z0-9]{26}$/;

/** As `model.IsValidId`: exactly 26 lowercase letters or digits. */
export function isValidId(value: unknown): value is string {
  return typeof value === 'string' && VALID_ID.test(value);
}
