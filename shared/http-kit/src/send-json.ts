import type { Response } from 'express';

/**
 * Writes a JSON body with `Content-Type: application/json` exactly: the official client parses a body
 * as JSON only when the header has no charset, so express's `res.json` (which adds one) is not used.
 */
export function sendJson(res: Response, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.status(status);
  res.setHeader('Content-Type', 'application/json');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}

/** `{"status":"OK"}`, the reference's answer to deletes and other calls without a body. */
export function sendStatusOk(res: Response): void {
  sendJson(res, 200, { status: 'OK' });
}
