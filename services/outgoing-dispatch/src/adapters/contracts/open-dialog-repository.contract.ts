import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { newId } from '@switchyard/ids';
import type { OpenDialogRecord } from '../../domain/dialogs/open-dialog-record';
import type { OpenDialogRepository } from '../../domain/ports';

const aDialog = (overrides: Partial<OpenDialogRecord> = {}): OpenDialogRecord => ({
  id: newId(),
  userId: 'u'.repeat(26),
  url: 'https://example.com/dialog',
  callbackId: 'cb',
  state: 'st',
  notifyOnCancel: false,
  sourceUrl: '',
  lookupUrls: [],
  createAt: 1_000,
  expiresAt: 10_000,
  ...overrides,
});

const match = (d: OpenDialogRecord) => ({ userId: d.userId, url: d.url, callbackId: d.callbackId, state: d.state });

/** The behaviour every OpenDialogRepository adapter must have. `fresh` gives an empty repository. */
export function openDialogRepositoryContract(name: string, fresh: () => Promise<OpenDialogRepository>): void {
  describe(`OpenDialogRepository (${name})`, () => {
    it('when a dialog is open, then only an exact match of user, url, callback id and state finds it, until it expires', async () => {
      const repo = await fresh();
      const dialog = aDialog({ notifyOnCancel: true });
      await repo.insert(dialog, 20);
      assert.deepEqual(await repo.findOpen(match(dialog), 9_999), dialog);
      assert.equal(await repo.findOpen(match(dialog), 10_000), undefined, 'expired at expiresAt');
      for (const change of [{ userId: 'x'.repeat(26) }, { url: 'https://example.com/other' }, { callbackId: 'cb2' }, { state: 'forged' }]) {
        assert.equal(await repo.findOpen({ ...match(dialog), ...change }, 5_000), undefined, JSON.stringify(change));
      }
    });

    it('when a dialog has a source url and lookup urls, then they are kept, and a match without url finds it by user, callback id and state', async () => {
      const repo = await fresh();
      const dialog = aDialog({ sourceUrl: 'https://example.com/refresh', lookupUrls: ['https://example.com/a', 'https://example.com/b'] });
      await repo.insert(dialog, 20);
      assert.deepEqual(await repo.findOpen({ ...match(dialog), url: undefined }, 5_000), dialog);
      assert.equal(await repo.findOpen({ ...match(dialog), url: undefined, state: 'forged' }, 5_000), undefined);
      assert.equal(await repo.findOpen({ ...match(dialog), url: undefined, userId: 'x'.repeat(26) }, 5_000), undefined);
      assert.equal(await repo.findOpen({ ...match(dialog), url: undefined }, 10_000), undefined, 'expired');
    });

    it('when two dialogs match, then the newest is found; removing it leaves the other', async () => {
      const repo = await fresh();
      const older = aDialog({ createAt: 1_000 });
      const newer = aDialog({ createAt: 2_000 });
      await repo.insert(older, 20);
      await repo.insert(newer, 20);
      assert.equal((await repo.findOpen(match(newer), 3_000))?.id, newer.id);
      assert.equal(await repo.remove(newer.id), true);
      assert.equal(await repo.remove(newer.id), false, 'already removed');
      assert.equal((await repo.findOpen(match(older), 3_000))?.id, older.id);
    });

    it('when a dialog is opened after others expired, then the expired ones are removed, of every user', async () => {
      const repo = await fresh();
      const expired = aDialog({ userId: 'o'.repeat(26), expiresAt: 10_000 });
      const open = aDialog({ state: 'still-open', expiresAt: 30_000 });
      await repo.insert(expired, 20);
      await repo.insert(open, 20);
      await repo.insert(aDialog({ state: 'later', createAt: 20_000, expiresAt: 40_000 }), 20);
      // Asked "as of" a time before it expired: only a removed dialog is not found then.
      assert.equal(await repo.findOpen(match(expired), 5_000), undefined, 'removed once a later insert saw it expired');
      assert.equal((await repo.findOpen(match(open), 5_000))?.id, open.id, 'a dialog not yet expired stays');
    });

    it('when a user opens more than the cap, then the oldest of that user are forgotten, other users untouched', async () => {
      const repo = await fresh();
      const other = aDialog({ userId: 'o'.repeat(26), state: 'other' });
      await repo.insert(other, 2);
      const mine = [1, 2, 3].map((i) => aDialog({ createAt: 1_000 + i, state: `s${i}` }));
      for (const d of mine) await repo.insert(d, 2);
      assert.equal(await repo.findOpen(match(mine[0] as OpenDialogRecord), 2_000), undefined);
      assert.ok(await repo.findOpen(match(mine[1] as OpenDialogRecord), 2_000));
      assert.ok(await repo.findOpen(match(mine[2] as OpenDialogRecord), 2_000));
      assert.ok(await repo.findOpen(match(other), 2_000));
    });
  });
}
