import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderToStaticMarkup } from 'react-dom/server';
import type { Dialog } from './dialog-types';
import { InteractiveDialog } from './interactive-dialog';

const sources = { users: [{ text: '@alice', value: 'u1' }], channels: [{ text: '~town-square', value: 'c1' }] };
const render = (dialog: Dialog, serverErrors: Record<string, string> = {}, error: unknown = undefined) =>
  renderToStaticMarkup(<InteractiveDialog dialog={dialog} sources={sources} pending={false} serverErrors={serverErrors} error={error} onSubmit={() => undefined} onCancel={() => undefined} />);

const dialog: Dialog = {
  title: 'Report',
  icon_url: 'https://example.com/icon.png',
  introduction_text: 'Tell us **everything**.',
  submit_label: 'File it',
  elements: [
    { display_name: 'Email', name: 'email', type: 'text', subtype: 'email', default: 'a@b.c', help_text: 'Where we answer.', max_length: 50 },
    { display_name: 'Notes', name: 'notes', type: 'textarea', optional: true, placeholder: 'Anything else' },
    { display_name: 'Who', name: 'who', type: 'select', data_source: 'users' },
    { display_name: 'Where', name: 'where', type: 'select', data_source: 'channels', optional: true },
    { display_name: 'Level', name: 'level', type: 'radio', default: 'hi', options: [{ text: 'High', value: 'hi' }, { text: 'Low', value: 'lo' }] },
    { display_name: 'Agree', name: 'agree', type: 'bool', default: 'true', placeholder: 'I agree' },
    { display_name: 'Ignored', name: 'x', type: 'slider' },
  ],
};

test('when a dialog is drawn, then title, icon, Markdown introduction and each element type appear with their defaults and labels', () => {
  const html = render(dialog);
  assert.match(html, /<dialog class="interactive-dialog" aria-labelledby="[^"]+"/);
  assert.match(html, /<h2 id="[^"]+">Report<\/h2>/);
  assert.match(html, /<img src="https:\/\/example.com\/icon.png" alt=""/);
  assert.match(html, /class="markdown"[^>]*>[^<]*(Tell us \*\*everything\*\*|<strong>everything<\/strong>)/, 'the introduction goes through the Markdown renderer');
  assert.match(html, /<label for="[^"]+">Email<\/label><input id="[^"]+" aria-describedby="[^"]+-hint" type="email" required="" maxLength="50" value="a@b.c"\/>/);
  assert.match(html, /Where we answer\./);
  assert.match(html, /<label for="[^"]+">Notes \(optional\)<\/label><textarea[^>]*placeholder="Anything else"/);
  assert.match(html, /<option value="u1">@alice<\/option>/);
  assert.match(html, /<option value="c1">~town-square<\/option>/);
  assert.match(html, /<legend>Level<\/legend>/);
  assert.match(html, /<input type="radio"[^>]*checked="" value="hi"/);
  assert.match(html, /<input type="checkbox"[^>]*checked=""\/><label[^>]*>Agree: I agree<\/label>/);
  assert.doesNotMatch(html, /Ignored/, 'unknown element types are skipped');
  assert.match(html, /<button type="submit" class="primary">File it<\/button>/);
  assert.match(html, /<button type="button">Cancel<\/button>/);
});

test('when the integration returned field errors and a general error, then each shows next to its control', () => {
  const html = render(dialog, { email: 'Already registered' }, new Error('Service is busy'));
  assert.match(html, /aria-invalid="true"[^>]*type="email"/);
  assert.match(html, /<p class="error" id="[^"]+-problem" role="alert">Already registered<\/p>/);
  assert.match(html, /<p class="error" role="alert">Service is busy<\/p>/);
});

test('when there is no submit label or title, then Submit and Dialog are used', () => {
  const html = render({ elements: [] });
  assert.match(html, />Dialog<\/h2>/);
  assert.match(html, />Submit<\/button>/);
});

test('when a dialog has 11.x elements, then a multiselect is a multiple select, a dynamic select has a search box, date and datetime use their inputs with bounds', () => {
  const html = render({
    title: 'New',
    elements: [
      { display_name: 'Parts', name: 'parts', type: 'select', multiselect: true, default: 'api', options: [{ text: 'API', value: 'api' }, { text: 'Web', value: 'web' }] },
      { display_name: 'Component', name: 'component', type: 'select', data_source: 'dynamic', data_source_url: 'https://int.example/lookup' },
      { display_name: 'Day', name: 'day', type: 'date', min_date: '2026-01-01', max_date: '2026-12-31' },
      { display_name: 'At', name: 'at', type: 'datetime', time_interval: 30 },
    ],
  });
  assert.match(html, /<select[^>]*multiple=""[^>]*>(?:(?!<\/select>).)*<option value="api" selected="">API<\/option>/s);
  assert.match(html, /<label for="[^"]+">Search Component<\/label><input[^>]*placeholder="Type to search…"/);
  assert.match(html, /<input[^>]*type="date"[^>]*min="2026-01-01"[^>]*max="2026-12-31"/);
  assert.match(html, /<input[^>]*type="datetime-local"[^>]*step="1800"/);
});
