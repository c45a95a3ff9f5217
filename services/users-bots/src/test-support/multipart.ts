import { randomBytes } from 'node:crypto';

export interface Part {
  readonly name: string;
  readonly data: Buffer | string;
  /** Sent as a file part when set. */
  readonly filename?: string;
  readonly contentType?: string;
}

/** A multipart/form-data body as browsers and `@mattermost/client` send it, with its content type. */
export function multipart(parts: readonly Part[]): { body: Buffer; contentType: string } {
  const boundary = `----switchyard${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename !== undefined ? `; filename="${part.filename}"` : ''}`;
    const type = part.contentType ?? (part.filename !== undefined ? 'application/octet-stream' : undefined);
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${type ? `Content-Type: ${type}\r\n` : ''}\r\n`));
    chunks.push(Buffer.isBuffer(part.data) ? part.data : Buffer.from(part.data));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** An `image` file part. */
export function imageForm(data: Buffer | string, filename = 'picture', contentType?: string): { body: Buffer; contentType: string } {
  return multipart([{ name: 'image', data, filename, ...(contentType ? { contentType } : {}) }]);
}
