import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { canonicalDialog } from './canonical-dialog';

/** deepStrictEqual ignores key order; the reference's encoder writes struct order, so compare the JSON text. */
const sameJson = (actual: unknown, expected: unknown): void => assert.equal(JSON.stringify(actual), JSON.stringify(expected));

describe('canonicalDialog', () => {
  it('when nothing is given, then every field of Dialog comes out with its zero value, in struct order, elements null', () => {
    sameJson(canonicalDialog({}), { callback_id: '', title: '', introduction_text: '', icon_url: '', elements: null, submit_label: '', notify_on_cancel: false, state: '' });
    sameJson(canonicalDialog(null), canonicalDialog({}));
    sameJson(canonicalDialog([1, 2]), canonicalDialog({}));
  });

  it('when every field is set, then each keeps its value in struct order; the optional ones appear only when set', () => {
    const element = {
      max_date: '+1w',
      display_name: 'When',
      name: 'when',
      type: 'datetime',
      subtype: 'text',
      default: 'x',
      placeholder: 'p',
      help_text: 'h',
      optional: true,
      min_length: 1,
      max_length: 9,
      data_source: 'dynamic',
      data_source_url: 'https://x.example/ds',
      options: [{ text: 'A', value: 'a', extra: 1 }, null, 'junk', { text: 2 }],
      multiselect: true,
      refresh: true,
      min_date: '-1d',
      time_interval: 30,
      unknown: 'dropped',
    };
    sameJson(
      canonicalDialog({ state: 's', source_url: 'https://x.example/src', callback_id: 'cb', title: 'T', introduction_text: 'i', icon_url: 'https://x.example/i.png', elements: [element, null], submit_label: 'Go', notify_on_cancel: true, made_up: 1 }),
      {
        callback_id: 'cb',
        title: 'T',
        introduction_text: 'i',
        icon_url: 'https://x.example/i.png',
        elements: [
          {
            display_name: 'When',
            name: 'when',
            type: 'datetime',
            subtype: 'text',
            default: 'x',
            placeholder: 'p',
            help_text: 'h',
            optional: true,
            min_length: 1,
            max_length: 9,
            data_source: 'dynamic',
            data_source_url: 'https://x.example/ds',
            options: [{ text: 'A', value: 'a' }, null, null, { text: '', value: '' }],
            multiselect: true,
            refresh: true,
            min_date: '-1d',
            max_date: '+1w',
            time_interval: 30,
          },
          { display_name: '', name: '', type: '', subtype: '', default: '', placeholder: '', help_text: '', optional: false, min_length: 0, max_length: 0, data_source: '', options: null, multiselect: false },
        ],
        submit_label: 'Go',
        notify_on_cancel: true,
        state: 's',
        source_url: 'https://x.example/src',
      },
    );
  });

  it('when the optional fields are given their zero values or a wrong type, then they are left out and the others take zero values', () => {
    const [element] = canonicalDialog({ source_url: '', elements: [{ name: 7, optional: 'yes', min_length: '3', data_source_url: '', refresh: false, min_date: '', max_date: 1, time_interval: 0, options: {} }] }).elements ?? [];
    sameJson(element, { display_name: '', name: '', type: '', subtype: '', default: '', placeholder: '', help_text: '', optional: false, min_length: 0, max_length: 0, data_source: '', options: null, multiselect: false });
    assert.equal('source_url' in canonicalDialog({ source_url: '' }), false);
  });
});

describe('canonicalDialog: datetime_config (11.6, 11.8)', () => {
  it('when an element has datetime_config, then it is kept in the reference field order, zero fields left out; absent, it is not added', () => {
    const dialog = canonicalDialog({ elements: [{ name: 'due', type: 'datetime', datetime_config: { manual_time_entry: true, min_date: 'today', time_interval: 30, location_timezone: 'Europe/Berlin', bogus: 1, max_date: '' } }, { name: 'day', type: 'date' }] });
    const [due, day] = dialog.elements ?? [];
    assert.deepEqual(JSON.stringify(due?.datetime_config), JSON.stringify({ time_interval: 30, location_timezone: 'Europe/Berlin', min_date: 'today', manual_time_entry: true }));
    assert.equal(day !== undefined && 'datetime_config' in day, false);
  });
});
