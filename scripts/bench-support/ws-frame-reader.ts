/**
 * A receive-only WebSocket client for benchmarks that read many frames a second: the upgrade written on a
 * raw TCP socket (Sec-WebSocket-Accept checked), then server frames parsed in place from each chunk read, handed
 * to `onText(chunk, start, end, at)` without a Buffer or string per frame; `at` is when the chunk was read
 * (performance.now()), the same for every frame of that chunk. Pings are answered (masked pongs), a close
 * frame ends the socket. What it does not need it does not do: no UTF-8 check, no extensions, nothing
 * sent but pongs and the close. `ws` costs about a Buffer, an event and a slice per frame, which at 100,000
 * frames a second made the benchmark client itself a source of GC pauses and latency.
 */
import { createHash, randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';

export type TextHandler = (chunk: Buffer, start: number, end: number, at: number) => void;

const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

/** Parses server-to-client frames (unmasked) from successive chunks. */
export class FrameReader {
  /** Bytes of a frame cut by the end of a chunk, kept for the next chunk. */
  private carry: Buffer | undefined;
  /** Payloads of a fragmented text message (never sent by realtime; kept correct anyway). */
  private fragments: Buffer[] | undefined;

  public constructor(
    private readonly onText: TextHandler,
    private readonly onControl: (opcode: number, payload: Buffer) => void,
  ) {}

  public push(data: Buffer, at: number): void {
    let chunk = data;
    if (this.carry) {
      chunk = Buffer.concat([this.carry, data]);
      this.carry = undefined;
    }
    let i = 0;
    const n = chunk.length;
    while (i < n) {
      if (n - i < 2) break;
      const b0 = chunk[i] as number;
      const b1 = chunk[i + 1] as number;
      if ((b1 & 0x80) !== 0) throw new Error('masked frame from the server');
      let len = b1 & 0x7f;
      let header = 2;
      if (len === 126) {
        if (n - i < 4) break;
        len = chunk.readUInt16BE(i + 2);
        header = 4;
      } else if (len === 127) {
        if (n - i < 10) break;
        len = Number(chunk.readBigUInt64BE(i + 2));
        header = 10;
      }
      if (n - i < header + len) break;
      const start = i + header;
      const end = start + len;
      this.frame(b0, chunk, start, end, at);
      i = end;
    }
    if (i < n) this.carry = Buffer.from(chunk.subarray(i));
  }

  private frame(b0: number, chunk: Buffer, start: number, end: number, at: number): void {
    const fin = (b0 & 0x80) !== 0;
    const opcode = b0 & 0x0f;
    if (opcode >= 8) {
      this.onControl(opcode, Buffer.from(chunk.subarray(start, end)));
      return;
    }
    if (opcode === 1 && fin && !this.fragments) {
      this.onText(chunk, start, end, at);
      return;
    }
    // Fragmented message: collect, hand over whole.
    this.fragments ??= [];
    this.fragments.push(Buffer.from(chunk.subarray(start, end)));
    if (!fin) return;
    const whole = Buffer.concat(this.fragments);
    this.fragments = undefined;
    this.onText(whole, 0, whole.length, at);
  }
}

/** A client-to-server frame (masked, as RFC 6455 requires): pongs and the close. */
export function clientFrame(opcode: number, payload: Buffer): Buffer {
  if (payload.length > 125) throw new Error('control payload too long');
  const mask = randomBytes(4);
  const out = Buffer.allocUnsafe(6 + payload.length);
  out[0] = 0x80 | opcode;
  out[1] = 0x80 | payload.length;
  mask.copy(out, 2);
  for (let k = 0; k < payload.length; k += 1) out[6 + k] = (payload[k] as number) ^ (mask[k & 3] as number);
  return out;
}

export interface RawWebSocket {
  readonly socket: Socket;
  /** Sends a close frame and ends the socket. */
  close(): void;
}

/** Bytes of one socket read; every socket's reads land in this one buffer (read, parsed, then reused). */
const READ_BUFFER = Buffer.allocUnsafe(256 * 1024);

/**
 * Opens `url` (ws://) with `headers` on the upgrade; resolves once the server switched protocols. The socket
 * reads into a shared static buffer (net's `onread`): no Buffer is allocated per read either, so 100 MB a
 * second of frames cost the client no garbage collection.
 */
export function openRawWebSocket(url: string, headers: Readonly<Record<string, string>>, onText: TextHandler): Promise<RawWebSocket> {
  const target = new URL(url.replace(/^ws/, 'http'));
  const key = randomBytes(16).toString('base64');
  const accept = createHash('sha1').update(`${key}${GUID}`).digest('base64');
  return new Promise((resolve, reject) => {
    let head: Buffer | undefined = Buffer.alloc(0);
    let reader: FrameReader | undefined;
    const socket = connect({
      host: target.hostname,
      port: Number(target.port),
      noDelay: true,
      onread: {
        buffer: READ_BUFFER,
        callback: (nread: number, buf: Buffer): boolean => {
          const at = performance.now();
          if (reader) {
            reader.push(buf.subarray(0, nread), at);
            return true;
          }
          head = Buffer.concat([head ?? Buffer.alloc(0), buf.subarray(0, nread)]);
          const end = head.indexOf('\r\n\r\n');
          if (end < 0) return true;
          const lines = head.subarray(0, end).toString('latin1').split('\r\n');
          const status = /^HTTP\/1\.1 (\d{3})/.exec(lines[0] ?? '')?.[1];
          const acceptLine = lines.find((l) => l.toLowerCase().startsWith('sec-websocket-accept:'));
          if (status !== '101' || acceptLine?.slice(acceptLine.indexOf(':') + 1).trim() !== accept) {
            socket.destroy();
            reject(new Error(`upgrade refused: ${lines[0] ?? ''}`));
            return false;
          }
          const rest = Buffer.from(head.subarray(end + 4));
          head = undefined;
          reader = new FrameReader(onText, (opcode, payload) => {
            if (opcode === 9) socket.write(clientFrame(10, payload));
            else if (opcode === 8) socket.end();
          });
          resolve({
            socket,
            close: () => {
              if (!socket.destroyed) socket.end(clientFrame(8, Buffer.from([0x03, 0xe8])));
            },
          });
          if (rest.length > 0) reader.push(rest, at);
          return true;
        },
      },
    });
    socket.once('error', (error) => {
      reject(error);
      socket.destroy();
    });
    const lines = [`GET ${target.pathname}${target.search} HTTP/1.1`, `Host: ${target.host}`, 'Connection: Upgrade', 'Upgrade: websocket', 'Sec-WebSocket-Version: 13', `Sec-WebSocket-Key: ${key}`];
    for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
    socket.write(`${lines.join('\r\n')}\r\n\r\n`);
  });
}
