import type { Attachment } from './types';

/** Attachment JSON as integrations send it, for the renderer's tests. */
export const fixtures = {
  full: {
    fallback: 'Build 42 passed',
    color: '#36a64f',
    pretext: 'Deploy report',
    author_name: 'CI',
    author_link: 'https://ci.example/',
    author_icon: 'https://ci.example/icon.png',
    title: 'Build #42',
    title_link: 'https://ci.example/42',
    text: 'All **green**',
    image_url: 'https://ci.example/graph.png',
    thumb_url: 'https://ci.example/thumb.png',
    footer: 'ci.example',
    footer_icon: 'https://ci.example/f.png',
    ts: 1700000000,
  },
  namedColor: { color: 'good', text: 'named colours are not a bar colour' },
  longText: { text: Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\n') },
  longFooter: { footer: 'f'.repeat(350) },
  fields: {
    fields: [
      { title: 'Env', value: 'prod', short: true },
      { title: 'Region', value: 'eu', short: true },
      { title: 'Notes', value: 'a long one', short: false },
      { title: 'Owner', value: 'ops', short: true },
    ],
  },
  buttons: {
    actions: [
      { id: 'a0', name: 'Default', type: 'button' },
      { id: 'a1', name: 'Primary', type: 'button', style: 'primary' },
      { id: 'a2', name: 'Success', type: 'button', style: 'success' },
      { id: 'a3', name: 'Good', type: 'button', style: 'good' },
      { id: 'a4', name: 'Warning', type: 'button', style: 'warning' },
      { id: 'a5', name: 'Danger', type: 'button', style: 'danger' },
      { id: 'a6', name: 'Hex', type: 'button', style: '#aa00cc' },
      { id: 'a7', name: 'Off', type: 'button', disabled: true },
    ],
  },
  menus: {
    actions: [
      { id: 'm1', name: 'Pick one', type: 'select', options: [{ text: 'One', value: '1' }, { text: 'Two', value: '2' }], default_option: '2' },
      { id: 'm2', name: 'Pick a user', type: 'select', data_source: 'users' },
      { id: 'm3', name: 'Pick a channel', type: 'select', data_source: 'channels' },
    ],
  },
  unsafe: { title: 'x', title_link: 'javascript:alert(1)', author_name: 'y', author_link: 'javascript:alert(2)', image_url: 'data:image/svg+xml,<svg/>' },
} satisfies Record<string, Attachment>;
