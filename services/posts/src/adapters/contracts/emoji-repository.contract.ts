import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { newId } from '@switchyard/ids';
import type { Emoji } from '../../domain/emoji/emoji';
import type { EmojiRepository } from '../../domain/emoji/emoji-ports';
import { rejectsDuplicate, type Factory } from './fixtures';

export function anEmoji(overrides: Partial<Emoji> = {}): Emoji {
  return { id: newId(), create_at: 1_000, update_at: 1_000, delete_at: 0, creator_id: newId(), name: `e${newId().slice(0, 10)}`, ...overrides };
}

export function emojiRepositoryContract(name: string, make: Factory<EmojiRepository>): void {
  describe(`EmojiRepository contract: ${name}`, () => {
    it('when emoji are inserted, then found by id, name and names; a live name and an id are unique', async () => {
      const repo = await make();
      const a = anEmoji({ name: 'party-parrot' });
      const b = anEmoji({ name: 'Ship_It+1' });
      await repo.insert(a);
      await repo.insert(b);
      assert.deepEqual(await repo.findById(a.id), a);
      assert.deepEqual(await repo.findByName('Ship_It+1'), b);
      assert.equal(await repo.findByName('ship_it+1'), undefined, 'names are case-sensitive');
      assert.deepEqual((await repo.findByNames(['party-parrot', 'Ship_It+1', 'nope', 'party-parrot'])).map((e) => e.id).sort(), [a.id, b.id].sort());
      await rejectsDuplicate(() => repo.insert(anEmoji({ name: 'party-parrot' })), 'name');
      await rejectsDuplicate(() => repo.insert(anEmoji({ id: a.id })), 'id');
    });

    it('when an emoji is deleted, then reads miss it, a second delete is false, and its name can be taken again', async () => {
      const repo = await make();
      const a = anEmoji({ name: 'gone' });
      await repo.insert(a);
      assert.equal(await repo.softDelete(a.id, 5_000), true);
      assert.equal(await repo.softDelete(a.id, 6_000), false);
      assert.equal(await repo.findById(a.id), undefined);
      assert.equal(await repo.findByName('gone'), undefined);
      assert.deepEqual(await repo.list(0, 10, true), []);
      const again = anEmoji({ name: 'gone' });
      await repo.insert(again);
      assert.deepEqual(await repo.findByName('gone'), again);
    });

    it('when emoji are listed, then oldest first or by name, paged by offset and limit', async () => {
      const repo = await make();
      const c = anEmoji({ name: 'charlie', create_at: 1 });
      const a = anEmoji({ name: 'alpha', create_at: 3 });
      const b = anEmoji({ name: 'bravo', create_at: 2 });
      for (const e of [c, a, b]) await repo.insert(e);
      assert.deepEqual((await repo.list(0, 10, false)).map((e) => e.name), ['charlie', 'bravo', 'alpha']);
      assert.deepEqual((await repo.list(0, 10, true)).map((e) => e.name), ['alpha', 'bravo', 'charlie']);
      assert.deepEqual((await repo.list(1, 1, true)).map((e) => e.name), ['bravo']);
      assert.deepEqual(await repo.list(3, 10, true), []);
      assert.deepEqual(await repo.list(0, 0, true), []);
    });

    it('when names are searched, then by prefix or substring, case-sensitive, literal (no wildcards), by name, limited', async () => {
      const repo = await make();
      for (const n of ['cat', 'catalog', 'bobcat', 'Cat_big', 'c.t', 'c%t']) await repo.insert(anEmoji({ name: n }));
      assert.deepEqual((await repo.search('cat', true, 10)).map((e) => e.name), ['cat', 'catalog']);
      assert.deepEqual((await repo.search('cat', false, 10)).map((e) => e.name), ['bobcat', 'cat', 'catalog']);
      assert.deepEqual((await repo.search('cat', false, 2)).map((e) => e.name), ['bobcat', 'cat']);
      assert.deepEqual((await repo.search('c.t', true, 10)).map((e) => e.name), ['c.t']);
      assert.deepEqual((await repo.search('c%', true, 10)).map((e) => e.name), ['c%t']);
      assert.deepEqual((await repo.search('.*', false, 10)).map((e) => e.name), []);
      assert.deepEqual((await repo.search('Cat', true, 10)).map((e) => e.name), ['Cat_big']);
    });
  });
}
