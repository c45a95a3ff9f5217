import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderToStaticMarkup } from 'react-dom/server';
import { barColor, buttonStyle, fieldRows, truncateFooter } from './attachment-rules';
import { fixtures } from './fixtures';
import { MessageAttachment } from './message-attachment';
import type { Attachment } from './types';

const sources = { users: [{ text: '@alice', value: 'u1' }], channels: [{ text: '~town-square', value: 'c1' }] };
const render = (attachment: Attachment, busy = false) => renderToStaticMarkup(<MessageAttachment attachment={attachment} onAction={() => undefined} busy={busy} sources={sources} />);

test('when every display field is set, then colour bar, pretext, author with icon and link, title link, text, image, thumbnail and footer with icon are drawn, and ts is not', () => {
  const html = render(fixtures.full);
  assert.match(html, /data-color="#36a64f"[^>]*style="border-left-color:#36a64f"/);
  assert.match(html, /class="markdown attachment-pretext"[^>]*>Deploy report/);
  assert.match(html, /<img src="https:\/\/ci.example\/icon.png" alt="" width="16" height="16"/);
  assert.match(html, /<a href="https:\/\/ci.example\/"[^>]*>CI<\/a>/);
  assert.match(html, /<h4 class="attachment-title"><a href="https:\/\/ci.example\/42"[^>]*>Build #42<\/a><\/h4>/);
  assert.match(html, /All \*\*green\*\*|All <strong>green<\/strong>/);
  assert.match(html, /class="attachment-image" src="https:\/\/ci.example\/graph.png"/);
  assert.match(html, /class="attachment-thumb" src="https:\/\/ci.example\/thumb.png"[^>]*width="75" height="75"/);
  assert.match(html, /<div class="attachment-footer"><img src="https:\/\/ci.example\/f.png"[^>]*><span>ci.example<\/span>/);
  assert.doesNotMatch(html, /1700000000/);
});

test('when the colour is a named value, then there is no coloured bar', () => {
  assert.match(render(fixtures.namedColor), /data-color="default"/);
  assert.equal(barColor('good'), undefined);
  assert.equal(barColor('#ABC'), '#ABC');
  assert.equal(barColor('#12345'), undefined);
});

test('when the text is long, then it is collapsed behind a Show more button', () => {
  const html = render(fixtures.longText);
  assert.match(html, /<button type="button" class="link" aria-expanded="false"[^>]*>Show more<\/button>/);
  assert.doesNotMatch(render({ text: 'short' }), /Show more/);
});

test('when the footer is over 300 characters, then it is cut to 300 with an ellipsis', () => {
  const html = render(fixtures.longFooter);
  const shown = /<div class="attachment-footer"><span>([^<]*)<\/span>/.exec(html)?.[1] ?? '';
  assert.equal([...shown].length, 300);
  assert.ok(shown.endsWith('…'));
  assert.equal(truncateFooter('f'.repeat(300)), 'f'.repeat(300));
});

test('when fields are short, then they sit two to a row; a long field takes a row of its own', () => {
  const html = render(fixtures.fields);
  const rows = html.match(/<tr>.*?<\/tr>/g) ?? [];
  assert.equal(rows.length, 3);
  assert.match(rows[0] ?? '', /Env.*Region/);
  assert.match(rows[1] ?? '', /<td colspan="2" class="long">.*Notes/i);
  assert.match(rows[2] ?? '', /Owner/);
  assert.deepEqual(
    fieldRows([{ short: true }, { short: false }, { short: true }, { short: true }, { short: true }]).map((r) => r.length),
    [1, 1, 2, 1],
  );
});

test('when buttons carry each style, then each gets its look; a HEX style colours it; disabled ones are disabled', () => {
  const html = render(fixtures.buttons);
  for (const [name, cls] of [['Default', 'default'], ['Primary', 'primary'], ['Success', 'success'], ['Good', 'success'], ['Warning', 'warning'], ['Danger', 'danger']] as const) {
    assert.match(html, new RegExp(`class="action-button action-${cls}"[^>]*>${name}</button>`), name);
  }
  assert.match(html, /class="action-button action-custom" style="color:#aa00cc;border-color:#aa00cc"[^>]*>Hex<\/button>/);
  assert.match(html, /<button type="button" class="action-button action-default" disabled="">Off<\/button>/);
  assert.deepEqual(buttonStyle('GOOD'), { name: 'success' });
  assert.deepEqual(buttonStyle('rainbow'), { name: 'default' });
  assert.match(render(fixtures.buttons, true), /class="action-button action-primary" disabled=""/);
});

test('when menus have options, a default option or a data source, then they are labelled selects with those options', () => {
  const html = render(fixtures.menus);
  assert.match(html, /<label for="[^"]+" class="sr-only">Pick one<\/label>/);
  assert.match(html, /<option value="2" selected="">Two<\/option>/);
  assert.match(html, /<option value="u1">@alice<\/option>/);
  assert.match(html, /<option value="c1">~town-square<\/option>/);
});

test('when links or images are not http(s), then they are not used', () => {
  const html = render(fixtures.unsafe);
  assert.doesNotMatch(html, /javascript:/);
  assert.doesNotMatch(html, /data:image/);
  assert.match(html, /<h4 class="attachment-title">x<\/h4>/);
});

test('when text holds HTML and no DOM is there to sanitise, then it is escaped, never inserted', () => {
  const html = render({ text: '<img src=x onerror=alert(1)>' });
  assert.doesNotMatch(html, /<img src=x/);
  assert.match(html, /&lt;img src=x onerror=alert\(1\)&gt;/);
});
