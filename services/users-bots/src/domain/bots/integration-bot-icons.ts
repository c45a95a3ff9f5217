/**
 * The icons of the built-in integrations' bots: a badge in the integration's colour with its initials
 * (drawn here, so no vendor artwork is shipped). Stored through the same sanitiser as an uploaded bot icon.
 */
const BADGES: Readonly<Record<string, { readonly colour: string; readonly initials: string }>> = {
  github: { colour: '#24292f', initials: 'GH' },
  gitlab: { colour: '#fc6d26', initials: 'GL' },
  alertmanager: { colour: '#e6522c', initials: 'AM' },
  grafana: { colour: '#f46800', initials: 'GF' },
  sentry: { colour: '#362d59', initials: 'S' },
};

/** The bot icon (SVG text) of a built-in integration, or undefined for another name. */
export function integrationBotIcon(username: string): string | undefined {
  if (!Object.prototype.hasOwnProperty.call(BADGES, username)) return undefined;
  const badge = BADGES[username];
  if (!badge) return undefined;
  return [
    '<svg xmlns="http://www.w3.org/2000/svg" width="128" height="128" viewBox="0 0 128 128">',
    `<rect width="128" height="128" rx="28" fill="${badge.colour}"/>`,
    `<text x="64" y="64" dy="0.35em" text-anchor="middle" font-family="Helvetica, Arial, sans-serif" font-size="52" font-weight="700" fill="#ffffff">${badge.initials}</text>`,
    '</svg>',
  ].join('');
}
