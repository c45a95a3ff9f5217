import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { markdownTextRuns, mentionTextRuns } from './mention-text-runs';

describe('mention text runs (the reference\'s getExplicitMentions: Markdown Text nodes only)', () => {
  it('when a text has nothing Markdown could hide a mention in, then it is one run as written', async () => {
    assert.deepEqual(await markdownTextRuns('hi *@alice* and _bob_, ~carol~ <b>@dave</b>'), ['hi *@alice* and _bob_, ~carol~ <b>@dave</b>']);
    assert.deepEqual(await markdownTextRuns(''), []);
  });

  it('when mentions sit in code spans, fenced or indented code, then they are not in any run; the text around them is', async () => {
    const runs = await markdownTextRuns('ask `@bob` or\n\n```\n@carol deploy\n```\n\n~~~\n@erin\n~~~\n\n    @dave\n\nthen @frank');
    assert.deepEqual(runs, ['ask ', ' or', 'then @frank']);
  });

  it('when a text has links, images, escapes and character references, then link text, image alt, escaped and decoded characters are read; destinations and definitions never', async () => {
    const runs = await markdownTextRuns('[see @fred](http://x/@gina) ![alt @hank](http://y/@ian) \\@jo &#64;kim [ref]\n\n[ref]: http://z/@lee');
    assert.deepEqual(runs, ['see @fred', ' ', 'alt @hank', ' @jo @kim ', 'ref']);
    assert.ok(!runs.join(' ').includes('gina') && !runs.join(' ').includes('ian') && !runs.join(' ').includes('lee'));
  });

  it('when a text has lists, quotes, headings or tables, then their text is read, a cell per run; emphasis and tags stay text as in the reference', async () => {
    assert.deepEqual(await markdownTextRuns('- one `x` @a\n> two **@b**\n\n# three <i>@c</i>'), ['one ', ' @a', 'two **@b**', 'three <i>@c</i>']);
    assert.deepEqual(await markdownTextRuns('| a | @b |\n|---|---|\n| `@c` | d @e |'), ['a', '@b', 'd @e']);
  });

  it('when a post has attachments, then the message and each pretext, text and field value are read the same way', async () => {
    const post = { message: 'm `@x`', props: { attachments: [{ pretext: 'p @y', text: '```\n@z\n```', fields: [{ value: 'f @w' }] }] } };
    assert.deepEqual(await mentionTextRuns(post), ['m ', 'p @y', 'f @w']);
  });
});
