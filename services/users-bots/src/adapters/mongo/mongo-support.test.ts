import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isDuplicateKeyError } from '../../domain/errors';
import { asDomainError, isUniqueViolation, pageWindow, setOf, violatedField } from './mongo-support';

/** Duplicate-key errors as each server sends them (captured from MongoDB docs, mongo-java-server 1.47 and FerretDB 1.24). */
const mongodb = { code: 11000, keyPattern: { email: 1 }, keyValue: { email: 'e' }, message: 'E11000 duplicate key error collection: db.users index: email_1 dup key: { email: "e" }' };
const javaServerId = { code: 11000, message: 'E11000 duplicate key error collection: db.users index: _id_ dup key: { _id: "a" }' };
const javaServerCompound = { code: 11000, message: 'E11000 duplicate key error collection: db.team_members index: teamId_1_userId_1 dup key: { teamId: "1", userId: "2" }' };
const ferretInsert = { code: 11000, message: 'E11000 duplicate key error collection: db.users' };
const ferretUpdate = {
  code: 1,
  codeName: 'InternalError',
  message: "[msg_findandmodify.go:196 ...] constraint failed: UNIQUE constraint failed: index 'team_members_5e7cc513_teamId_1_userId_1' (2067)",
};

test('when a server reports a duplicate key, then the violated field is read from whatever it sends', () => {
  assert.equal(violatedField(mongodb), 'email');
  assert.equal(violatedField(javaServerId), '_id');
  assert.equal(violatedField(javaServerCompound), 'teamId');
  assert.equal(violatedField(ferretInsert), undefined);
  assert.equal(violatedField(ferretUpdate), 'teamId');
  assert.equal(isUniqueViolation(ferretUpdate), true);
  assert.equal(isUniqueViolation({ code: 1, message: 'something else' }), false);
});

test('when the field is unknown, then the probe names the key; other errors pass through unchanged', async () => {
  const keys = { _id: 'id', username: 'username', email: 'email' };
  const fromProbe = await asDomainError(ferretInsert, keys, async () => 'username');
  assert.ok(isDuplicateKeyError(fromProbe) && fromProbe.key === 'username');
  const named = await asDomainError(mongodb, keys, async () => assert.fail('no probe needed'));
  assert.ok(isDuplicateKeyError(named) && named.key === 'email');
  const single = await asDomainError(ferretInsert, { teamId: 'member', userId: 'member' });
  assert.ok(isDuplicateKeyError(single) && single.key === 'member');
  const other = new Error('network');
  assert.equal(await asDomainError(other, keys), other);
});

test('when paging or building a $set, then empty pages and undefined or identity fields are left out', () => {
  assert.equal(pageWindow({ page: 0, perPage: 0 }), undefined);
  assert.deepEqual(pageWindow({ page: 2, perPage: 5 }), { skip: 10, limit: 5 });
  assert.deepEqual(setOf({ id: 'x', _id: 'y', a: 1, b: undefined, c: null }, ['id']), { a: 1, c: null });
});
