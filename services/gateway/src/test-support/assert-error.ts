import assert from 'node:assert/strict';
import type { Response } from 'light-my-request';

/** The answer is a Mattermost-style error with this status and this id (the id is what clients branch on). */
export function assertError(res: Response, status: number, id: string, message?: string): void {
  assert.equal(res.statusCode, status, message ?? res.body);
  assert.equal((res.json() as { id?: unknown }).id, id, message);
}
