import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import type { PasswordHasher } from '../../domain/ports';

export interface ScryptParams {
  /** CPU/memory cost N (a power of two). Default 2^14: 16 MiB per hash with r = 8. */
  readonly cost?: number;
  readonly blockSize?: number;
  readonly parallelization?: number;
  readonly keyLength?: number;
}

function derive(password: string, salt: Buffer, keyLength: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, keyLength, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/**
 * scrypt (memory-hard) password hashes, stored as `scrypt$N$r$p$<salt b64>$<hash b64>` so the cost can
 * be raised later without breaking stored hashes. Comparison is constant-time.
 */
export class ScryptPasswordHasher implements PasswordHasher {
  private readonly cost: number;
  private readonly blockSize: number;
  private readonly parallelization: number;
  private readonly keyLength: number;

  public constructor(params: ScryptParams = {}) {
    this.cost = params.cost ?? 2 ** 14;
    this.blockSize = params.blockSize ?? 8;
    this.parallelization = params.parallelization ?? 1;
    this.keyLength = params.keyLength ?? 32;
  }

  public async hash(password: string): Promise<string> {
    const salt = randomBytes(16);
    const key = await derive(password, salt, this.keyLength, this.options(this.cost, this.blockSize, this.parallelization));
    return ['scrypt', this.cost, this.blockSize, this.parallelization, salt.toString('base64'), key.toString('base64')].join('$');
  }

  public async verify(password: string, stored: string): Promise<boolean> {
    const parts = stored.split('$');
    if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
    const [n, r, p] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
    if (![n, r, p].every((v) => Number.isInteger(v) && v > 0) || n > 2 ** 20) return false;
    const salt = Buffer.from(parts[4] ?? '', 'base64');
    const expected = Buffer.from(parts[5] ?? '', 'base64');
    if (expected.length === 0) return false;
    const actual = await derive(password, salt, expected.length, this.options(n, r, p));
    return timingSafeEqual(actual, expected);
  }

  private options(cost: number, blockSize: number, parallelization: number): ScryptOptions {
    return { N: cost, r: blockSize, p: parallelization, maxmem: 256 * cost * blockSize + 1024 * 1024 };
  }
}
