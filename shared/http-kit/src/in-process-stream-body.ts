import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';

/**
 * A streamed body: the request reads `source` as the app asks for more (paused while the app's buffer is
 * full), ends with it, and is destroyed with its error. No IN_PROCESS_BODY: rawBody reads the stream.
 */
export function streamInto(req: IncomingMessage, source: Readable, length: number | undefined, headers: IncomingHttpHeaders, raw: string[]): void {
  const framing: [string, string] = length !== undefined ? ['content-length', String(length)] : ['transfer-encoding', 'chunked'];
  delete headers['content-length'];
  delete headers['transfer-encoding'];
  headers[framing[0]] = framing[1];
  for (let i = raw.length - 2; i >= 0; i -= 2) if (raw[i] === 'content-length' || raw[i] === 'transfer-encoding') raw.splice(i, 2);
  raw.push(...framing);
  req.headers = headers;
  req.rawHeaders = raw;
  req.complete = false;
  source.on('data', (chunk: Buffer) => {
    if (!req.push(chunk)) source.pause();
  });
  source.once('end', () => {
    req.complete = true;
    req.push(null);
  });
  source.once('error', (error: Error) => req.destroy(error));
  // As a socket request cut short: 'aborted', then the error (there is no socket to destroy).
  req._destroy = (error: Error | null, done: (error?: Error | null) => void): void => {
    if (!req.complete) {
      req.aborted = true;
      req.emit('aborted');
    }
    done(error);
  };
  source.pause();
  req._read = () => {
    source.resume();
  };
}
