import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { normalizePreference, preferenceError, type Preference } from './preference';

const base: Preference = { user_id: 'u'.repeat(26), category: 'display_settings', name: 'n', value: 'v' };
const idOf = (p: Preference): string | undefined => preferenceError(p)?.id;

describe('preference validation and theme normalisation (the reference\'s IsValid and PreUpdate)', () => {
  it('when a field breaks a limit, then the reference\'s id, checked in its order', () => {
    assert.equal(idOf(base), undefined);
    assert.equal(idOf({ ...base, user_id: 'short', category: '' }), 'model.preference.is_valid.id.app_error');
    assert.equal(idOf({ ...base, category: '' }), 'model.preference.is_valid.category.app_error');
    assert.equal(idOf({ ...base, category: 'c'.repeat(33) }), 'model.preference.is_valid.category.app_error');
    assert.equal(idOf({ ...base, name: '' }), undefined, 'an empty name is allowed');
    assert.equal(idOf({ ...base, name: 'n'.repeat(33) }), 'model.preference.is_valid.name.app_error');
    assert.equal(idOf({ ...base, value: '€'.repeat(20_000) }), undefined, 'the value limit counts characters');
    assert.equal(idOf({ ...base, value: 'v'.repeat(20_001) }), 'model.preference.is_valid.value.app_error');
    for (const value of ['0', '41', 'x', '1.5']) assert.equal(idOf({ ...base, category: 'sidebar_settings', name: 'limit_visible_dms_gms', value }), 'model.preference.is_valid.limit_visible_dms_gms.app_error', value);
    assert.equal(idOf({ ...base, category: 'sidebar_settings', name: 'limit_visible_dms_gms', value: '40' }), undefined);
  });

  it('when a theme is saved, then bad colours become #ffffff, other entries drop, keys sort, and a non-object is null', () => {
    const theme = (value: string) => normalizePreference({ ...base, category: 'theme', value }).value;
    assert.equal(theme('{"type":"Onyx","b":"#ABC","a":"blue","image":"x.png","n":5}'), '{"a":"#ffffff","b":"#ABC","image":"x.png","type":"Onyx"}');
    assert.equal(theme('[1]'), 'null');
    assert.equal(theme('not json'), 'null');
    assert.equal(normalizePreference({ ...base, value: '[1]' }).value, '[1]', 'other categories are left alone');
  });
});
