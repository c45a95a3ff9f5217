/** A reply frame (mattermost-wire-2.md §1.2): never numbered; `data` omitted when empty. */
export function okReply(seq: number, data?: Readonly<Record<string, unknown>>): string {
  return JSON.stringify({ status: 'OK', seq_reply: seq, ...(data === undefined ? {} : { data }) });
}

export interface WsError {
  readonly id: string;
  readonly message: string;
  readonly status_code: number;
}

/** `error.detailed_error` is always `""` on the WebSocket. */
export function failReply(seq: number, error: WsError): string {
  return JSON.stringify({ status: 'FAIL', seq_reply: seq, error: { id: error.id, message: error.message, detailed_error: '', request_id: '', status_code: error.status_code } });
}

export const WsErrors = {
  noAction: (): WsError => ({ id: 'api.web_socket_router.no_action.app_error', message: 'No websocket action.', status_code: 400 }),
  badSeq: (): WsError => ({ id: 'api.web_socket_router.bad_seq.app_error', message: 'Invalid sequence for websocket message.', status_code: 400 }),
  badAction: (): WsError => ({ id: 'api.web_socket_router.bad_action.app_error', message: 'Unknown WebSocket action.', status_code: 500 }),
  invalidParam: (name: string): WsError => ({ id: 'api.websocket_handler.invalid_param.app_error', message: `Invalid ${name} parameter.`, status_code: 400 }),
  serverBusy: (): WsError => ({ id: 'api.websocket_handler.server_busy.app_error', message: 'Server is busy, non-critical services are temporarily unavailable.', status_code: 503 }),
} as const;
