import { test } from 'node:test';
import assert from 'node:assert/strict';
import { verifyServiceCredential, type InternalRequest, type InternalResponse, type ServiceTransport } from '@switchyard/http-kit';
import { HttpUsersDirectory } from './users-directory.http';

const SECRET = 'test-internal-secret-0123456789abcdef';
const TEAM = { id: 't'.repeat(26), name: 'alpha', display_name: 'Alpha', type: 'I', delete_at: 0 };

/** users-bots stand-in answering its internal team routes and recording every request. */
class RecordingTransport implements ServiceTransport {
  public readonly requests: InternalRequest[] = [];

  public async send(_service: string, request: InternalRequest): Promise<InternalResponse> {
    this.requests.push(request);
    const json = (status: number, body: unknown): InternalResponse => ({ status, headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify(body)) });
    if (request.path === `/internal/v1/teams/${TEAM.id}` || request.path === '/internal/v1/teams/name/alpha') return json(200, TEAM);
    return json(404, { id: 'app.team.get.find.app_error', message: 'missing', detailed_error: '', request_id: '', status_code: 404 });
  }

  public async close(): Promise<void> {}
}

test('when team names and ids are looked up, then users-bots internal team routes are called with the posts service credential for that method and path', async () => {
  const transport = new RecordingTransport();
  const directory = new HttpUsersDirectory(transport, SECRET);
  assert.equal(await directory.teamIdByName('alpha'), TEAM.id);
  assert.equal(await directory.teamName(TEAM.id), 'alpha', 'served from the cache filled by the name lookup');
  assert.equal(await directory.teamName('u'.repeat(26)), undefined);
  assert.equal(await directory.teamIdByName('nosuch'), undefined);
  assert.deepEqual(transport.requests.map((r) => r.path), ['/internal/v1/teams/name/alpha', `/internal/v1/teams/${'u'.repeat(26)}`, '/internal/v1/teams/name/nosuch']);
  for (const request of transport.requests) {
    assert.ok(!request.path.startsWith('/api/v4/'), 'no public route');
    assert.equal(verifyServiceCredential({ method: request.method, target: request.path, headers: request.headers as import('node:http').IncomingHttpHeaders }, SECRET), 'posts', 'signed as posts');
  }
});
