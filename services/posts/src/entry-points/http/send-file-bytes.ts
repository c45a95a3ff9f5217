import type { Request, Response } from 'express';
import { pipeline } from 'node:stream/promises';
import type { FilesDeps } from '../../domain/files/files-deps';
import type { FileInfo } from '../../domain/files/file-info';
import { fileBytesSize, openFileBytes, type FileVariant } from '../../domain/files/read-file.usecase';
import { preconditionOf, rangeOf, rangeStillValid, type ContentRange } from './byte-ranges';
import { byteRangesBody, byteRangesLayout } from './byte-ranges-body';
import { fileHeaders, servedContentType } from './file-headers';

/**
 * File bytes as the reference sends them (mattermost-wire-3.md §1.4: its headers, then Go's ServeContent:
 * conditional requests, one byte range → 206, several → 206 multipart/byteranges), streamed from the store as the client takes them: a
 * download is never held whole (the gateway asks for the answer as a stream). A store failing midway cuts
 * the connection, so the client sees a short body, never a clean end.
 */
export async function sendFileBytes(deps: FilesDeps, req: Request, res: Response, info: FileInfo, variant: FileVariant, forceDownload: boolean): Promise<void> {
  const contentType = variant === 'file' ? servedContentType(info.mime_type) : 'image/jpeg';
  const setFileHeaders = (): void => {
    for (const [name, value] of Object.entries(fileHeaders(info, contentType, variant === 'file' && forceDownload))) res.setHeader(name, value);
  };
  const precondition = preconditionOf(req.method, req.headers, info.update_at);
  if (precondition !== 'proceed') {
    // No thumbnail or preview is still its 400, before any header.
    await fileBytesSize(deps, info, variant);
    setFileHeaders();
    res.removeHeader('Content-Type');
    res.status(precondition === 'failed' ? 412 : 304).end();
    return;
  }
  const rangeHeader = rangeStillValid(req.headers, info.update_at) ? req.headers.range : undefined;
  const head = req.method === 'HEAD';
  // Every refusal (no thumbnail, bytes lost) comes before the first header, as an AppError.
  const size = head || rangeHeader !== undefined ? await fileBytesSize(deps, info, variant) : undefined;
  const answer = size === undefined ? ({ kind: 'whole' } as const) : rangeOf(rangeHeader, size);
  if (answer.kind === 'unsatisfiable') {
    setFileHeaders();
    if (answer.noOverlap) res.setHeader('Content-Range', `bytes */${size ?? 0}`);
    res.setHeader('Content-Type', 'text/plain; charset=utf-8');
    res.status(416).end(`${answer.reason}\n`);
    return;
  }
  if (answer.kind === 'parts') {
    await sendRanges(deps, res, { info, variant, ranges: answer.ranges, size: size ?? 0, head, partType: contentType, setFileHeaders });
    return;
  }
  const range = answer.kind === 'part' ? answer.range : undefined;
  const opened = head ? undefined : await openFileBytes(deps, info, variant, range);
  const total = opened?.size ?? size ?? 0;
  setFileHeaders();
  res.setHeader('Accept-Ranges', 'bytes');
  if (range) res.setHeader('Content-Range', `bytes ${range.start}-${range.end}/${total}`);
  res.setHeader('Content-Length', range ? range.end - range.start + 1 : total);
  res.status(range ? 206 : 200);
  if (!opened) {
    res.end();
    return;
  }
  await pipeline(opened.stream, res).catch(() => {
    // The client went away, or the store failed midway: pipeline destroyed both, the connection is cut.
  });
}

interface RangesAsked {
  readonly info: FileInfo;
  readonly variant: FileVariant;
  readonly ranges: readonly ContentRange[];
  /** The object's whole size. */
  readonly size: number;
  readonly head: boolean;
  /** Each part's Content-Type: the file's (Go takes the answer's Content-Type set before ServeContent). */
  readonly partType: string;
  readonly setFileHeaders: () => void;
}

/**
 * Several ranges: 206 multipart/byteranges as Go writes it, each range opened from the store in its turn.
 * The first range is opened before any header is set: a lost object is still its 404 AppError.
 */
async function sendRanges(deps: FilesDeps, res: Response, ask: RangesAsked): Promise<void> {
  const { info, variant, ranges } = ask;
  const first = ask.head ? undefined : await openFileBytes(deps, info, variant, ranges[0]);
  const layout = byteRangesLayout(ranges, ask.partType, ask.size);
  ask.setFileHeaders();
  res.setHeader('Content-Type', layout.contentType);
  res.setHeader('Accept-Ranges', 'bytes');
  res.setHeader('Content-Length', layout.length);
  res.status(206);
  if (!first) {
    res.end();
    return;
  }
  const body = byteRangesBody(layout, async (range) => (await openFileBytes(deps, info, variant, range)).stream, first.stream);
  await pipeline(body, res).catch(() => {
    // As one range: the client went away or the store failed midway; the connection is cut.
  });
}
